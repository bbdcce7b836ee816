// attention_backward.hpp: the backward pass every bundled softmax plugin runs (one source,
// f32/f64). In the worlds with FMA, the fused backward (fused_backward.hpp): the forward's Q, K, V,
// outputs and row statistics reused when the forward of the same problem came just before (else
// computed again, streaming), then the chain rule back through the projections. The baseline
// world, and a loss on A itself (∂L/∂A given), take the Eigen backward below: it recomputes the
// forward per head, materialising one T × T matrix per head at a time.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_
#define AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_

#include "common/attention_kernel.hpp"

namespace awb::kernels {

// The projections' gradients from those of Q, K, V (and of W_o from the heads' outputs).
template <class Scalar>
void projection_gradients(const Problem<Scalar>& p, const Upstream<Scalar>& up,
                          Gradients<Scalar>& g, const Geometry& geo, const RowMatrix<Scalar>& heads,
                          const RowMatrix<Scalar>& dq, const RowMatrix<Scalar>& dkey,
                          const RowMatrix<Scalar>& dval) {
  if (geo.projected && p.has_output_projection()) multiply_at(heads, up.dz(), g.dw_o());
  if (!geo.projected) {
    g.dx() = dq + dkey + dval;
    return;
  }
  const auto x = p.x();
  multiply_bt(dq, p.w_q(), g.dx());
  multiply_add_bt(dkey, p.w_k(), g.dx());
  multiply_add_bt(dval, p.w_v(), g.dx());
  multiply_at(x, dq, g.dw_q());
  multiply_at(x, dkey, g.dw_k());
  multiply_at(x, dval, g.dw_v());
}

// Shapes as in attention_forward. Writes dX and, for each weight the problem has, its gradient.
template <class Scalar>
void eigen_attention_backward(const Problem<Scalar>& p, const Upstream<Scalar>& up,
                              Gradients<Scalar>& g, Inputs inputs, Mask mask) {
  const Geometry geo = geometry(p, inputs, mask);
  const auto [projected, causal, H, T, dk, dv, KV] = geo;
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
  // A key/value head's dK and dV add up over the query heads of its group.
  RowMatrix<Scalar> heads(T, H * dv), dq(T, H * dk), dkey(T, KV * dk), dval(T, KV * dv);
  RowMatrix<Scalar> s(T, T), a(T, T), da(T, T), dkh(T, dk), dvh(T, dv);
  dkey.setZero();
  dval.setZero();
  for (int h = 0; h < H; ++h) {
    const int kv = geo.kv_head(h);
    const auto qh = q.middleCols(h * dk, dk), kh = k.middleCols(kv * dk, dk);
    const auto vh = v.middleCols(kv * dv, dv);
    const auto dho = dheads.middleCols(h * dv, dv);
    multiply_bt(qh, kh, a, factor);
    detail::softmax_rows(a, 0, causal);
    multiply(a, vh, heads.middleCols(h * dv, dv));
    // ∂L/∂A: through A·V, plus the loss's own gradient on A when it has one.
    multiply_bt(dho, vh, da);
    if (up.has_da()) da += up.da(h);
    multiply_at(a, dho, dvh);
    dval.middleCols(kv * dv, dv) += dvh;
    // Softmax backward, row by row: dS = A ∘ (dA − (A·dA)𝟙). Masked entries have A = 0, so they
    // pass no gradient back, as the mask says they should not.
    const auto shared = (a.array() * da.array()).rowwise().sum();
    s = (a.array() * (da.array().colwise() - shared)).matrix() * factor;  // dS
    multiply(s, kh, dq.middleCols(h * dk, dk));
    multiply_at(s, qh, dkh);
    dkey.middleCols(kv * dk, dk) += dkh;
  }
  projection_gradients(p, up, g, geo, heads, dq, dkey, dval);
}

// The backward of the bundled softmax variants: the fused one where it is compiled and A carries
// no gradient of its own, else Eigen's.
template <class Scalar>
void attention_backward(const Problem<Scalar>& p, const Upstream<Scalar>& up, Gradients<Scalar>& g,
                        Inputs inputs, Mask mask, Workspaces& workspaces) {
  if (!fused::kEnabled || up.has_da()) {
    eigen_attention_backward(p, up, g, inputs, mask);
    return;
  }
  workspaces.training = true;
  const Geometry geo = geometry(p, inputs, mask);
  const auto [projected, causal, H, T, dk, dv, KV] = geo;
  Workspace<Scalar>& ws = workspaces.get<Scalar>();
  ThreadTeam& team = workspaces.team;
  const Scalar factor = score_factor(p, dk);
  const bool with_wo = projected && p.has_output_projection();
  // The forward's count, 2.5 times over for the attention (the threads' threshold).
  const double work = 2.5 * double(H) * double(T) * double(T) * double(dk + dv) +
                      2.0 * double(T) * double(p.d_model()) * double(H * dk + KV * (dk + dv));
  const int threads = worker_threads(p, work);
  // The forward, again, when the last one was not of this problem: its outputs in the heads'
  // buffer, its statistics in ws.lse.
  if (!ws.saved.matches(p, geo, factor)) {
    if (projected) project_qkv(p, ws.q, ws.k, ws.v, team, threads, ws.projection);
    ws.heads_out.resize(T, H * dv);
    fused_attention(p, ws, team, threads, /*direct=*/false, factor, geo, view(ws.heads_out));
  }
  // ∂L/∂(heads' outputs): through W_o when there is one.
  const auto x = p.x();
  if (with_wo) {
    ws.dheads.resize(T, p.w_o().rows());
    multiply_bt(up.dz(), p.w_o(), ws.dheads);
  }
  const ConstMatrixView<Scalar> d_o = with_wo ? cview(ws.dheads) : up.dz();
  const ConstMatrixView<Scalar> q = projected ? cview(ws.q) : x, k = projected ? cview(ws.k) : x,
                                v = projected ? cview(ws.v) : x;
  ws.dq.resize(T, H * dk);
  ws.dkey.resize(T, KV * dk);
  ws.dval.resize(T, KV * dv);
  const fused::BackwardInputs<Scalar> in{
      q, k, v, cview(ws.heads_out), d_o, ws.lse.data(), H, dk, dv, factor, causal, KV};
  fused::attention_backward(in, view(ws.dq), view(ws.dkey), view(ws.dval), team, threads,
                            ws.backward);
  projection_gradients(p, up, g, geo, ws.heads_out, ws.dq, ws.dkey, ws.dval);
}

#ifndef AWB_KERNELS_INSTANTIATE
extern template void attention_backward<float>(const Problem<float>&, const Upstream<float>&,
                                               Gradients<float>&, Inputs, Mask, Workspaces&);
extern template void attention_backward<double>(const Problem<double>&, const Upstream<double>&,
                                                Gradients<double>&, Inputs, Mask, Workspaces&);
#endif

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_
