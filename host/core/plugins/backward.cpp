// backward.cpp: gradient marshalling across the ABI, and the reference behind the same call.
#include "core/plugins/backward.hpp"

#include <awb/sequences.hpp>
#include <limits>
#include <stdexcept>

#include "graders/model/abi_buffers.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

template <class T>
LayerGradients run_typed(const RawBackward& fn, const ProblemSpec& p, const ForwardResult& f,
                         const BackwardSeed& up, const ParamBinding& o) {
  const int64_t T_ = p.tokens_count();
  if (up.dz.rows != T_ || up.dz.cols != p.d_out())
    throw Error("run.backward_shape",
                "dZ must be " + std::to_string(T_) + " x " + std::to_string(p.d_out()));
  const int64_t T1 = p.sequence_tokens();
  if (!up.da.empty() && (static_cast<int64_t>(up.da.size()) != p.planes() || up.da[0].rows != T1 ||
                         up.da[0].cols != T1))
    throw Error("run.backward_shape", "dA must hold one T x T matrix per head and sequence");
  AbiBuffers<T> b;
  const std::vector<double> values = resolve_params(o.decls, p.params, o.owner, o.strict);
  const awb_problem prob = b.problem(p, 0, o.decls, values);
  awb_results fwd{};
  fwd.struct_size = sizeof(awb_results);
  fwd.z = b.bind(f.z);
  fwd.a = b.bind_planes(f.weights);
  fwd.s = b.bind_planes(f.scores);
  const awb_tensor dz = b.bind(up.dz);
  const awb_tensor da = b.bind_planes(up.da);

  awb_gradients g = b.gradients_like(p, std::numeric_limits<T>::quiet_NaN());
  fn(prob, fwd, dz, da.data ? &da : nullptr, g);
  return to_gradients<T>(g);
}

}  // namespace

RawBackward per_sequence(RawBackward fn) {
  return [fn = std::move(fn)](const awb_problem& p, const awb_results& f, const awb_tensor& dz,
                              const awb_tensor* da, awb_gradients& g) {
    if (batched(p))
      backward_by_sequence(p, f, dz, da, g, fn);
    else
      fn(p, f, dz, da, g);
  };
}

LayerGradients run_backward(const RawBackward& fn, const ProblemSpec& problem,
                            const ForwardResult& forward, const BackwardSeed& upstream,
                            Scalar scalar, const ParamBinding& params) {
  if (scalar == Scalar::kF64) return run_typed<double>(fn, problem, forward, upstream, params);
  return run_typed<float>(fn, problem, forward, upstream, params);
}

RawBackward reference_backward(uint64_t capabilities, reference::BackwardVariation variation) {
  const auto kind = reference_kind(Family::kSoftmax, (capabilities & AWB_CAP_QKV) != 0);
  return [kind, variation](const awb_problem& p, const awb_results&, const awb_tensor& dz,
                           const awb_tensor* da, awb_gradients& g) {
    try {
      reference::attention_backward(p, dz, da, g, kind, variation);
    } catch (const std::invalid_argument& e) {
      throw Error("reference.invalid", e.what());
    }
  };
}

}  // namespace awb::core
