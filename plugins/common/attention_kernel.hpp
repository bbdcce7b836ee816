// attention_kernel.hpp: the Eigen attention kernel every bundled plugin runs (one source, f32/f64):
// GEMM-shaped row blocks, a streaming online-softmax path when A and S are not wanted, threads
// over (head, row block) tasks, and workspaces reused from call to call.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_ATTENTION_KERNEL_HPP_
#define AWB_PLUGINS_COMMON_ATTENTION_KERNEL_HPP_

#include <algorithm>
#include <awb/plugin.hpp>
#include <cmath>
#include <cstring>
#include <limits>
#include <thread>
#include <vector>

#include "common/fused_attention.hpp"
#include "common/fused_backward.hpp"
#include "common/gemm.hpp"
#include "common/projections.hpp"
#include "common/softmax_exp.hpp"
#include "common/thread_team.hpp"

namespace awb::kernels {

// Which inputs a variant reads: the parameter-free variant ignores any weights it is given.
enum class Inputs { kParameterFree, kProjected };
// Whether the causal mask follows the problem's causal flag, or is on whatever the flag says
// (the causal variant).
enum class Mask { kAsProblemSays, kAlwaysCausal };

// Rows of queries per task, and keys per tile of the streaming path. 128 × 512 floats of scores
// (256 KiB) stay in L2 while the tile's GEMMs run; fewer, larger tiles mean each K and V tile is
// packed for the GEMM fewer times (on a 2-core AVX-512 machine 128 × 512 ran about 10 % faster
// than 64 × 256 at T = 4096, d = 64).
inline constexpr Eigen::Index kRowBlock = 128;
inline constexpr Eigen::Index kKeyTile = 512;
// Tiles start at multiples of kKeyTile and blocks at multiples of kRowBlock, so the first key
// tile of any causal row holds at least its own key: no row's first tile is fully masked.
static_assert(kKeyTile % kRowBlock == 0);

// What one thread needs for one task, kept between calls so repeated calls touch no new pages.
template <class Scalar>
struct Scratch {
  // kRowBlock × T (materialised path) or kRowBlock × kKeyTile (streaming)
  RowMatrix<Scalar> scores;
  RowMatrix<Scalar> out;  // kRowBlock × d_v
  RowMatrix<Scalar> q;    // kRowBlock × d_k: the block's queries times the score factor
  Eigen::Matrix<Scalar, Eigen::Dynamic, 1> row_max, row_sum;
};

// What one call computes, as the kernel sees it: without projections Q = K = V = X in one head
// of width d_model. Query head h reads key/value head kv_head(h) of kv_heads (grouped-query
// attention; kv_heads = heads in ordinary multi-head attention).
struct Geometry {
  bool projected, causal;
  int heads;
  Eigen::Index tokens, dk, dv;
  int kv_heads;
  bool operator==(const Geometry&) const = default;
  int group() const { return heads / kv_heads; }
  int kv_head(int h) const { return h / group(); }
};

// The call's sequences (SDK 1.3): `batch` of `tokens` each, the first length(b) of sequence b
// real; one whole sequence when the problem is not batched.
struct Sequences {
  Eigen::Index batch, tokens;
  const int64_t* lengths;
  explicit Sequences(const awb_problem& p)
      : batch(batch_size(p)), tokens(sequence_tokens(p)), lengths(sequence_lengths(p)) {}
  Eigen::Index length(Eigen::Index b) const { return lengths ? lengths[b] : tokens; }
  bool batched() const { return batch > 1 || lengths != nullptr; }
  // Σ L_b²: the attention's work per head and unit of width.
  double squared_lengths() const {
    double sum = 0;
    for (Eigen::Index b = 0; b < batch; ++b) sum += double(length(b)) * double(length(b));
    return sum;
  }
  // The bands of real rows (first, count) when some are padded; none (every row) otherwise.
  std::vector<std::pair<Eigen::Index, Eigen::Index>> real_rows() const {
    std::vector<std::pair<Eigen::Index, Eigen::Index>> out;
    if (lengths)
      for (Eigen::Index b = 0; b < batch; ++b) out.emplace_back(b * tokens, length(b));
    return out;
  }
  // Zeroes the padded rows of a matrix with a row per token of the batch.
  template <class M>
  void zero_padding(M& m) const {
    for (Eigen::Index b = 0; b < batch; ++b)
      m.middleRows(b * tokens + length(b), tokens - length(b)).setZero();
  }
};

// Tokens of a batch taken in one go: its sequences go in groups of about this many rows, so that
// a group's Q, K, V and heads' outputs stay in the caches between the passes.
inline constexpr Eigen::Index kBatchRows = 1024;

// Sequences [first, first + count) of a batch as a batch of their own (views), and their results.
inline awb_problem sequences_of(const awb_problem& p, Eigen::Index first, Eigen::Index count) {
  awb_problem out = p;
  const Eigen::Index T = sequence_tokens(p);
  const size_t bytes = awb::detail::element_bytes(p);
  out.x = awb::detail::rows_of(p.x, first * T, count * T, bytes);
  out.batch = static_cast<int32_t>(count);
  if (const int64_t* lengths = sequence_lengths(p)) out.lengths = lengths + first;
  return out;
}
inline awb_results sequences_of(const awb_results& r, const awb_problem& p, Eigen::Index first,
                                Eigen::Index count) {
  awb_results out = r;
  const Eigen::Index T = sequence_tokens(p), H = p.n_heads;
  const size_t bytes = awb::detail::element_bytes(p);
  out.z = awb::detail::rows_of(r.z, first * T, count * T, bytes);
  out.a = awb::detail::planes_of(r.a, first * H, count * H, T, bytes);
  out.s = awb::detail::planes_of(r.s, first * H, count * H, T, bytes);
  return out;
}

// The inputs of the last forward call, kept once the variant is seen training (a backward call
// came): the backward then reuses that call's Q, K, V, outputs and row statistics instead of
// running the forward again, when it is given exactly the same problem (compared bit for bit).
template <class Scalar>
struct SavedInputs {
  bool valid = false;
  Geometry geometry{};
  Scalar factor = 0;
  std::vector<Scalar> x, w_q, w_k, w_v, w_o;
  std::vector<int64_t> sequences;  // a batch's size and lengths (SDK 1.3)

