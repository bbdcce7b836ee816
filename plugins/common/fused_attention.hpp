// fused_attention.hpp: the streaming attention of the worlds with FMA (AVX2, AVX-512), on the
// kernels' own register-blocked micro-kernels instead of Eigen's GEMM: K and V are packed once per
// call, and each block of queries runs Q·Kᵀ, the online softmax and P·V tile by tile, so a tile's
// scores never leave the first-level cache. One source for both ISAs and both scalar types: the
// micro- kernels are written in Eigen's packet primitives, whose width is the world's vector width.
//
// Blocking (the names of the GEMM literature): a micro-block is kRows queries; a panel is
// kVectors packets of keys (Q·Kᵀ) or of output columns (P·V); the kRows × kVectors accumulators
// stay in registers for the whole depth of the product. A tile is Packed::tile_keys keys: its
// packed K and V are read by every micro-block of a task's row block while they are still in the
// second-level cache.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_FUSED_ATTENTION_HPP_
#define AWB_PLUGINS_COMMON_FUSED_ATTENTION_HPP_

#include <Eigen/Core>
#include <algorithm>
#include <awb/isa.hpp>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

#include "common/softmax_exp.hpp"

namespace awb::kernels::fused {

// Whether this world runs the fused path: a vector unit with fused multiply-add (the `fused`
// column of isa_levels.def). The x86-64 baseline (SSE2, no FMA) keeps the Eigen kernel.
inline constexpr bool kEnabled = isa::info(isa::kCompiledLevel).fused;

template <class Scalar>
struct Blocking {
  using Packet = typename Eigen::internal::packet_traits<Scalar>::type;
  static constexpr int kLanes = Eigen::internal::unpacket_traits<Packet>::size;
  // 6 × 4 accumulators of 32 vector registers (AVX-512), 6 × 2 of 16 (AVX2): what is left holds
  // one row of B and the broadcast of A (BLIS's Haswell and Skylake-X kernels are shaped alike).
  static constexpr int kRows = 6;
  static constexpr int kVectors = EIGEN_ARCH_DEFAULT_NUMBER_OF_REGISTERS >= 32 ? 4 : 2;
  static constexpr int kPanelKeys = kVectors * kLanes;
  // Keys per tile, at least and at most (Packed::resize chooses): 256 keys of K and V at d = 64
  // in f32 are 128 KiB, 512 are 256 KiB, and 6 rows of 512 scores 12 KiB of the first level.
  static constexpr Eigen::Index kTileKeys = 256, kMaxTileKeys = 512;
  static_assert(kTileKeys % kPanelKeys == 0 && kMaxTileKeys % kTileKeys == 0);
  // Queries per task, as a target (RowBlocks below evens the blocks out): 22 micro-blocks.
  static constexpr Eigen::Index kBlockRows = kRows * ((128 + kRows - 1) / kRows);
};

// The row blocks of one head's queries, one task each: about `target` rows, a whole number of
// micro-blocks of `micro_rows` (the last one ends at T), and as equal as micro-blocks allow, their
// count (times the heads) a multiple of the threads where T leaves enough micro-blocks. Blocks of
// exactly `target` rows left a short last block: at T = 4096 with 132-row blocks, 31 full ones
// and one of 4 rows, so on 2 threads one thread ran 2112 rows and the other 1984.
struct RowBlocks {
  Eigen::Index tokens, micro, blocks;
  RowBlocks(Eigen::Index T, Eigen::Index micro_rows, Eigen::Index target, Eigen::Index heads,
            int threads)
      : tokens(T),
        micro((T + micro_rows - 1) / micro_rows),
        blocks((T + target - 1) / target),
        rows_per_micro(micro_rows) {
    const Eigen::Index team = std::max(threads, 1);
    if (heads * blocks % team != 0) blocks = (blocks + team - 1) / team * team;
    blocks = std::clamp<Eigen::Index>(blocks, 1, std::max<Eigen::Index>(micro, 1));
  }
  // The first row of block b and its row count.
  std::pair<Eigen::Index, Eigen::Index> block(Eigen::Index b) const {
    const Eigen::Index first = b * micro / blocks * rows_per_micro;
    const Eigen::Index end = std::min(tokens, (b + 1) * micro / blocks * rows_per_micro);
    return {first, end - first};
  }

