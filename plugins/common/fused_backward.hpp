// fused_backward.hpp: the backward pass of softmax attention on the streaming kernel's
// micro-kernels (fused_attention.hpp), in the worlds with FMA. FlashAttention-2's recomputing
// backward (Dao 2023, algorithm 2): no T × T matrix is held. Each task owns a block of keys of one
// head and walks the queries that see them, a chunk of rows at a time: it recomputes the chunk's
// weights from the forward's row statistics, P = 2^(S' − lse) (S' = Q·Kᵀ in units of log₂ e),
// then dP = dO·Vᵀ, dS = P ∘ (dP − D) with D = rowsum(dO ∘ O), and accumulates dV += Pᵀ·dO,
// dK += dSᵀ·Q (the block's, in cache until the task ends) and dQ += dS·K (the thread's own copy
// of dQ, summed over the threads at the end). Five products of T × T × d, the forward's two and
// three more: FlashAttention-2 counts the backward as 2.5 forwards.
//
// Products and their operands (every one on micro_product's 6 × panel block of accumulators):
//   S', dP   micro_scores: Q and dO packed by micro-block, K and V packed as panels (their
//            transposes);
//   dV, dK   rows are keys: A = Pᵀ or dSᵀ read from the tile at (1, ld) strides, B = the chunk's
//            rows of dO or Q;
//   dQ       rows are queries: A = dS, B = the block's rows of K.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_FUSED_BACKWARD_HPP_
#define AWB_PLUGINS_COMMON_FUSED_BACKWARD_HPP_

#include <algorithm>
#include <awb/plugin.hpp>
#include <vector>

#include "common/fused_attention.hpp"
#include "common/softmax_exp.hpp"
#include "common/thread_team.hpp"

namespace awb::kernels::fused {

// Keys per task and query rows per chunk: a multiple of the micro-block (6) and of every world's
// panel (8 to 64 keys). A chunk's P and dS tiles (96 × 192 in f32: 72 KiB each) and the block's
// dK and dV (192 × d) stay in the second-level cache while the chunk's products run.
inline constexpr Eigen::Index kBackwardKeys = 192, kBackwardQueries = 96;

// The rows of a matrix with every row a whole number of packets long: the matrix itself where its
// width is one, else a copy padded with zeros (one T × padded block per head).
template <class Scalar>
struct PaddedRows {
  AlignedVector<Scalar> copy;
  const Scalar* base = nullptr;
  Eigen::Index ld = 0, padded = 0, tokens = 0;
  bool in_place = false;

  // For `heads` heads of `cols` columns each, head h at columns [h · cols, (h + 1) · cols) of m.
  void reset(ConstMatrixView<Scalar> m, int heads, Eigen::Index cols) {
    using B = Blocking<Scalar>;
    padded = (cols + B::kLanes - 1) / B::kLanes * B::kLanes;
    tokens = m.rows();
    in_place = padded == cols;
    base = m.data();
    ld = in_place ? m.outerStride() : padded;
    if (!in_place) copy.resize(static_cast<size_t>(heads * tokens * padded));
    stride_ = m.outerStride();
    cols_ = cols;
  }
  // Copies rows [first, end) of head h (when not in place).
  void fill(int h, Eigen::Index first, Eigen::Index end) {
    if (in_place) return;
    Scalar* out = copy.data() + (h * tokens + first) * padded;
    for (Eigen::Index t = first; t < end; ++t, out += padded) {
      std::copy_n(base + t * stride_ + h * cols_, cols_, out);
      std::fill(out + cols_, out + padded, Scalar(0));
    }
  }
  const Scalar* head(int h) const {
    return in_place ? base + h * cols_ : copy.data() + h * tokens * padded;
  }