  void save(const Problem<Scalar>& p, const Geometry& g, Scalar f) {
    geometry = g;
    factor = f;
    sequences = batch_of(p.raw());
    copy(p.x(), x);
    const bool projected = g.projected, with_wo = projected && p.has_output_projection();
    copy_if(
        projected, [&] { return p.w_q(); }, w_q);
    copy_if(
        projected, [&] { return p.w_k(); }, w_k);
    copy_if(
        projected, [&] { return p.w_v(); }, w_v);
    copy_if(
        with_wo, [&] { return p.w_o(); }, w_o);
    valid = true;
  }
  bool matches(const Problem<Scalar>& p, const Geometry& g, Scalar f) const {
    if (!valid || !(geometry == g) || factor != f || sequences != batch_of(p.raw())) return false;
    const bool projected = g.projected, with_wo = projected && p.has_output_projection();
    return same(p.x(), x) &&
           same_if(
               projected, [&] { return p.w_q(); }, w_q) &&
           same_if(
               projected, [&] { return p.w_k(); }, w_k) &&
           same_if(
               projected, [&] { return p.w_v(); }, w_v) &&
           same_if(
               with_wo, [&] { return p.w_o(); }, w_o) &&
           (with_wo || w_o.empty());
  }

 private:
  static std::vector<int64_t> batch_of(const awb_problem& p) {
    std::vector<int64_t> out{batch_size(p)};
    if (const int64_t* lengths = sequence_lengths(p))
      out.insert(out.end(), lengths, lengths + out[0]);
    return out;
  }
  static void copy(ConstMatrixView<Scalar> m, std::vector<Scalar>& out) {
    out.resize(static_cast<size_t>(m.rows() * m.cols()));
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      std::copy_n(m.data() + i * m.outerStride(), m.cols(), out.data() + i * m.cols());
  }
  template <class Get>
  static void copy_if(bool present, Get&& get, std::vector<Scalar>& out) {
    if (present)
      copy(get(), out);
    else
      out.clear();
  }
  // Bit for bit: a NaN equals itself, and -0 differs from 0 as it may in what follows.
  static bool same(ConstMatrixView<Scalar> m, const std::vector<Scalar>& saved) {
    if (saved.size() != static_cast<size_t>(m.rows() * m.cols())) return false;
    for (Eigen::Index i = 0; i < m.rows(); ++i)
      if (std::memcmp(m.data() + i * m.outerStride(), saved.data() + i * m.cols(),
                      static_cast<size_t>(m.cols()) * sizeof(Scalar)) != 0)
        return false;
    return true;
  }
  template <class Get>
  static bool same_if(bool present, Get&& get, const std::vector<Scalar>& saved) {
    return present ? same(get(), saved) : saved.empty();
  }
};

template <class Scalar>
struct Workspace {
  RowMatrix<Scalar> q, k, v, heads_out;
  std::vector<Scratch<Scalar>> scratch;
  fused::Packed<Scalar> packed;  // the fused path's K and V (fused_attention.hpp)
  std::vector<fused::Scratch<Scalar>> fused_scratch;
  fused::GemmScratch<Scalar> projection;  // the fused worlds' projections (fused_gemm.hpp)
  // The backward pass's (fused_backward.hpp): each head's row statistics from the streaming
  // forward (heads × T), the inputs they came from, the gradients of Q, K, V and the heads.
  fused::AlignedVector<Scalar> lse;
  SavedInputs<Scalar> saved;
  fused::BackwardScratch<Scalar> backward;
  // dQ, dK and dV side by side (T × (h·d_k + g·d_k + g·d_v)), the heads' outputs' gradient, and
  // a transposed operand of the projections' gradients.
  RowMatrix<Scalar> dqkv, dheads, transposed;
};

// Per-instance state of a bundled variant: one workspace per scalar type, and its threads.
struct Workspaces {
  Workspace<double> f64;
  Workspace<float> f32;
  ThreadTeam team;
  bool training = false;  // a backward call came: forward calls keep what it reuses
  template <class Scalar>
  Workspace<Scalar>& get() {
    if constexpr (std::is_same_v<Scalar, double>)
      return f64;
    else
      return f32;
  }
};

// What turns Q·Kᵀ into the softmax input: scale and sharpness. `dk` is the kernel's own key width:
// without projections it is d_model, whatever else the problem holds.
template <class Scalar>
Scalar score_factor(const Problem<Scalar>& p, Eigen::Index dk) {
  return static_cast<Scalar>(p.sharpness() / (p.scale_mode() == ScaleMode::kInvSqrtDk
                                                  ? std::sqrt(static_cast<double>(dk))
                                                  : 1.0));
}

// The call's geometry; throws when a projected variant is given no weights.
template <class Scalar>
Geometry geometry(const Problem<Scalar>& p, Inputs inputs, Mask mask) {
  const bool projected = inputs == Inputs::kProjected;
  if (projected && !p.has_projections())
    throw PluginError(AWB_ERR_INVALID_ARGUMENT, "this variant needs W_q, W_k and W_v");
  const int heads = projected ? p.heads() : 1, kv_heads = projected ? p.kv_heads() : 1;
  if (kv_heads < 1 || kv_heads > heads || heads % kv_heads != 0)
    throw PluginError(AWB_ERR_INVALID_ARGUMENT, "n_kv_heads must divide n_heads");
  return {projected,  mask == Mask::kAlwaysCausal || p.causal(), heads,
          p.tokens(), projected ? p.d_k() : p.d_model(),         projected ? p.d_v() : p.d_model(),
          kv_heads};
}

namespace detail {

// Softmax of each row of `a`, in place (a row-major block: each row contiguous). Row i of the
// block is query `first_row + i`; with the causal mask it sees keys 0..first_row + i and the rest
// get exactly 0. The row maximum is subtracted only so that exp() cannot overflow; it cancels
// in the ratio.
template <class A>
void softmax_rows(A&& a, Eigen::Index first_row, bool causal) {
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    const Eigen::Index visible = causal ? std::min(first_row + i + 1, a.cols()) : a.cols();
    auto row = a.row(i);
    const auto sum = exp_shifted_sum(row.data(), visible, row.head(visible).maxCoeff());
    row.head(visible) /= sum;
    if (visible < a.cols()) row.tail(a.cols() - visible).setZero();
  }
}

// Streaming attention for one block of queries (FlashAttention's online softmax, Dao et al.
// 2022): never holds more than kRowBlock × kKeyTile scores. Keeps a running maximum m and sum l
// per row; when the maximum grows, the partial output and sum are rescaled by exp(m_old − m_new).
template <class Scalar, class Q, class K, class V, class O>
void stream_block(const Q& q, const K& k, const V& v, O&& out, Eigen::Index first_row, bool causal,
                  Scratch<Scalar>& w) {
  const Eigen::Index rows = q.rows(), keys = k.rows();
  const Eigen::Index last_row = first_row + rows - 1;
  const Eigen::Index key_end = causal ? std::min(keys, last_row + 1) : keys;  // skip the masked
  w.row_max.setConstant(rows, -std::numeric_limits<Scalar>::infinity());
  w.row_sum.setZero(rows);
  w.out.setZero(rows, v.cols());
  for (Eigen::Index c0 = 0; c0 < key_end; c0 += kKeyTile) {
    const Eigen::Index cols = std::min(kKeyTile, key_end - c0);
    w.scores.resize(rows, cols);
    multiply_bt(q, k.middleRows(c0, cols), w.scores);
    // Row i sees the tile's first `visible` keys: all of them unless the tile crosses the
    // diagonal. One vectorised pass per row gives the exponentials and their sum.
    const bool crosses = causal && c0 + cols - 1 > first_row;
    for (Eigen::Index i = 0; i < rows; ++i) {
      const Eigen::Index visible =
          crosses ? std::clamp<Eigen::Index>(first_row + i + 1 - c0, 0, cols) : cols;
      auto si = w.scores.row(i);
      const Scalar m_new =
          visible ? std::max(w.row_max(i), si.head(visible).maxCoeff()) : w.row_max(i);
      const Scalar rescale = std::exp(w.row_max(i) - m_new);  // 0 on the first tile (m_old = −inf)
      const Scalar sum = exp_shifted_sum(si.data(), visible, m_new);
      si.tail(cols - visible).setZero();
      w.row_sum(i) = w.row_sum(i) * rescale + sum;
      w.out.row(i) *= rescale;
      w.row_max(i) = m_new;
    }
    multiply_add(w.scores, v.middleRows(c0, cols), w.out);
  }
  out = (w.out.array().colwise() / w.row_sum.array()).matrix();
}

}  // namespace detail

