// sliding_window_kernel.hpp: sliding-window (local) softmax attention, the Eigen kernel of the
// bundled sliding-window variant (one source, f32/f64).
//
// Query t sees the keys t2 with |t − t2| ≤ window (and t2 ≤ t when the problem is causal); the
// softmax runs over those keys only and every other weight is exactly 0. Scores are those of
// softmax attention (S = factor · Q·Kᵀ, factor = scale × sharpness), reported everywhere, before
// the band, as the causal variant reports them before its mask. A window ≥ T − 1 is full
// attention.
//
// Work: queries go in blocks of B rows; a block's scores are computed against the keys its rows'
// bands cover, [t0 − window, t0 + B − 1 + window], with one GEMM, so a call does
// O(T · (2·window + B) · d) work and never touches a T × T matrix unless A or S is wanted.
// Wider key ranges are cut into tiles under FlashAttention's online softmax (as in
// attention_kernel.hpp), so memory stays O(B · kKeyTile) per thread whatever the window.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_SLIDING_WINDOW_KERNEL_HPP_
#define AWB_PLUGINS_COMMON_SLIDING_WINDOW_KERNEL_HPP_

#include <algorithm>
#include <limits>

#include "common/attention_kernel.hpp"

namespace awb::kernels {

// Queries per block for a window: B ≈ window keeps the keys a block computes and then discards
// (B of the 2·window + B) a modest share, and at least 16 (at most 128) rows keep the GEMMs
// GEMM-shaped.
inline Eigen::Index window_block(Eigen::Index window) {
  return std::clamp<Eigen::Index>(window, 16, kRowBlock);
}

// The keys query t sees: [first, last], both inclusive.
struct Band {
  Eigen::Index first, last;
};
inline Band band_of(Eigen::Index t, Eigen::Index window, Eigen::Index tokens, bool causal) {
  return {std::max<Eigen::Index>(0, t - window),
          causal ? t : std::min<Eigen::Index>(tokens - 1, t + window)};
}

namespace detail {

// Online softmax of a block of queries (rows first_row ..) over its key range (keys first_key ..,
// already cut to `k` and `v`), each row restricted to its band. `q` carries the score factor.
template <class Scalar, class Q, class K, class V, class O>
void stream_band_block(const Q& q, const K& k, const V& v, O&& out, Eigen::Index first_row,
                       Eigen::Index first_key, Eigen::Index window, Eigen::Index tokens,
                       bool causal, Scratch<Scalar>& w) {
  const Eigen::Index rows = q.rows(), keys = k.rows();
  w.row_max.setConstant(rows, -std::numeric_limits<Scalar>::infinity());
  w.row_sum.setZero(rows);
  w.out.setZero(rows, v.cols());
  for (Eigen::Index c0 = 0; c0 < keys; c0 += kKeyTile) {
    const Eigen::Index cols = std::min(kKeyTile, keys - c0);
    w.scores.resize(rows, cols);
    multiply_bt(q, k.middleRows(c0, cols), w.scores);
    for (Eigen::Index i = 0; i < rows; ++i) {
      const Band band = band_of(first_row + i, window, tokens, causal);
      // The row's band within this tile: columns [lo, hi).
      const Eigen::Index lo = std::clamp<Eigen::Index>(band.first - first_key - c0, 0, cols);
      const Eigen::Index hi = std::clamp<Eigen::Index>(band.last + 1 - first_key - c0, 0, cols);
      auto si = w.scores.row(i);
      if (hi <= lo) {  // the tile lies outside this row's band
        si.setZero();
        continue;
      }
      const Scalar m_new = std::max(w.row_max(i), si.segment(lo, hi - lo).maxCoeff());
      const Scalar rescale = std::exp(w.row_max(i) - m_new);  // 0 on the row's first tile
      const Scalar sum = exp_shifted_sum(si.data() + lo, hi - lo, m_new);
      si.head(lo).setZero();
      si.tail(cols - hi).setZero();
      w.row_sum(i) = w.row_sum(i) * rescale + sum;
      w.out.row(i) *= rescale;
      w.row_max(i) = m_new;
    }
    multiply_add(w.scores, v.middleRows(c0, cols), w.out);
  }
  // Every row's band holds its own key, so no sum is 0.
  out = (w.out.array().colwise() / w.row_sum.array()).matrix();
}

// Softmax of each row of `a` (rows first_row .., columns the keys first_key ..) over its band, in
// place; the rest of the row gets exactly 0. The maximum is subtracted only against overflow.
template <class A>
void band_softmax_rows(A&& a, Eigen::Index first_row, Eigen::Index first_key, Eigen::Index window,
                       Eigen::Index tokens, bool causal) {
  for (Eigen::Index i = 0; i < a.rows(); ++i) {
    const Band band = band_of(first_row + i, window, tokens, causal);
    const Eigen::Index lo = band.first - first_key, n = band.last - band.first + 1;
    auto row = a.row(i);
    const auto sum = exp_shifted_sum(row.data() + lo, n, row.segment(lo, n).maxCoeff());
    row.segment(lo, n) /= sum;
    row.head(lo).setZero();
    row.tail(a.cols() - lo - n).setZero();
  }
}

}  // namespace detail

// Forward pass of sliding-window attention. Shapes as in attention_forward (projected, h heads,
// optional W_o). Threads over (head, query block) tasks.
template <class Scalar>
void sliding_window_forward(const Problem<Scalar>& p, Results<Scalar>& r, Eigen::Index window,
                            Workspaces& workspaces);

#ifndef AWB_KERNELS_INSTANTIATE
extern template void sliding_window_forward<float>(const Problem<float>&, Results<float>&,
                                                   Eigen::Index, Workspaces&);
extern template void sliding_window_forward<double>(const Problem<double>&, Results<double>&,
                                                    Eigen::Index, Workspaces&);
#endif

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_SLIDING_WINDOW_KERNEL_HPP_