 private:
  Eigen::Index stride_ = 0, cols_ = 0;
};

// One row of a tile, in one pass: p[c] = 2^(p[c] − lse) (the weight, from the score in units of
// log₂ e) and ds[c] = p[c] · (ds[c] − delta) (the score's gradient, from dP) for c < n.
template <class Scalar>
void weights_and_gradient(Scalar* p, Scalar* ds, Eigen::Index n, Scalar lse, Scalar delta) {
  using namespace Eigen::internal;
  using Packet = typename Blocking<Scalar>::Packet;
  constexpr Eigen::Index kLanes = Blocking<Scalar>::kLanes;
  const Packet shift = pset1<Packet>(lse), d = pset1<Packet>(delta);
  Eigen::Index c = 0;
  for (; c + kLanes <= n; c += kLanes) {
    const Packet x = psub(ploadu<Packet>(p + c), shift);
    Packet e;
    if constexpr (std::is_same_v<Scalar, double>)
      e = kernels::detail::exp2_nonpositive_f64(x);
    else
      e = kernels::detail::exp2_nonpositive_f32(x);
    pstoreu(p + c, e);
    pstoreu(ds + c, pmul(e, psub(ploadu<Packet>(ds + c), d)));
  }
  for (; c < n; ++c) {
    p[c] = std::exp2(p[c] - lse);
    ds[c] = p[c] * (ds[c] - delta);
  }
}

// One thread's tiles and its block's gradients.
template <class Scalar>
struct BackwardTiles {
  AlignedVector<Scalar> p, ds, dk, dv, dq;
};

// Everything a backward call keeps between calls.
template <class Scalar>
struct BackwardScratch {
  Packed<Scalar> keys, values;  // K and V as panels (keys.v: K's rows, padded)
  AlignedVector<Scalar> q_micro, do_micro, delta;
  PaddedRows<Scalar> q_rows, do_rows;
  std::vector<BackwardTiles<Scalar>> tiles;
};

// The inputs of the backward of H query heads of T tokens over G = kv_heads key/value heads: head
// h reads columns [h · d_k, (h + 1) · d_k) of q, [h · d_v, (h + 1) · d_v) of o (the forward's
// outputs) and d_o (∂L/∂O), and key/value head g = h / (H / G): columns [g · d_k, (g + 1) · d_k)
// of k and [g · d_v, (g + 1) · d_v) of v. lse holds each query head's T row statistics
// (attend_block's), head after head, lse_stride apart (T when 0: a padded sequence's heads are its
// batch's T apart).
template <class Scalar>
struct BackwardInputs {
  ConstMatrixView<Scalar> q, k, v, o, d_o;
  const Scalar* lse;
  int heads;
  Eigen::Index dk, dv;
  Scalar factor;
  bool causal;
  int kv_heads;
  Eigen::Index lse_stride = 0;
};

// dq, dk, dv: T × H·d_k, T × G·d_k, T × G·d_v, overwritten. A key/value head's dK and dV are the
// sums over the query heads of its group.
template <class Scalar>
void attention_backward(const BackwardInputs<Scalar>& in, MatrixView<Scalar> dq,
                        MatrixView<Scalar> dkey, MatrixView<Scalar> dval, ThreadTeam& team,
                        int threads, BackwardScratch<Scalar>& w) {
  using B = Blocking<Scalar>;
  static_assert(kBackwardKeys % B::kPanelKeys == 0 && kBackwardKeys % B::kRows == 0 &&
                kBackwardQueries % B::kRows == 0);
  const int H = in.heads, KV = in.kv_heads, group = H / KV;
  const Eigen::Index T = in.q.rows(), dk = in.dk, dv = in.dv;
  const Eigen::Index micro = (T + B::kRows - 1) / B::kRows, rows_padded = micro * B::kRows;
  const auto log2e_factor = static_cast<Scalar>(double(in.factor) * 1.44269504088896340736);

  // Pass 1, a task per (query head, block of kBackwardKeys rows): D, Q and dO by micro-block, the
  // group's K and V as panels (by its first head's tasks), padded rows.
  const Eigen::Index blocks = (T + kBackwardKeys - 1) / kBackwardKeys;
  w.keys.resize(KV, T, dk, dk, in.k.data(), in.k.outerStride());
  w.values.resize(KV, T, dv, dv, in.v.data(), in.v.outerStride());
  w.q_micro.resize(static_cast<size_t>(H * micro * dk * B::kRows));
  w.do_micro.resize(static_cast<size_t>(H * micro * dv * B::kRows));
  w.delta.resize(static_cast<size_t>(H * T));
  w.q_rows.reset(in.q, H, dk);
  w.do_rows.reset(in.d_o, H, dv);
  team.run(Eigen::Index(H) * blocks, threads, [&](Eigen::Index task, int) {
    const int h = static_cast<int>(task / blocks);
    const Eigen::Index r0 = task % blocks * kBackwardKeys, r1 = std::min(T, r0 + kBackwardKeys);
    const auto q = in.q.middleCols(h * dk, dk), o = in.o.middleCols(h * dv, dv);
    const auto d_o = in.d_o.middleCols(h * dv, dv);
    for (Eigen::Index i = r0; i < r1; ++i) w.delta[h * T + i] = d_o.row(i).dot(o.row(i));
    const Eigen::Index m0 = r0 / B::kRows, m1 = (r1 + B::kRows - 1) / B::kRows;
    detail::pack_micro_blocks(q.data(), q.outerStride(), T, dk, log2e_factor, m0, m1,
                              w.q_micro.data() + h * micro * dk * B::kRows);
    detail::pack_micro_blocks(d_o.data(), d_o.outerStride(), T, dv, Scalar(1), m0, m1,
                              w.do_micro.data() + h * micro * dv * B::kRows);
    if (h % group == 0) {
      const int g = h / group;
      const auto key = in.k.middleCols(g * dk, dk), v = in.v.middleCols(g * dv, dv);
      const Eigen::Index p0 = r0 / B::kPanelKeys, p1 = (r1 + B::kPanelKeys - 1) / B::kPanelKeys;
      w.keys.pack(g, key, key, p0, p1 - p0);
      w.values.pack(g, v, v, p0, p1 - p0);
    }
    w.q_rows.fill(h, r0, r1);
    w.do_rows.fill(h, r0, r1);
  });

  // Pass 2, a task per (key/value head, block of keys), over the query heads of its group; with
  // the mask, the blocks that see the most queries (the first) go out first.
  const Eigen::Index dkp = w.keys.dv_padded, dvp = w.do_rows.padded;
  const Eigen::Index ld_dq = H * dkp;
  if (w.tiles.size() < static_cast<size_t>(threads)) w.tiles.resize(static_cast<size_t>(threads));
  for (int t = 0; t < threads; ++t)
    w.tiles[static_cast<size_t>(t)].dq.assign(static_cast<size_t>(rows_padded * ld_dq), Scalar(0));
  std::vector<char> used(static_cast<size_t>(threads), 0);
  team.run(Eigen::Index(KV) * blocks, threads, [&](Eigen::Index task, int slot) {
    const int g = static_cast<int>(in.causal ? task % KV : task / blocks);
    const Eigen::Index j = in.causal ? task / KV : task % blocks;
    BackwardTiles<Scalar>& t = w.tiles[static_cast<size_t>(slot)];
    used[static_cast<size_t>(slot)] = 1;
    constexpr Eigen::Index ld = kBackwardKeys;
    t.p.resize(static_cast<size_t>(kBackwardQueries * ld));
    t.ds.resize(static_cast<size_t>(kBackwardQueries * ld));
    t.dk.assign(static_cast<size_t>(kBackwardKeys * dkp), Scalar(0));
    t.dv.assign(static_cast<size_t>(kBackwardKeys * dvp), Scalar(0));
    const Eigen::Index k0 = j * kBackwardKeys, nk = std::min(kBackwardKeys, T - k0);
    const Eigen::Index nk6 = (nk + B::kRows - 1) / B::kRows * B::kRows;
    const Eigen::Index panels = (nk + B::kPanelKeys - 1) / B::kPanelKeys;
    const Scalar* k_panels = w.keys.k_head(g) + k0 / B::kPanelKeys * w.keys.panel_size();
    const Scalar* v_panels = w.values.k_head(g) + k0 / B::kPanelKeys * w.values.panel_size();
    const Scalar* k_rows = w.keys.v_head(g) + k0 * w.keys.v_stride;
    Scalar unused_max[B::kRows];
    for (int h = g * group; h < (g + 1) * group; ++h) {
      const Scalar* lse = in.lse + h * (in.lse_stride ? in.lse_stride : T);
      const Scalar* delta = w.delta.data() + h * T;
      Scalar* dq = t.dq.data() + h * dkp;
      // The queries that see a key of the block: all, or from its first key on.
      for (Eigen::Index c0 = in.causal ? k0 : 0; c0 < T; c0 += kBackwardQueries) {
        const Eigen::Index nq = std::min(kBackwardQueries, T - c0);
        const Eigen::Index chunk_micro = (nq + B::kRows - 1) / B::kRows;
        for (Eigen::Index m = 0; m < chunk_micro; ++m) {
          const Eigen::Index mb = c0 / B::kRows + m;
          Scalar* p = t.p.data() + m * B::kRows * ld;
          Scalar* ds = t.ds.data() + m * B::kRows * ld;
          detail::micro_scores(w.q_micro.data() + (h * micro + mb) * dk * B::kRows, k_panels, dk,
                               panels, 0, p, ld, unused_max);
          detail::micro_scores(w.do_micro.data() + (h * micro + mb) * dv * B::kRows, v_panels, dv,
                               panels, 0, ds, ld, unused_max);
          for (Eigen::Index r = 0; r < B::kRows; ++r) {
            const Eigen::Index i = c0 + m * B::kRows + r;
            Scalar* pr = p + r * ld;
            Scalar* dsr = ds + r * ld;
            const Eigen::Index visible = i >= T      ? 0
                                         : in.causal ? std::clamp<Eigen::Index>(i + 1 - k0, 0, nk)
                                                     : nk;
            if (visible) weights_and_gradient(pr, dsr, visible, lse[i], delta[i]);
            std::fill(pr + visible, pr + nk6, Scalar(0));
            std::fill(dsr + visible, dsr + nk6, Scalar(0));
          }
          // dQ of these rows += dS · K over the block's keys.
          detail::product_rows<Scalar, detail::Start::kLoad>(
              ds, ld, 1, k_rows, w.keys.v_stride, dkp, nk, dq + mb * B::kRows * ld_dq, ld_dq);
        }
        // The block's dV += Pᵀ · dO and dK += dSᵀ · Q over the chunk's rows, six keys at a time.
        const Scalar* do_rows = w.do_rows.head(h) + c0 * w.do_rows.ld;
        const Scalar* q_rows = w.q_rows.head(h) + c0 * w.q_rows.ld;
        // (All of dV, then all of dK: the chunk's rows of dO, then of Q, stay in the first level.)
        for (Eigen::Index k6 = 0; k6 < nk6; k6 += B::kRows)
          detail::product_rows<Scalar, detail::Start::kLoad>(
              t.p.data() + k6, 1, ld, do_rows, w.do_rows.ld, dvp, nq, t.dv.data() + k6 * dvp, dvp);
        for (Eigen::Index k6 = 0; k6 < nk6; k6 += B::kRows)
          detail::product_rows<Scalar, detail::Start::kLoad>(
              t.ds.data() + k6, 1, ld, q_rows, w.q_rows.ld, dkp, nq, t.dk.data() + k6 * dkp, dkp);
      }
    }
    for (Eigen::Index c = 0; c < nk; ++c) {
      for (Eigen::Index e = 0; e < dk; ++e)
        dkey(k0 + c, g * dk + e) = in.factor * t.dk[static_cast<size_t>(c * dkp + e)];
      for (Eigen::Index e = 0; e < dv; ++e)
        dval(k0 + c, g * dv + e) = t.dv[static_cast<size_t>(c * dvp + e)];
    }
  });

  // dQ: the threads' sums, times the score factor, a row at a time (whole packets of every head).
  const Eigen::Index bands = std::min<Eigen::Index>(threads, T);
  team.run(bands, threads, [&](Eigen::Index b, int) {
    using Row = Eigen::Array<Scalar, 1, Eigen::Dynamic>;
    Row sum(ld_dq);
    const Eigen::Index r0 = T * b / bands, r1 = T * (b + 1) / bands;
    for (Eigen::Index i = r0; i < r1; ++i) {
      sum.setZero();
      for (int s = 0; s < threads; ++s)
        if (used[static_cast<size_t>(s)])
          sum +=
              Eigen::Map<const Row>(w.tiles[static_cast<size_t>(s)].dq.data() + i * ld_dq, ld_dq);
      for (int h = 0; h < H; ++h)
        dq.row(i).segment(h * dk, dk).array() = in.factor * sum.segment(h * dkp, dk);
    }
  });
}

}  // namespace awb::kernels::fused

#endif  // AWB_PLUGINS_COMMON_FUSED_BACKWARD_HPP_