// Pass 1 of every bundled kernel: the threads for `work` multiply-adds, one scratch per thread,
// Q/K/V projected (when the problem has projections: without them Q = K = V = X), and the
// heads' buffer sized when a W_o follows. Returns the threads and whether the heads' outputs
// land in Z directly (no W_o).
template <class Scalar>
std::pair<int, bool> prepare_heads(const Problem<Scalar>& p, Workspace<Scalar>& ws,
                                   ThreadTeam& team, double work, bool projected, Eigen::Index H,
                                   Eigen::Index dv, fused::RowBands rows = {}) {
  const int threads = worker_threads(p, work);
  if (ws.scratch.size() < static_cast<size_t>(threads)) ws.scratch.resize(threads);
  if (projected) project_qkv(p, ws.q, ws.k, ws.v, team, threads, ws.projection, rows);
  const bool direct = !projected || !p.has_output_projection();
  if (!direct) ws.heads_out.resize(p.tokens(), H * dv);
  return {threads, direct};
}

// Task `task` of H × blocks: head by head (a head's K and V stay in cache), except with the mask:
// a block's cost then grows with its row, so the last blocks of every head are handed out first
// and the cheap ones fill the threads' ends instead of one expensive block running alone.
inline std::pair<int, Eigen::Index> task_order(Eigen::Index task, int H, Eigen::Index blocks,
                                               bool causal) {
  if (causal) return {static_cast<int>(task % H), blocks - 1 - task / H};
  return {static_cast<int>(task / blocks), task % blocks};
}

