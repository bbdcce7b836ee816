// reference_gradients.cpp: host matrices in and out of the reference kernels.
#include "graders/reference/reference_gradients.hpp"

#include <cmath>
#include <limits>

#include "graders/model/abi_buffers.hpp"

namespace awb::reference {
namespace {

VariantKind kind_of(const ProblemSpec& p) {
  return reference_kind(Family::kSoftmax, p.has_projections());
}

template <class T>
ForwardResult forward_typed(const ProblemSpec& p) {
  AbiBuffers<T> b;
  const awb_problem prob = b.problem(p, 1);
  const int64_t T_ = p.tokens_count(), T1 = p.sequence_tokens();
  const int64_t H = (p.has_projections() ? p.heads : 1) * int64_t(p.batch);
  const T nan = std::numeric_limits<T>::quiet_NaN();
  awb_results r{};
  r.struct_size = sizeof(awb_results);
  r.z = make_tensor(b.output(static_cast<size_t>(T_ * p.d_out()), nan), 2, {T_, p.d_out(), 1});
  r.a = make_tensor(b.output(static_cast<size_t>(H * T1 * T1), nan), 3, {H, T1, T1});
  r.s = make_tensor(b.output(static_cast<size_t>(H * T1 * T1), nan), 3, {H, T1, T1});
  attention_forward(prob, r, kind_of(p));
  return {to_matrix<T>(r.z), to_planes<T>(r.a), to_planes<T>(r.s)};
}

template <class T>
LayerGradients gradients_typed(const ProblemSpec& p, const BackwardSeed& up, BackwardVariation v) {
  AbiBuffers<T> b;
  const awb_problem prob = b.problem(p, 1);
  const awb_tensor dz = b.bind(up.dz);
  const awb_tensor da = b.bind_planes(up.da);
  awb_gradients g = b.gradients_like(p, T(0));
  attention_backward(prob, dz, da.data ? &da : nullptr, g, kind_of(p), v);
  return to_gradients<T>(g);
}

}  // namespace

LayerGradients f32_rounding_bounds(const ProblemSpec& p, const BackwardSeed& up) {
  AbiBuffers<double> b;
  const awb_problem prob = b.problem(p, 1);
  const awb_tensor dz = b.bind(up.dz);
  const awb_tensor da = b.bind_planes(up.da);
  awb_gradients g = b.gradients_like(p, 0.0);
  attention_backward_rounding_bound(prob, dz, da.data ? &da : nullptr, g, kind_of(p),
                                    std::ldexp(1.0, -24));
  return to_gradients<double>(g);
}

ForwardResult forward_of(const ProblemSpec& problem, Scalar scalar) {
  if (scalar == Scalar::kF64) return forward_typed<double>(problem);
  return forward_typed<float>(problem);
}

LayerGradients gradients_of(const ProblemSpec& problem, const BackwardSeed& upstream, Scalar scalar,
                            BackwardVariation variation) {
  if (scalar == Scalar::kF64) return gradients_typed<double>(problem, upstream, variation);
  return gradients_typed<float>(problem, upstream, variation);
}

}  // namespace awb::reference
