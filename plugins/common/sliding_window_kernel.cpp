// sliding_window_kernel.cpp: the one compiled copy of the sliding-window kernel, f32 and f64.
// SPDX-License-Identifier: MIT
#define AWB_KERNELS_INSTANTIATE
#include "common/sliding_window_kernel.hpp"

namespace awb::kernels {

template <class Scalar>
void sliding_window_forward(const Problem<Scalar>& p, Results<Scalar>& r, Eigen::Index window,
                            Workspaces& workspaces) {
  const auto [projected, causal, H, T, dk, dv, KV] =
      geometry(p, Inputs::kProjected, Mask::kAsProblemSays);
  Workspace<Scalar>& ws = workspaces.get<Scalar>();
  const Scalar factor = score_factor(p, dk);
  const bool materialise = r.wants_weights() || r.wants_scores();
  const Eigen::Index B = window_block(window);
  // Keys one block computes against (the union of its rows' bands), at most T.
  const double span = std::min(double(T), double(B) + 2.0 * double(window));
  const double work = double(H) * double(T) * (materialise ? double(T) : span) * double(dk + dv) +
                      double(T) * double(p.d_model()) * double(H) * double(2 * dk + dv);
  const auto [threads, direct] = prepare_heads(p, ws, workspaces.team, work, projected, H, dv);
  auto z = r.z();

  const Eigen::Index blocks = (T + B - 1) / B;
  workspaces.team.run(Eigen::Index(H) * blocks, threads, [&](Eigen::Index task, int slot) {
    const int h = static_cast<int>(task / blocks);
    const Eigen::Index t0 = (task % blocks) * B, n = std::min(B, T - t0);
    // Keys any row of the block sees: from the first row's band start to the last row's end.
    const Eigen::Index k0 = band_of(t0, window, T, causal).first;
    const Eigen::Index k1 = band_of(t0 + n - 1, window, T, causal).last + 1;
    Scratch<Scalar>& w = ws.scratch[static_cast<size_t>(slot)];
    const auto q = ws.q.block(t0, h * dk, n, dk);
    const auto k = ws.k.block(k0, h * dk, k1 - k0, dk);
    const auto v = ws.v.block(k0, h * dv, k1 - k0, dv);
    auto attend = [&](auto out) {
      if (!materialise) {
        w.q.noalias() = q * factor;
        detail::stream_band_block<Scalar>(w.q, k, v, out, t0, k0, window, T, causal, w);
        return;
      }
      // Materialised: S over every key when it is wanted (scores outside the band too), else only
      // over the block's key range; the band's softmax in place (in A itself when A is wanted).
      auto materialised = [&](auto&& a) {
        if (r.wants_scores()) {
          multiply_bt(q, ws.k.middleCols(h * dk, dk), a, factor);
          r.scores(h).middleRows(t0, n) = a;
        } else {
          multiply_bt(q, k, a.middleCols(k0, k1 - k0), factor);
        }
        detail::band_softmax_rows(a.middleCols(k0, k1 - k0), t0, k0, window, T, causal);
        a.leftCols(k0).setZero();
        a.rightCols(T - k1).setZero();
        multiply(a.middleCols(k0, k1 - k0), v, out);
      };
      with_weight_rows(r, h, t0, n, T, w.scores, materialised);
    };
    with_head_rows(direct, z, ws.heads_out, t0, n, h * dv, dv, attend);
  });

  if (!direct) project_output(p, ws.heads_out, z, workspaces.team, threads, ws.projection);
}

template void sliding_window_forward<float>(const Problem<float>&, Results<float>&, Eigen::Index,
                                            Workspaces&);
template void sliding_window_forward<double>(const Problem<double>&, Results<double>&, Eigen::Index,
                                             Workspaces&);

}  // namespace awb::kernels