 private:
  Eigen::Index rows_per_micro;
};

template <class Scalar>
using AlignedVector = std::vector<Scalar, Eigen::aligned_allocator<Scalar>>;

// K and V of every head, K packed once per call: for each panel of kPanelKeys keys, its d_k
// rows of kPanelKeys scores' worth (key c of the panel, depth p at [p · kPanelKeys + c]), zeros
// past T. A batch of sequences has heads × sequences packed heads, sequence b's head g at
// b · heads + g. V is read where it is (head h's rows from v_head(h), v_stride apart) when d_v is a
// whole number of packets; otherwise it is copied, each row d_v rounded up to a packet with zeros.
// (The copy of V at d = 64, a call to memmove per row, took 5 % of the time at T = 1024.)
template <class Scalar>
struct Packed {
  AlignedVector<Scalar> k, v;
  Eigen::Index panels = 0, dk = 0, dv_padded = 0, v_stride = 0, tile_keys = 0;
  Eigen::Index keys_padded() const { return panels * Blocking<Scalar>::kPanelKeys; }
  const Scalar* k_head(int h) const { return k.data() + h * panels * panel_size(); }
  const Scalar* v_head(int h) const {
    if (!v.empty()) return v.data() + h * keys_padded() * dv_padded;
    return v_in_place + h / heads_ * tokens_ * v_stride + h % heads_ * dv_padded;
  }
  Eigen::Index panel_size() const { return dk * Blocking<Scalar>::kPanelKeys; }

  // For `heads` heads of T = `tokens` keys in each of `sequences` sequences; sequence b's head h's
  // V is T × d_v from v_data + b · T · stride + h · d_v, its rows `stride` apart.
  void resize(int heads, Eigen::Index tokens, Eigen::Index dk_, Eigen::Index dv,
              const Scalar* v_data, Eigen::Index stride, Eigen::Index sequences = 1) {
    using B = Blocking<Scalar>;
    panels = (tokens + B::kPanelKeys - 1) / B::kPanelKeys;
    dk = dk_;
    dv_padded = (dv + B::kLanes - 1) / B::kLanes * B::kLanes;
    heads_ = heads;
    tokens_ = tokens;
    const Eigen::Index all = heads * sequences;
    k.resize(static_cast<size_t>(all * panels * panel_size()));
    const bool in_place = dv_padded == dv;
    v.resize(in_place ? 0 : static_cast<size_t>(all * keys_padded() * dv_padded));
    v_in_place = in_place ? v_data : nullptr;
    v_stride = in_place ? stride : dv_padded;
    // Tiles of kMaxTileKeys keys where their K and V fill at most half the second-level cache
    // and V's rows are contiguous: 1.5-2.5 % faster than 256 at T = 1024-8192 (AMD Zen 5, 1 MiB
    // of L2). V read in place from a wider matrix (a head's columns of all heads' V, rows 2 KiB
    // apart at 8 heads of 64) keeps 256: 512 rows that far apart fall in too few cache sets, and
    // 8 heads ran 1 % slower with 512 keys, 6 % with 1024.
    const auto tile_bytes = static_cast<std::ptrdiff_t>(B::kMaxTileKeys * (dk + dv_padded) *
                                                        Eigen::Index(sizeof(Scalar)));
    const bool contiguous = v_stride == dv_padded;
    tile_keys =
        contiguous && 2 * tile_bytes <= Eigen::l2CacheSize() ? B::kMaxTileKeys : B::kTileKeys;
  }

