// attention_kernel.hpp: the Eigen attention kernel every bundled plugin runs (one source, f32/f64).
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_ATTENTION_KERNEL_HPP_
#define AWB_PLUGINS_COMMON_ATTENTION_KERNEL_HPP_

#include <awb/plugin.hpp>
#include <limits>

namespace awb::kernels {

// Which inputs a variant reads: the parameter-free variant ignores any weights it is given.
enum class Inputs { kParameterFree, kProjected };

// Row-wise softmax of `s` into `a`, in place allowed. Masked entries (t2 > t when causal) get
// exactly 0. The row maximum is subtracted only for numerical stability: exp() of large scores
// would overflow, and softmax is unchanged by a constant shift of its row.
template <class T, class In, class Out>
void row_softmax(const In& s, Out& a, bool causal) {
  const Eigen::Index T_ = s.rows();
  for (Eigen::Index t = 0; t < T_; ++t) {
    const Eigen::Index visible = causal ? t + 1 : s.cols();
    const T mx = s.row(t).head(visible).maxCoeff();
    a.row(t).head(visible) = (s.row(t).head(visible).array() - mx).exp();
    const T sum = a.row(t).head(visible).sum();
    a.row(t).head(visible) /= sum;
    if (visible < s.cols()) a.row(t).tail(s.cols() - visible).setZero();
  }
}

// Forward pass for all variants. Shapes: X T×d_model; W_q, W_k d_model×h·d_k; W_v d_model×h·d_v;
// W_o h·d_v×d_out. Head h reads its own column block; outputs are concatenated in head order.
template <class T>
void attention_forward(const Problem<T>& p, Results<T>& r, Inputs inputs, bool force_causal) {
  const bool projected = inputs == Inputs::kProjected;
  if (projected && !p.has_projections()) {
    throw PluginError(AWB_ERR_INVALID_ARGUMENT, "this variant needs W_q, W_k and W_v");
  }
  const bool causal = force_causal || p.causal();
  const int H = projected ? p.heads() : 1;
  const Eigen::Index T_ = p.tokens();
  const Eigen::Index dk = projected ? p.d_k() : p.d_model();
  const Eigen::Index dv = projected ? p.d_v() : p.d_model();
  const T factor = p.score_factor();

  const auto x = p.x();
  RowMatrix<T> q, k, v;
  if (projected) {
    q.noalias() = x * p.w_q();
    k.noalias() = x * p.w_k();
    v.noalias() = x * p.w_v();
  }
  RowMatrix<T> heads_out(T_, H * dv);
  RowMatrix<T> s(T_, T_), a(T_, T_);
  for (int h = 0; h < H; ++h) {
    // Pass 1: scores, the exact softmax input (scale and sharpness applied, mask not yet).
    if (projected) {
      s.noalias() = factor * (q.middleCols(h * dk, dk) * k.middleCols(h * dk, dk).transpose());
    } else {
      s.noalias() = factor * (x * x.transpose());
    }
    if (r.wants_scores()) r.scores(h) = s;
    // Pass 2: weights, each row a distribution over the visible keys.
    row_softmax<T>(s, a, causal);
    if (r.wants_weights()) r.weights(h) = a;
    // Pass 3: context vectors, a weighted blend of the values.
    if (projected) {
      heads_out.middleCols(h * dv, dv).noalias() = a * v.middleCols(h * dv, dv);
    } else {
      heads_out.noalias() = a * x;
    }
  }
  auto z = r.z();
  if (projected && p.has_output_projection()) {
    z.noalias() = heads_out * p.w_o();
  } else {
    z = heads_out;
  }
}

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_ATTENTION_KERNEL_HPP_
