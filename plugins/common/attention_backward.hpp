// attention_backward.hpp: the Eigen backward pass every bundled plugin runs (one source,
// f32/f64): recomputes the forward per head, then the chain rule back through W_o, A·V, the
// softmax and the projections. Materialises one T × T matrix per head at a time.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_
#define AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_

#include "common/attention_kernel.hpp"

namespace awb::kernels {

// Shapes as in attention_forward. Writes dX and, for each weight the problem has, its gradient.
template <class Scalar>
void attention_backward(const Problem<Scalar>& p, const Upstream<Scalar>& up, Gradients<Scalar>& g,
                        Inputs inputs, Mask mask) {
  const auto [projected, causal, H, T, dk, dv] = geometry(p, inputs, mask);
  const Scalar factor = score_factor(p, dk);
  const bool with_wo = projected && p.has_output_projection();
  const auto x = p.x();

  // Forward activations. Without projections Q = K = V = X.
  auto project = [&](auto weight) {  // weight() only with projections: without, there is none
    if (!projected) return RowMatrix<Scalar>(x);
    RowMatrix<Scalar> m(T, weight().cols());
    multiply(x, weight(), m);
    return m;
  };
  const RowMatrix<Scalar> q = project([&] { return p.w_q(); }),
                          k = project([&] { return p.w_k(); }),
                          v = project([&] { return p.w_v(); });
  // Back through the output projection: dHeads = dZ · W_oᵀ.
  RowMatrix<Scalar> dheads;
  if (with_wo) {
    dheads.resize(T, p.w_o().rows());
    multiply_bt(up.dz(), p.w_o(), dheads);
  } else {
    dheads = up.dz();
  }
  RowMatrix<Scalar> heads(T, H * dv), dq(T, H * dk), dkey(T, H * dk), dval(T, H * dv);
  RowMatrix<Scalar> s(T, T), a(T, T), da(T, T);
  for (int h = 0; h < H; ++h) {
    const auto qh = q.middleCols(h * dk, dk), kh = k.middleCols(h * dk, dk);
    const auto vh = v.middleCols(h * dv, dv);
    const auto dho = dheads.middleCols(h * dv, dv);
    multiply_bt(qh, kh, a, factor);
    detail::softmax_rows(a, 0, causal);
    multiply(a, vh, heads.middleCols(h * dv, dv));
    // ∂L/∂A: through A·V, plus the loss's own gradient on A when it has one.
    multiply_bt(dho, vh, da);
    if (up.has_da()) da += up.da(h);
    multiply_at(a, dho, dval.middleCols(h * dv, dv));
    // Softmax backward, row by row: dS = A ∘ (dA − (A·dA)𝟙). Masked entries have A = 0, so they
    // pass no gradient back, as the mask says they should not.
    const auto shared = (a.array() * da.array()).rowwise().sum();
    s = (a.array() * (da.array().colwise() - shared)).matrix() * factor;  // dS
    multiply(s, kh, dq.middleCols(h * dk, dk));
    multiply_at(s, qh, dkey.middleCols(h * dk, dk));
  }
  if (with_wo) multiply_at(heads, up.dz(), g.dw_o());
  if (!projected) {
    g.dx() = dq + dkey + dval;
    return;
  }
  multiply_bt(dq, p.w_q(), g.dx());
  multiply_add_bt(dkey, p.w_k(), g.dx());
  multiply_add_bt(dval, p.w_v(), g.dx());
  multiply_at(x, dq, g.dw_q());
  multiply_at(x, dkey, g.dw_k());
  multiply_at(x, dval, g.dw_v());
}

#ifndef AWB_KERNELS_INSTANTIATE
extern template void attention_backward<float>(const Problem<float>&, const Upstream<float>&,
                                               Gradients<float>&, Inputs, Mask);
extern template void attention_backward<double>(const Problem<double>&, const Upstream<double>&,
                                                Gradients<double>&, Inputs, Mask);
#endif

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_