  // Packs panels [first, first + count) of head h from K (T × d_k) and V (T × d_v), both with
  // contiguous rows (row-major blocks or maps). K's panel is the transpose of kPanelKeys rows of
  // K: whole kLanes × kLanes squares go through registers (a packet transpose), the ragged
  // edges element by element; V's rows are copied as they are, padded with zeros.
  template <class K, class V>
  void pack(int h, const K& key, const V& value, Eigen::Index first, Eigen::Index count) {
    static_assert(K::IsRowMajor && V::IsRowMajor, "pack reads K and V row by row");
    using B = Blocking<Scalar>;
    using Packet = typename B::Packet;
    using namespace Eigen::internal;
    constexpr Eigen::Index kPanelKeys = B::kPanelKeys, kLanes = B::kLanes;
    const Eigen::Index T = key.rows(), dv = value.cols();
    const Eigen::Index dk_squares = dk / kLanes * kLanes;
    eigen_assert(key.innerStride() == 1 && value.innerStride() == 1);
    for (Eigen::Index j = first; j < first + count; ++j) {
      Scalar* kp = k.data() + (h * panels + j) * panel_size();
      const Eigen::Index t0 = j * kPanelKeys, n = std::clamp<Eigen::Index>(T - t0, 0, kPanelKeys);
      const Eigen::Index n_squares = n / kLanes * kLanes;
      for (Eigen::Index c = 0; c < n_squares; c += kLanes)
        for (Eigen::Index p = 0; p < dk_squares; p += kLanes) {
// A vector type's alignment attribute does not carry into a template argument; PacketBlock only
// holds an array of them, so nothing depends on it (Eigen's own headers do the same).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wignored-attributes"
          PacketBlock<Packet, kLanes> square;
#pragma GCC diagnostic pop
          for (Eigen::Index i = 0; i < kLanes; ++i)
            square.packet[i] = ploadu<Packet>(key.data() + (t0 + c + i) * key.outerStride() + p);
          ptranspose(square);
          for (Eigen::Index i = 0; i < kLanes; ++i)
            pstoreu(kp + (p + i) * kPanelKeys + c, square.packet[i]);
        }
      for (Eigen::Index p = 0; p < dk; ++p) {
        Scalar* row = kp + p * kPanelKeys;
        for (Eigen::Index c = p < dk_squares ? n_squares : 0; c < n; ++c) row[c] = key(t0 + c, p);
        std::fill(row + n, row + kPanelKeys, Scalar(0));
      }
      if (v.empty()) continue;  // V is read in place
      Scalar* vp = v.data() + (h * keys_padded() + t0) * dv_padded;
      for (Eigen::Index c = 0; c < kPanelKeys; ++c, vp += dv_padded) {
        const Eigen::Index copied = c < n ? dv : 0;
        if (copied) std::copy_n(value.data() + (t0 + c) * value.outerStride(), copied, vp);
        std::fill(vp + copied, vp + dv_padded, Scalar(0));
      }
    }
  }