// Pass 2 on the fused micro-kernels: each head's K and V packed once (in chunks of panels, over
// the threads), then the (head, row block) tasks. Outputs land in Z, or in the heads' buffer
// when a W_o follows.
// Streaming, each head's row statistics land in ws.lse (attend_block's `lse`); with `r` given, the
// weights (and scores) it asks for are written instead (materialise_block).
// A batch's sequences are packed and run side by side, all their tasks on one team: sequence b's
// rows start at b · T, its heads' planes at b · n_heads, and only its first L_b tokens are queries
// and keys (what lies past them is left as it was).
template <class Scalar>
void fused_attention(const Problem<Scalar>& p, Workspace<Scalar>& ws, ThreadTeam& team, int threads,
                     bool direct, Scalar factor, const Geometry& g, const Sequences& seq,
                     MatrixView<Scalar> z, Results<Scalar>* r = nullptr) {
  using B = fused::Blocking<Scalar>;
  const auto [projected, causal, H, all_rows, dk, dv, KV] = g;
  // A and S hold n_heads planes per sequence (sequences.hpp's layout).
  const Eigen::Index T = seq.tokens, S = seq.batch, planes = p.heads();
  const auto x = p.x();
  // K and V packed once per key/value head of each sequence; query head h of sequence b reads
  // packed head b · KV + g.kv_head(h).
  fused::Packed<Scalar>& packed = ws.packed;
  if (projected)
    packed.resize(KV, T, dk, dv, ws.v.data(), ws.v.outerStride(), S);
  else
    packed.resize(KV, T, dk, dv, x.data(), x.outerStride(), S);
  if (ws.fused_scratch.size() < static_cast<size_t>(threads)) ws.fused_scratch.resize(threads);
  ws.lse.resize(static_cast<size_t>(H * all_rows));
  // Panels per packing task: small enough that every thread packs (at T = 1024 in f32 with
  // AVX-512 K has 16 panels).
  constexpr Eigen::Index kPackChunk = 2;
  const Eigen::Index chunks = (packed.panels + kPackChunk - 1) / kPackChunk;
  team.run(S * KV * chunks, threads, [&](Eigen::Index task, int) {
    const int packed_head = static_cast<int>(task / chunks);
    const Eigen::Index b = packed_head / KV, h = packed_head % KV;  // a key/value head
    const Eigen::Index first = task % chunks * kPackChunk, t0 = b * T, n = seq.length(b);
    const Eigen::Index count = std::min(kPackChunk, packed.panels - first);
    if (projected)
      packed.pack(packed_head, ws.k.block(t0, h * dk, n, dk), ws.v.block(t0, h * dv, n, dv), first,
                  count);
    else
      packed.pack(packed_head, x.middleRows(t0, n), x.middleRows(t0, n), first, count);
  });
  const fused::RowBlocks rows(T, B::kRows, B::kBlockRows, S * H, threads);
  team.run(S * H * rows.blocks, threads, [&](Eigen::Index task, int slot) {
    const auto [head, block] = task_order(task, static_cast<int>(S * H), rows.blocks, causal);
    const int h = head % H;  // of sequence b
    const Eigen::Index b = head / H, length = seq.length(b), plane = b * planes + h;
    const auto [r0, rows_in_block] = rows.block(block);
    if (r0 >= length) return;  // padding
    const Eigen::Index n = std::min(rows_in_block, length - r0), t0 = b * T + r0;
    fused::Scratch<Scalar>& w = ws.fused_scratch[static_cast<size_t>(slot)];
    const int kv = static_cast<int>(b * KV) + g.kv_head(h);
    auto run = [&](const auto& q, auto out) {
      if (!r) {
        fused::attend_block(q, packed, kv, length, dv, factor, out, r0, causal, w,
                            ws.lse.data() + head * T + r0);
        return;
      }
      // Row r0 of the head's S and A, when wanted.
      auto rows = [&](bool wanted, auto matrix) -> fused::Rows<Scalar> {
        if (!wanted) return {};
        auto m = matrix();
        return {m.data() + r0 * m.outerStride(), m.outerStride()};
      };
      fused::materialise_block(q, packed, kv, length, dv, factor, out, r0, causal, w,
                               rows(r->wants_scores(), [&] { return r->scores(plane); }),
                               rows(r->wants_weights(), [&] { return r->weights(plane); }));
    };
    if (!projected)
      run(x.middleRows(t0, n), z.middleRows(t0, n));
    else if (direct)
      run(ws.q.block(t0, h * dk, n, dk), z.block(t0, h * dv, n, dv));
    else
      run(ws.q.block(t0, h * dk, n, dk), ws.heads_out.block(t0, h * dv, n, dv));
  });
}

