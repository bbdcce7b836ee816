// attention_backward.hpp: the backward pass every bundled softmax plugin runs (one source,
// f32/f64). In the worlds with FMA, the fused backward (fused_backward.hpp): the forward's Q, K, V,
// outputs and row statistics reused when the forward of the same problem came just before (else
// computed again, streaming), then the chain rule back through the projections. The baseline
// world, and a loss on A itself (∂L/∂A given), take the Eigen backward below: it recomputes the
// forward per head, materialising one T × T matrix per head at a time.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_
#define AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_

#include <initializer_list>
#include <span>

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

// The same on the fused worlds' GEMM (fused_gemm.hpp), every product's tasks on the call's
// threads: dX = [dQ dK dV]·[W_q W_k W_v]ᵀ in one product, dW_q, dW_k, dW_v = Xᵀ·(dQ, dK, dV)
// sharing Xᵀ, dW_o = headsᵀ·dZ. `dqkv` holds dQ, dK and dV side by side; the transposed
// operands are copied into ws.transposed first.
template <class Scalar>
void fused_projection_gradients(const Problem<Scalar>& p, const Upstream<Scalar>& up,
                                Gradients<Scalar>& g, const Geometry& geo, Workspace<Scalar>& ws,
                                ThreadTeam& team, int threads) {
  RowMatrix<Scalar>& t = ws.transposed;
  auto product = [&](ConstMatrixView<Scalar> a, std::initializer_list<ConstMatrixView<Scalar>> b,
                     std::initializer_list<MatrixView<Scalar>> c) {
    fused::multiply_shared_lhs<Scalar>(a, std::span(b.begin(), b.size()),
                                       std::span(c.begin(), c.size()), team, threads,
                                       ws.projection);
  };
  if (geo.projected && p.has_output_projection()) {
    t = ws.heads_out.transpose();
    product(cview(t), {up.dz()}, {g.dw_o()});
  }
  const Eigen::Index qk = geo.heads * geo.dk, kk = geo.kv_heads * geo.dk;
  const auto dq = ws.dqkv.leftCols(qk), dkey = ws.dqkv.middleCols(qk, kk),
             dval = ws.dqkv.rightCols(ws.dqkv.cols() - qk - kk);
  if (!geo.projected) {
    g.dx() = dq + dkey + dval;
    return;
  }
  const auto wq = p.w_q(), wk = p.w_k(), wv = p.w_v();
  t.resize(ws.dqkv.cols(), p.d_model());
  t.topRows(qk) = wq.transpose();
  t.middleRows(qk, kk) = wk.transpose();
  t.bottomRows(wv.cols()) = wv.transpose();
  product(cview(ws.dqkv), {cview(t)}, {g.dx()});
  t = p.x().transpose();
  product(cview(t), {cview(dq), cview(dkey), cview(dval)}, {g.dw_q(), g.dw_k(), g.dw_v()});
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
// A batch of sequences (SDK 1.3) comes whole: the fused worlds reuse (or recompute) the whole
// batch's forward, run the attention's backward sequence by sequence on its real tokens, and the
// projections' gradients over every row at once (dQ, dK, dV and the heads' outputs are 0 at the
// padding, so padded rows add nothing); the Eigen backward goes one sequence at a time.
template <class Scalar>
void attention_backward(const Problem<Scalar>& p, const Upstream<Scalar>& up, Gradients<Scalar>& g,
                        Inputs inputs, Mask mask, Workspaces& workspaces) {
  const Sequences seq(p.raw());
  if (!fused::kEnabled || up.has_da()) {
    if (!seq.batched()) {
      eigen_attention_backward(p, up, g, inputs, mask);
      return;
    }
    backward_by_sequence(p.raw(), up.raw_forward(), up.raw_dz(), up.raw_da(), g.raw(),
                         [&](const awb_problem& sp, const awb_results& sf, const awb_tensor& dz,
                             const awb_tensor* da, awb_gradients& sg) {
                           const Problem<Scalar> one(sp);
                           const Upstream<Scalar> one_up(sf, dz, da);
                           Gradients<Scalar> one_g(sg);
                           attention_backward(one, one_up, one_g, inputs, mask, workspaces);
                         });
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
  const double work = 2.5 * double(H) * seq.squared_lengths() * double(dk + dv) +
                      2.0 * double(T) * double(p.d_model()) * double(H * dk + KV * (dk + dv));
  const int threads = worker_threads(p, work);
  // The forward, again, when the last one was not of this problem: its outputs in the heads'
  // buffer, its statistics in ws.lse.
  if (!ws.saved.matches(p, geo, factor)) {
    if (projected) project_qkv(p, ws.q, ws.k, ws.v, team, threads, ws.projection, seq.real_rows());
    ws.heads_out.resize(T, H * dv);
    fused_attention(p, ws, team, threads, /*direct=*/false, factor, geo, seq, view(ws.heads_out));
    seq.zero_padding(ws.heads_out);
    // The buffers hold this problem's forward now, not the saved one's: a later backward of the
    // saved problem (the sequences of a batch, forwards of all then backwards of each) must not
    // take them for its own.
    ws.saved.valid = false;
  }
  // ∂L/∂(heads' outputs): dZ·W_oᵀ when there is a W_o.
  const auto x = p.x();
  if (with_wo) {
    ws.transposed = p.w_o().transpose();
    ws.dheads.resize(T, p.w_o().rows());
    const ConstMatrixView<Scalar> w_ot[] = {cview(ws.transposed)};
    const MatrixView<Scalar> dheads[] = {view(ws.dheads)};
    fused::multiply_shared_lhs<Scalar>(up.dz(), w_ot, dheads, team, threads, ws.projection);
  }
  const ConstMatrixView<Scalar> d_o = with_wo ? cview(ws.dheads) : up.dz();
  const ConstMatrixView<Scalar> q = projected ? cview(ws.q) : x, k = projected ? cview(ws.k) : x,
                                v = projected ? cview(ws.v) : x;
  ws.dqkv.resize(T, H * dk + KV * (dk + dv));
  // Sequence by sequence: its real tokens, its heads' statistics (b · H heads in, T apart).
  for (Eigen::Index b = 0; b < seq.batch; ++b) {
    const Eigen::Index t0 = b * seq.tokens, n = seq.length(b);
    const fused::BackwardInputs<Scalar> in{cview(q.middleRows(t0, n)),
                                           cview(k.middleRows(t0, n)),
                                           cview(v.middleRows(t0, n)),
                                           cview(ws.heads_out.middleRows(t0, n)),
                                           cview(d_o.middleRows(t0, n)),
                                           ws.lse.data() + b * H * seq.tokens,
                                           H,
                                           dk,
                                           dv,
                                           factor,
                                           causal,
                                           KV,
                                           seq.tokens};
    auto rows = ws.dqkv.middleRows(t0, n);
    fused::attention_backward(in, view(rows.leftCols(H * dk)),
                              view(rows.middleCols(H * dk, KV * dk)), view(rows.rightCols(KV * dv)),
                              team, threads, ws.backward);
  }
  seq.zero_padding(ws.dqkv);
  fused_projection_gradients(p, up, g, geo, ws, team, threads);
}

#ifndef AWB_KERNELS_INSTANTIATE
extern template void attention_backward<float>(const Problem<float>&, const Upstream<float>&,
                                               Gradients<float>&, Inputs, Mask, Workspaces&);
extern template void attention_backward<double>(const Problem<double>&, const Upstream<double>&,
                                                Gradients<double>&, Inputs, Mask, Workspaces&);
#endif

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_ATTENTION_BACKWARD_HPP_