 private:
  const Scalar* v_in_place = nullptr;
  Eigen::Index heads_ = 1, tokens_ = 0;
};

// A task's scratch: its row block's queries packed by micro-block (depth p of micro-block m at
// [(m · d_k + p) · kRows + r], times the score factor), one micro-block's tile of scores, the
// block's unnormalised outputs, and each row's running maximum and sum.
template <class Scalar>
struct Scratch {
  AlignedVector<Scalar> q, scores, out, row_max, row_sum, rescale;
};

namespace detail {

// Rows [first · kRows, last · kRows) of an n × depth row-major matrix (row i at src + i · stride)
// packed by micro-block, times `factor`, as micro_scores reads its queries: depth p of row r of
// block i at dst[(i · depth + p) · kRows + r]; rows past n are zeros.
template <class Scalar>
void pack_micro_blocks(const Scalar* src, Eigen::Index stride, Eigen::Index n, Eigen::Index depth,
                       Scalar factor, Eigen::Index first, Eigen::Index last, Scalar* dst) {
  using B = Blocking<Scalar>;
  for (Eigen::Index i = first; i < last; ++i) {
    Scalar* block = dst + i * depth * B::kRows;
    for (Eigen::Index r = 0; r < B::kRows; ++r) {
      const Eigen::Index row = i * B::kRows + r;
      if (row < n) {
        const Scalar* in = src + row * stride;
        for (Eigen::Index p = 0; p < depth; ++p) block[p * B::kRows + r] = in[p] * factor;
      } else {
        for (Eigen::Index p = 0; p < depth; ++p) block[p * B::kRows + r] = Scalar(0);
      }
    }
  }
}

// s[r][j · kPanelKeys + c] = Σ_p q[p][r] · k_panel_j[p][c], for `panels` panels from `kp`; and
// row_max[r] = the largest score of row r in the first `max_panels` panels (−inf when none), taken
// from the accumulators before they leave the registers.
template <class Scalar>
void micro_scores(const Scalar* q, const Scalar* kp, Eigen::Index dk, Eigen::Index panels,
                  Eigen::Index max_panels, Scalar* s, Eigen::Index ld_s, Scalar* row_max) {
  using B = Blocking<Scalar>;
  using Packet = typename B::Packet;
  using namespace Eigen::internal;
  Packet running[B::kRows];
  for (int r = 0; r < B::kRows; ++r)
    running[r] = pset1<Packet>(-std::numeric_limits<Scalar>::infinity());
  for (Eigen::Index j = 0; j < panels; ++j, kp += dk * B::kPanelKeys) {
    Packet acc[B::kRows][B::kVectors];
#pragma GCC unroll 8
    for (int r = 0; r < B::kRows; ++r)
#pragma GCC unroll 8
      for (int v = 0; v < B::kVectors; ++v) acc[r][v] = pset1<Packet>(Scalar(0));
    const Scalar* a = q;
    const Scalar* b = kp;
    for (Eigen::Index p = 0; p < dk; ++p, a += B::kRows, b += B::kPanelKeys) {
      Packet bv[B::kVectors];
#pragma GCC unroll 8
      for (int v = 0; v < B::kVectors; ++v) bv[v] = pload<Packet>(b + v * B::kLanes);
#pragma GCC unroll 8
      for (int r = 0; r < B::kRows; ++r) {
        const Packet ar = pset1<Packet>(a[r]);
#pragma GCC unroll 8
        for (int v = 0; v < B::kVectors; ++v) acc[r][v] = pmadd(ar, bv[v], acc[r][v]);
      }
    }
#pragma GCC unroll 8
    for (int r = 0; r < B::kRows; ++r)
#pragma GCC unroll 8
      for (int v = 0; v < B::kVectors; ++v)
        pstoreu(s + r * ld_s + j * B::kPanelKeys + v * B::kLanes, acc[r][v]);
    if (j < max_panels) {
#pragma GCC unroll 8
      for (int r = 0; r < B::kRows; ++r)
#pragma GCC unroll 8
        for (int v = 0; v < B::kVectors; ++v) running[r] = pmax(running[r], acc[r][v]);
    }
  }
  for (int r = 0; r < B::kRows; ++r) row_max[r] = predux_max(running[r]);
}

// How micro_product's accumulators start: at zero, from C, or from C times rescale[r].
enum class Start { kZero, kLoad, kRescale };

// c[r][cols] = start(c[r][cols]) + Σ_{d < depth} a[r · a_row + d · a_depth] · b[d · ld_b + cols]
// for the kRows rows r and kVectorsHere packets of columns: A read by broadcasts at any two
// strides (a matrix or its transpose), B's rows as they lie.
template <class Scalar, int kVectorsHere, Start kStart>
void micro_product(const Scalar* a, Eigen::Index a_row, Eigen::Index a_depth, const Scalar* b,
                   Eigen::Index ld_b, Eigen::Index depth, Scalar* c, Eigen::Index ld_c,
                   const Scalar* rescale) {
  using B = Blocking<Scalar>;
  using Packet = typename B::Packet;
  using namespace Eigen::internal;
  Packet acc[B::kRows][kVectorsHere];
#pragma GCC unroll 8
  for (int r = 0; r < B::kRows; ++r) {
    const Packet f = pset1<Packet>(kStart == Start::kRescale ? rescale[r] : Scalar(1));
#pragma GCC unroll 8
    for (int v = 0; v < kVectorsHere; ++v) {
      if constexpr (kStart == Start::kZero)
        acc[r][v] = pset1<Packet>(Scalar(0));
      else if constexpr (kStart == Start::kLoad)
        acc[r][v] = ploadu<Packet>(c + r * ld_c + v * B::kLanes);
      else
        acc[r][v] = pmul(ploadu<Packet>(c + r * ld_c + v * B::kLanes), f);
    }
  }
  for (Eigen::Index d = 0; d < depth; ++d, a += a_depth, b += ld_b) {
    Packet bv[kVectorsHere];
#pragma GCC unroll 8
    for (int v = 0; v < kVectorsHere; ++v) bv[v] = ploadu<Packet>(b + v * B::kLanes);
#pragma GCC unroll 8
    for (int r = 0; r < B::kRows; ++r) {
      const Packet ar = pset1<Packet>(a[r * a_row]);
#pragma GCC unroll 8
      for (int v = 0; v < kVectorsHere; ++v) acc[r][v] = pmadd(ar, bv[v], acc[r][v]);
    }
  }
#pragma GCC unroll 8
  for (int r = 0; r < B::kRows; ++r)
#pragma GCC unroll 8
    for (int v = 0; v < kVectorsHere; ++v) pstoreu(c + r * ld_c + v * B::kLanes, acc[r][v]);
}

// micro_product over `cols_padded` columns (a whole number of packets), a panel at a time.
template <class Scalar, Start kStart>
void product_rows(const Scalar* a, Eigen::Index a_row, Eigen::Index a_depth, const Scalar* b,
                  Eigen::Index ld_b, Eigen::Index cols_padded, Eigen::Index depth, Scalar* c,
                  Eigen::Index ld_c, const Scalar* rescale = nullptr) {
  using B = Blocking<Scalar>;
  for (Eigen::Index col = 0; col < cols_padded; col += B::kVectors * B::kLanes) {
    const auto left = static_cast<int>((cols_padded - col) / B::kLanes);
    auto run = [&]<int n>() {
      micro_product<Scalar, n, kStart>(a, a_row, a_depth, b + col, ld_b, depth, c + col, ld_c,
                                       rescale);
    };
    switch (std::min(left, B::kVectors)) {
      case 1:
        run.template operator()<1>();
        break;
      case 2:
        run.template operator()<2>();
        break;
      case 3:
        if constexpr (B::kVectors >= 3) run.template operator()<3>();
        break;
      default:
        if constexpr (B::kVectors >= 4) run.template operator()<4>();
        break;
    }
  }
}

// The P·V product of one micro-block over every column of V (d_v padded to packets; its rows
// ld_v apart): o = o · rescale[r] + P·V.
template <class Scalar>
void accumulate(const Scalar* p, Eigen::Index ld_p, const Scalar* vp, Eigen::Index ld_v,
                Eigen::Index dv_padded, Eigen::Index keys, Scalar* o, const Scalar* rescale) {
  product_rows<Scalar, Start::kRescale>(p, ld_p, 1, vp, ld_v, dv_padded, keys, o, dv_padded,
                                        rescale);
}

}  // namespace detail

// Attention of rows [r0, r0 + n) of one head: q (n × d_k, the block's queries), the head's packed
// K and V, into out (n × d_v). Row i sees keys 0..i when causal, else all T. When `lse` is given,
// lse[i] = log₂ Σ_j 2^(s'_ij) for each row, s' the scores in units of log₂ e (what the backward
// pass recomputes its weights from: a_ij = 2^(s'_ij − lse[i])).
template <class Scalar, class Q, class O>
void attend_block(const Q& q, const Packed<Scalar>& packed, int h, Eigen::Index tokens,
                  Eigen::Index dv, Scalar factor, O&& out, Eigen::Index r0, bool causal,
                  Scratch<Scalar>& w, Scalar* lse = nullptr) {
  using B = Blocking<Scalar>;
  const Eigen::Index n = q.rows(), dk = packed.dk, dvp = packed.dv_padded;
  const Eigen::Index micro = (n + B::kRows - 1) / B::kRows, rows_padded = micro * B::kRows;
  static_assert(Q::IsRowMajor, "the queries are read row by row");
  eigen_assert(q.innerStride() == 1);
  // Q packed by micro-block, each row scaled by the score factor and by log₂ e: the scores come
  // out in units of log₂ e, so the softmax's exp(s − m) is 2^(s' − m'), one multiply cheaper.
  w.q.resize(static_cast<size_t>(micro * dk * B::kRows));
  const auto log2e_factor = static_cast<Scalar>(double(factor) * 1.44269504088896340736);
  detail::pack_micro_blocks(q.data(), q.outerStride(), n, dk, log2e_factor, 0, micro, w.q.data());
  w.out.assign(static_cast<size_t>(rows_padded * dvp), Scalar(0));
  w.row_max.assign(static_cast<size_t>(rows_padded), -std::numeric_limits<Scalar>::infinity());
  w.row_sum.assign(static_cast<size_t>(rows_padded), Scalar(0));
  w.rescale.resize(B::kRows);
  const Eigen::Index tile = packed.tile_keys;
  w.scores.resize(static_cast<size_t>(B::kRows * tile));
  Scalar* s = w.scores.data();
  const Scalar* kp = packed.k_head(h);
  const Scalar* vp = packed.v_head(h);

  const Eigen::Index block_end = causal ? std::min(tokens, r0 + n) : tokens;
  for (Eigen::Index c0 = 0; c0 < block_end; c0 += tile) {
    for (Eigen::Index m = 0; m < micro; ++m) {
      const Eigen::Index first = r0 + m * B::kRows;
      const Eigen::Index rows = std::min<Eigen::Index>(B::kRows, r0 + n - first);
      const Eigen::Index key_end = causal ? std::min(tokens, first + rows) : tokens;
      if (c0 >= key_end) continue;  // the whole tile is masked for this micro-block
      const Eigen::Index cols = std::min(tile, key_end - c0);
      const Eigen::Index panels = (cols + B::kPanelKeys - 1) / B::kPanelKeys;
      // Panels every row of the micro-block sees whole: their maxima come with the scores.
      const Eigen::Index seen_by_all =
          causal ? std::clamp<Eigen::Index>(first + 1 - c0, 0, cols) : cols;
      const Eigen::Index fused = seen_by_all / B::kPanelKeys * B::kPanelKeys;
      Scalar tile_max[B::kRows];
      detail::micro_scores(w.q.data() + m * dk * B::kRows,
                           kp + (c0 / B::kPanelKeys) * dk * B::kPanelKeys, dk, panels,
                           seen_by_all / B::kPanelKeys, s, tile, tile_max);
      // The online softmax (FlashAttention, Dao et al. 2022) of each row over this tile: a row's
      // visible keys are a prefix of the tile, the rest get exactly 0. Rows past the block are
      // zero queries whose outputs are never read.
      for (Eigen::Index r = 0; r < B::kRows; ++r) {
        Scalar* row = s + r * tile;
        const Eigen::Index i = first + r;
        const Eigen::Index visible = r >= rows ? 0
                                     : causal  ? std::clamp<Eigen::Index>(i + 1 - c0, 0, cols)
                                               : cols;
        Scalar& m_run = w.row_max[static_cast<size_t>(m * B::kRows + r)];
        Scalar& l_run = w.row_sum[static_cast<size_t>(m * B::kRows + r)];
        if (visible == 0) {
          // Masked here; tile 0 held the row's own first key, so m_run is already finite
          // (padding rows keep rescale 1 on their zeros).
          w.rescale[static_cast<size_t>(r)] = Scalar(1);
          std::fill(row, row + cols, Scalar(0));
          continue;
        }
        Scalar m_new = std::max(m_run, tile_max[r]);
        if (visible > fused)
          m_new = std::max(m_new, Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>(
                                      row + fused, visible - fused)
                                      .maxCoeff());
        const Scalar rescale = std::exp2(m_run - m_new);  // 0 on the row's first tile
        l_run = l_run * rescale + exp_shifted_sum<Scalar, ExpBase::kTwo>(row, visible, m_new);
        std::fill(row + visible, row + cols, Scalar(0));
        m_run = m_new;
        w.rescale[static_cast<size_t>(r)] = rescale;
      }
      // Only the tile's keys: V has no rows past T.
      detail::accumulate(s, tile, vp + c0 * packed.v_stride, packed.v_stride, dvp, cols,
                         w.out.data() + m * B::kRows * dvp, w.rescale.data());
    }
  }
  for (Eigen::Index i = 0; i < n; ++i) {
    const Scalar inv = Scalar(1) / w.row_sum[static_cast<size_t>(i)];
    const Scalar* o = w.out.data() + i * dvp;
    for (Eigen::Index e = 0; e < dv; ++e) out(i, e) = o[e] * inv;
    if (lse)
      lse[i] = w.row_max[static_cast<size_t>(i)] + std::log2(w.row_sum[static_cast<size_t>(i)]);
  }
}

// Rows [r0, r0 + n) of one head with the weights written: each micro-block's scores over every
// key it sees, in a tile of the micro-block's own (s = Q·Kᵀ times the score factor, on
// micro_scores), copied out to S when `s_out` is given (every key, the masked ones too, as S is
// the softmax's input), their exponentials in place, written to A normalised when `a_out` is given
// (masked entries 0) in the same pass, then O = E·V from the tile while it is still in cache, each
// row divided by its sum at the end (E the unnormalised weights: one pass over the tile fewer than
// normalising it first). Without S the scores are taken in units of log₂ e, as attend_block's, and
// their powers of 2 cost one multiply less. s_out and a_out start at row r0 of the head's T × T
// matrices.
template <class Scalar>
struct Rows {
  Scalar* data = nullptr;
  Eigen::Index stride = 0;
};
namespace detail {
// dst[i] = src[i] · f for i < n, then zeros up to `total`.
template <class Scalar>
void write_scaled(const Scalar* src, Eigen::Index n, Scalar f, Scalar* dst, Eigen::Index total) {
  using Packet = typename Blocking<Scalar>::Packet;
  constexpr Eigen::Index kLanes = Blocking<Scalar>::kLanes;
  using namespace Eigen::internal;
  const Packet fv = pset1<Packet>(f);
  Eigen::Index i = 0;
  for (; i + kLanes <= n; i += kLanes) pstoreu(dst + i, pmul(ploadu<Packet>(src + i), fv));
  for (; i < n; ++i) dst[i] = src[i] * f;
  std::fill(dst + n, dst + total, Scalar(0));
}
}  // namespace detail
template <class Scalar, class Q, class O>
void materialise_block(const Q& q, const Packed<Scalar>& packed, int h, Eigen::Index tokens,
                       Eigen::Index dv, Scalar factor, O&& out, Eigen::Index r0, bool causal,
                       Scratch<Scalar>& w, Rows<Scalar> s_out, Rows<Scalar> a_out) {
  using B = Blocking<Scalar>;
  const Eigen::Index n = q.rows(), dk = packed.dk, dvp = packed.dv_padded;
  const Eigen::Index micro = (n + B::kRows - 1) / B::kRows;
  // The tile's rows one packet longer than the keys: rows a multiple of 4 KiB apart (T = 1024 in
  // f32) share their cache sets.
  const Eigen::Index width = packed.keys_padded() + B::kLanes;
  static_assert(Q::IsRowMajor, "the queries are read row by row");
  const bool base_two = !s_out.data;
  const auto q_factor =
      base_two ? static_cast<Scalar>(double(factor) * 1.44269504088896340736) : factor;
  w.q.resize(static_cast<size_t>(micro * dk * B::kRows));
  detail::pack_micro_blocks(q.data(), q.outerStride(), n, dk, q_factor, 0, micro, w.q.data());
  w.scores.resize(static_cast<size_t>(B::kRows * width));
  w.out.resize(static_cast<size_t>(B::kRows * dvp));
  w.rescale.resize(B::kRows);
  Scalar* s = w.scores.data();
  for (Eigen::Index m = 0; m < micro; ++m) {
    const Eigen::Index first = r0 + m * B::kRows;
    const Eigen::Index rows = std::min<Eigen::Index>(B::kRows, r0 + n - first);
    const Eigen::Index key_end = causal ? std::min(tokens, first + rows) : tokens;
    // Every key when S is written; else the keys some row of the micro-block sees.
    const Eigen::Index computed = s_out.data ? tokens : key_end;
    const Eigen::Index seen_by_all = causal ? std::min(first + 1, tokens) : tokens;
    const Eigen::Index whole = seen_by_all / B::kPanelKeys;
    Scalar row_max[B::kRows];
    detail::micro_scores(w.q.data() + m * dk * B::kRows, packed.k_head(h), dk,
                         (computed + B::kPanelKeys - 1) / B::kPanelKeys, whole, s, width, row_max);
    for (Eigen::Index r = 0; r < rows; ++r) {
      Scalar* row = s + r * width;
      const Eigen::Index i = first + r, local = i - r0;
      const Eigen::Index visible = causal ? std::min(i + 1, tokens) : tokens;
      if (s_out.data) std::copy_n(row, tokens, s_out.data + local * s_out.stride);
      const Eigen::Index tail = whole * B::kPanelKeys;
      Scalar m_row = row_max[r];
      if (visible > tail)
        m_row = std::max(m_row, Eigen::Map<const Eigen::Array<Scalar, Eigen::Dynamic, 1>>(
                                    row + tail, visible - tail)
                                    .maxCoeff());
      const Scalar sum = base_two ? exp_shifted_sum<Scalar, ExpBase::kTwo>(row, visible, m_row)
                                  : exp_shifted_sum(row, visible, m_row);
      const Scalar inv = Scalar(1) / sum;
      w.rescale[static_cast<size_t>(r)] = inv;
      std::fill(row + visible, row + std::max(visible, key_end), Scalar(0));
      if (a_out.data)
        detail::write_scaled(row, visible, inv, a_out.data + local * a_out.stride, tokens);
    }
    // Rows past the block: zeros, so that the product below reads no stale number.
    for (Eigen::Index r = rows; r < B::kRows; ++r) std::fill_n(s + r * width, key_end, Scalar(0));
    detail::product_rows<Scalar, detail::Start::kZero>(
        s, width, 1, packed.v_head(h), packed.v_stride, dvp, key_end, w.out.data(), dvp);
    for (Eigen::Index r = 0; r < rows; ++r) {
      const Scalar inv = w.rescale[static_cast<size_t>(r)];
      for (Eigen::Index e = 0; e < dv; ++e) out(first - r0 + r, e) = w.out[r * dvp + e] * inv;
    }
  }
}

}  // namespace awb::kernels::fused

#endif  // AWB_PLUGINS_COMMON_FUSED_ATTENTION_HPP_