// Forward pass for all bundled variants. Shapes: X T×d_model; W_q d_model×h·d_k; W_k d_model×g·d_k;
// W_v d_model×g·d_v; W_o h·d_v×d_out (g key/value heads, h unless grouped). Query head h reads its
// own column block of W_q and its key/value head's of W_k and W_v; outputs are concatenated in head
// order. Threads: the problem's n_threads, or every core when it is 0.
template <class Scalar>
void attention_forward(const Problem<Scalar>& p, Results<Scalar>& r, Inputs inputs, Mask mask,
                       Workspaces& workspaces) {
  // A batch of sequences (SDK 1.3, the variants take it whole): the fused worlds take groups of
  // sequences of about kBatchRows tokens, each group's real rows projected at once and all its
  // attention tasks on one team; the baseline runs one sequence at a time.
  const Sequences seq(p.raw());
  if constexpr (!fused::kEnabled) {
    if (seq.batched()) {
      forward_by_sequence(p.raw(), r.raw(), [&](const awb_problem& sp, awb_results& sr) {
        const Problem<Scalar> one(sp);
        Results<Scalar> out(sr);
        attention_forward(one, out, inputs, mask, workspaces);
      });
      return;
    }
  }
  // (A variant seen training takes the batch in one group: its backward reuses the whole of it.)
  const Eigen::Index group =
      std::max<Eigen::Index>(1, kBatchRows / std::max<Eigen::Index>(seq.tokens, 1));
  if (seq.batched() && group < seq.batch && !workspaces.training) {
    for (Eigen::Index b = 0; b < seq.batch; b += group) {
      const awb_problem sp = sequences_of(p.raw(), b, std::min(group, seq.batch - b));
      awb_results sr = sequences_of(r.raw(), p.raw(), b, sp.batch);
      const Problem<Scalar> some(sp);
      Results<Scalar> out(sr);
      attention_forward(some, out, inputs, mask, workspaces);
    }
    return;
  }
  const Geometry geo = geometry(p, inputs, mask);
  const auto [projected, causal, H, T, dk, dv, KV] = geo;
  Workspace<Scalar>& ws = workspaces.get<Scalar>();
  ws.saved.valid = false;  // this call replaces what a backward could reuse
  const Scalar factor = score_factor(p, dk);
  const bool materialise = r.wants_weights() || r.wants_scores();
  const double work = double(H) * seq.squared_lengths() * double(dk + dv) +
                      double(T) * double(p.d_model()) * double(H * dk + KV * (dk + dv));
  const Eigen::Index blocks = (T + kRowBlock - 1) / kRowBlock;

  // Pass 1: projections (projections.hpp). Without them Q = K = V = X (in place). A padded batch
  // projects its sequences' real tokens only (and projects their heads' outputs in pass 3 so).
  const auto x = p.x();
  const auto real_rows = seq.real_rows();
  const auto [threads, direct] =
      prepare_heads(p, ws, workspaces.team, work, projected, H, dv, real_rows);
  auto z = r.z();

  // Pass 2: attention per (head, row block). Outputs land in Z directly when no W_o follows.
  auto attend = [&](const auto& q, const auto& k, const auto& v, auto out, int h, Eigen::Index r0,
                    Scratch<Scalar>& w) {
    const Eigen::Index n = q.rows();
    // The fused worlds stream on their own micro-kernels (below): only the baseline compiles
    // the Eigen streaming path.
    if constexpr (!fused::kEnabled) {
      if (!materialise) {
        w.q.noalias() = q * factor;
        detail::stream_block<Scalar>(w.q, k, v, out, r0, causal, w);
        return;
      }
    }
    // Materialised: the block's scores (the exact softmax input), turned into its weights in
    // place (in A itself when A is wanted), then A·V.
    auto materialised = [&](auto&& a) {
      multiply_bt(q, k, a, factor);
      if (r.wants_scores()) r.scores(h).middleRows(r0, n) = a;
      detail::softmax_rows(a, r0, causal);
      multiply(a, v, out);
    };
    if (r.wants_weights()) {
      materialised(r.weights(h).middleRows(r0, n));
    } else {
      w.scores.resize(n, T);
      materialised(w.scores);
    }
  };
  auto eigen_tasks = [&] {
    workspaces.team.run(Eigen::Index(H) * blocks, threads, [&](Eigen::Index task, int slot) {
      const auto [h, b] = task_order(task, H, blocks, causal);
      const Eigen::Index r0 = b * kRowBlock, n = std::min(kRowBlock, T - r0);
      Scratch<Scalar>& w = ws.scratch[static_cast<size_t>(slot)];
      if (!projected) {
        attend(x.middleRows(r0, n), x, x, z.middleRows(r0, n), 0, r0, w);
        return;
      }
      const auto q = ws.q.block(r0, h * dk, n, dk);
      const auto k = ws.k.middleCols(geo.kv_head(h) * dk, dk);
      const auto v = ws.v.middleCols(geo.kv_head(h) * dv, dv);
      if (direct)
        attend(q, k, v, z.block(r0, h * dv, n, dv), h, r0, w);
      else
        attend(q, k, v, ws.heads_out.block(r0, h * dv, n, dv), h, r0, w);
    });
  };
  // The fused worlds run on the kernels' own micro-kernels (fused_attention.hpp), streaming or
  // with A and S written; the baseline world on Eigen's GEMM.
  if constexpr (fused::kEnabled)
    fused_attention(p, ws, workspaces.team, threads, direct, factor, geo, seq, z,
                    materialise ? &r : nullptr);
  else
    eigen_tasks();

  // Pass 3: the output projection.
  if (!direct)
    project_output(p, ws.heads_out, z, workspaces.team, threads, ws.projection, real_rows);
  if (seq.batched()) {
    // What lies past each sequence's tokens: 0 in Z, and in A's and S's planes.
    const size_t bytes = sizeof(Scalar);
    const Eigen::Index planes = p.heads();
    for (Eigen::Index b = 0; b < seq.batch; ++b) {
      const Eigen::Index n = seq.length(b);
      if (n == seq.tokens) continue;
      awb::detail::zero_rows(r.raw().z, b * seq.tokens + n, (b + 1) * seq.tokens, bytes);
      awb::detail::zero_plane_padding(r.raw().a, b * planes, planes, n, bytes);
      awb::detail::zero_plane_padding(r.raw().s, b * planes, planes, n, bytes);
    }
    // What a backward would reuse, 0 there too (dW_o sums the heads' outputs' rows).
    if (!direct) seq.zero_padding(ws.heads_out);
  }
  // Training: what the backward reuses (the heads' outputs kept apart from Z, which the host owns).
  if (fused::kEnabled && !materialise && workspaces.training) {
    if (direct) ws.heads_out = z;
    ws.saved.save(p, geo, factor);
  }
}

// Compiled once, in kernels.cpp (the awb_plugin_kernels library): a plugin's own translation
// unit only calls them.
#ifndef AWB_KERNELS_INSTANTIATE
extern template void attention_forward<float>(const Problem<float>&, Results<float>&, Inputs, Mask,
                                              Workspaces&);
extern template void attention_forward<double>(const Problem<double>&, Results<double>&, Inputs,
                                               Mask, Workspaces&);
#endif

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_ATTENTION_KERNEL_HPP_
