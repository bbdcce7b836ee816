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
  const RowMatrix<Scalar> q = projected ? RowMatrix<Scalar>(x * p.w_q()) : RowMatrix<Scalar>(x);
  const RowMatrix<Scalar> k = projected ? RowMatrix<Scalar>(x * p.w_k()) : RowMatrix<Scalar>(x);
  const RowMatrix<Scalar> v = projected ? RowMatrix<Scalar>(x * p.w_v()) : RowMatrix<Scalar>(x);
  // Back through the output projection: dHeads = dZ · W_oᵀ.
  const RowMatrix<Scalar> dheads =
      with_wo ? RowMatrix<Scalar>(up.dz() * p.w_o().transpose()) : RowMatrix<Scalar>(up.dz());
  RowMatrix<Scalar> heads(T, H * dv), dq(T, H * dk), dkey(T, H * dk), dval(T, H * dv);
  RowMatrix<Scalar> s(T, T), a(T, T), da(T, T);
  for (int h = 0; h < H; ++h) {
    const auto qh = q.middleCols(h * dk, dk), kh = k.middleCols(h * dk, dk);
    const auto vh = v.middleCols(h * dv, dv);
    const auto dho = dheads.middleCols(h * dv, dv);
    a.noalias() = factor * (qh * kh.transpose());
    detail::softmax_rows(a, 0, causal);
    heads.middleCols(h * dv, dv).noalias() = a * vh;
    // ∂L/∂A: through A·V, plus the loss's own gradient on A when it has one.
    da.noalias() = dho * vh.transpose();
    if (up.has_da()) da += up.da(h);
    dval.middleCols(h * dv, dv).noalias() = a.transpose() * dho;
    // Softmax backward, row by row: dS = A ∘ (dA − (A·dA)𝟙). Masked entries have A = 0, so they
    // pass no gradient back, as the mask says they should not.
    const auto shared = (a.array() * da.array()).rowwise().sum();
    s = (a.array() * (da.array().colwise() - shared)).matrix() * factor;  // dS
    dq.middleCols(h * dk, dk).noalias() = s * kh;
    dkey.middleCols(h * dk, dk).noalias() = s.transpose() * qh;
  }
  if (with_wo) g.dw_o().noalias() = heads.transpose() * up.dz();
  if (!projected) {
    g.dx() = dq + dkey + dval;
    return;
  }
  g.dx().noalias() = dq * p.w_q().transpose();
  g.dx().noalias() += dkey * p.w_k().transpose();
  g.dx().noalias() += dval * p.w_v().transpose();
  g.dw_q().noalias() = x.transpose() * dq;
  g.dw_k().noalias() = x.transpose() * dkey;
  g.dw_v().noalias() = x.transpose() * dval;
}

#ifndef AWB_KERNELS_INSTANTIATE
extern template void attention_backward<float>(const Problem<float>&, const Upstream<float>&,
                                               Gradients<float>&, Inputs, Mask);
extern template void attention_backward<double>(const Problem<double>&, const Upstream<double>&,
                                                Gradients<double>&, Inputs, Mask);
#endif

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_
