// projections.hpp: what every bundled multi-head kernel does around its attention: the thread
// count for a call, the Q/K/V projections (pass 1) and the output projection W_o (pass 3): on the
// streaming kernel's micro-kernel in the AVX2 and AVX-512 worlds (fused_gemm.hpp), else as a few
// large Eigen GEMMs over one band of rows per thread.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_PROJECTIONS_HPP_
#define AWB_PLUGINS_COMMON_PROJECTIONS_HPP_

#include <algorithm>
#include <awb/plugin.hpp>
#include <thread>
#include <utility>

#include "common/fused_gemm.hpp"
#include "common/gemm.hpp"
#include "common/thread_team.hpp"

namespace awb::kernels {

// Below this many multiply-adds a call runs on one thread: starting threads costs more.
inline constexpr double kThreadingThreshold = 1 << 20;

// Threads for a call of `work` multiply-adds: the problem's n_threads, or every core when it is 0.
inline int worker_threads(const ProblemShape& p, double work) {
  if (work < kThreadingThreshold) return 1;
  if (p.threads() > 0) return p.threads();
  return static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Rows [first, first + count) of band `b` of `bands` over `rows` rows.
inline std::pair<Eigen::Index, Eigen::Index> band_rows(Eigen::Index rows, Eigen::Index bands,
                                                       Eigen::Index b) {
  const Eigen::Index r0 = rows * b / bands;
  return {r0, rows * (b + 1) / bands - r0};
}

// Pass 1: Q = X·W_q, K = X·W_k, V = X·W_v. With Eigen, one band of rows per thread: a few large
// GEMMs pack each weight matrix once per band instead of once per row block. `rows`: only these
// bands of rows (a padded batch's real tokens; the fused worlds only, which take batches whole).
template <class Scalar>
void project_qkv(const Problem<Scalar>& p, RowMatrix<Scalar>& q, RowMatrix<Scalar>& k,
                 RowMatrix<Scalar>& v, ThreadTeam& team, int threads,
                 fused::GemmScratch<Scalar>& scratch, fused::RowBands rows = {}) {
  const auto x = p.x();
  const Eigen::Index T = p.tokens();
  q.resize(T, p.w_q().cols());
  k.resize(T, p.w_k().cols());
  v.resize(T, p.w_v().cols());
  if constexpr (fused::kEnabled) {
    const ConstMatrixView<Scalar> weights[] = {cview(p.w_q()), cview(p.w_k()), cview(p.w_v())};
    const MatrixView<Scalar> outputs[] = {view(q), view(k), view(v)};
    fused::multiply_shared_lhs<Scalar>(cview(x), weights, outputs, team, threads, scratch, rows);
  } else {
    eigen_assert(rows.empty());
    const Eigen::Index bands = std::min<Eigen::Index>(threads, T);
    team.run(bands, threads, [&](Eigen::Index b, int) {
      const auto [r0, n] = band_rows(T, bands, b);
      multiply(x.middleRows(r0, n), p.w_q(), q.middleRows(r0, n));
      multiply(x.middleRows(r0, n), p.w_k(), k.middleRows(r0, n));
      multiply(x.middleRows(r0, n), p.w_v(), v.middleRows(r0, n));
    });
  }
}

// Pass 3: Z = heads · W_o (with Eigen, one band of rows per thread); `rows` as project_qkv's.
template <class Scalar, class Z>
void project_output(const Problem<Scalar>& p, const RowMatrix<Scalar>& heads, Z&& z,
                    ThreadTeam& team, int threads, fused::GemmScratch<Scalar>& scratch,
                    fused::RowBands rows = {}) {
  if constexpr (fused::kEnabled) {
    const ConstMatrixView<Scalar> weights[] = {cview(p.w_o())};
    const MatrixView<Scalar> outputs[] = {view(z)};
    fused::multiply_shared_lhs<Scalar>(cview(heads), weights, outputs, team, threads, scratch,
                                       rows);
  } else {
    eigen_assert(rows.empty());
    const Eigen::Index T = heads.rows(), bands = std::min<Eigen::Index>(threads, T);
    team.run(bands, threads, [&](Eigen::Index b, int) {
      const auto [r0, n] = band_rows(T, bands, b);
      multiply(heads.middleRows(r0, n), p.w_o(), z.middleRows(r0, n));
    });
  }
}

// Pass 2's destination for rows [t0, t0 + n) of head `col / width`: Z itself when no W_o follows
// (`heads` is then unused), else the heads' buffer that pass 3 projects. Calls `attend` with it.
template <class Z, class Heads, class Attend>
void with_head_rows(bool direct, Z& z, Heads& heads, Eigen::Index t0, Eigen::Index n,
                    Eigen::Index col, Eigen::Index width, Attend&& attend) {
  if (direct)
    attend(z.block(t0, col, n, width));
  else
    attend(heads.block(t0, col, n, width));
}

// The rows [t0, t0 + n) of head h's T × T weights to compute into: A itself when the host wants
// A, else `scratch` (n × T). Calls `fill` with them.
template <class Scalar, class Fill>
void with_weight_rows(Results<Scalar>& r, int h, Eigen::Index t0, Eigen::Index n, Eigen::Index T,
                      RowMatrix<Scalar>& scratch, Fill&& fill) {
  if (r.wants_weights()) {
    fill(r.weights(h).middleRows(t0, n));
  } else {
    scratch.resize(n, T);
    fill(scratch);
  }
}

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_PROJECTIONS_HPP_
