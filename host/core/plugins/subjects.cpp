// subjects.cpp: strict fitting of each layer, then the forward call, layer by layer.
#include "core/plugins/subjects.hpp"

#include "core/plugins/reference_forward.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

std::optional<std::string> fit_reason(const RunInput& input, uint64_t capabilities, Scalar scalar) {
  for (size_t l = 0; l < input.layers.size(); ++l) {
    const auto fitted = adapt(input.layer_problem(l, input.x), capabilities, scalar, Fit::kStrict);
    if (!fitted.problem) return fitted.reason;
  }
  return std::nullopt;
}

RunOutput run_fitted(const RunInput& input, uint64_t capabilities, Scalar scalar,
                     const RawForward& fn, const ParamBinding& params, bool context_only) {
  ForwardOptions options;
  options.scalar = scalar;
  options.params = params;
  options.want_weights = options.want_scores = !context_only;
  return run_layers(input, [&](const ProblemSpec& p) {
    validate(p);
    const auto fitted = adapt(p, capabilities, scalar, Fit::kStrict);
    if (!fitted.problem) throw Error("run.cannot_run", fitted.reason);
    return run_forward(fn, *fitted.problem, options);
  });
}

LayerGradients backward_fitted(const ProblemSpec& problem, const BackwardSeed& upstream,
                               uint64_t capabilities, Scalar scalar, const RawForward& forward,
                               const RawBackward& backward, const ParamBinding& params) {
  validate(problem);
  const auto fitted = adapt(problem, capabilities, scalar, Fit::kStrict);
  if (!fitted.problem) throw Error("run.cannot_run", fitted.reason);
  ForwardOptions options;
  options.scalar = scalar;
  options.params = params;
  const ForwardResult f = run_forward(forward, *fitted.problem, options);
  return run_backward(backward, *fitted.problem, f, upstream, scalar, params);
}

VariantSubject::VariantSubject(const VariantRef& ref, const SessionOptions& options)
    : capabilities_(ref.variant->capabilities),
      params_{ref.variant->params, "variant '" + ref.variant->id + "'", true},
      session_(open_session(ref, options)) {}

std::optional<std::string> VariantSubject::cannot_run(const RunInput& input, Scalar scalar) const {
  return fit_reason(input, capabilities_, scalar);
}

RunOutput VariantSubject::run(const RunInput& input, Scalar scalar) {
  return run_fitted(input, capabilities_, scalar, session_->as_raw(), params_);
}

RunOutput VariantSubject::run_context_only(const RunInput& input, Scalar scalar) {
  return run_fitted(input, capabilities_, scalar, session_->as_raw(), params_, true);
}

std::optional<std::string> VariantSubject::cannot_backward() const {
  return session_->cannot_backward();
}

LayerGradients VariantSubject::backward(const ProblemSpec& problem, const BackwardSeed& upstream,
                                        Scalar scalar) {
  return backward_fitted(problem, upstream, capabilities_, scalar, session_->as_raw(),
                         session_->backward_raw(), params_);
}

std::optional<std::string> ReferenceSubject::cannot_run(const RunInput& input,
                                                        Scalar scalar) const {
  return fit_reason(input, capabilities_, scalar);
}

RunOutput ReferenceSubject::run(const RunInput& input, Scalar scalar) {
  const Family family = input.params.family;
  return run_fitted(input, capabilities_, scalar, reference_forward(capabilities_, family),
                    reference_params(family));
}

RunOutput ReferenceSubject::run_context_only(const RunInput& input, Scalar scalar) {
  const Family family = input.params.family;
  return run_fitted(input, capabilities_, scalar, reference_forward(capabilities_, family),
                    reference_params(family), true);
}

LayerGradients ReferenceSubject::backward(const ProblemSpec& problem, const BackwardSeed& upstream,
                                          Scalar scalar) {
  if (problem.family != Family::kSoftmax)
    throw Error("run.cannot_run", std::string("the reference has no backward pass for ") +
                                      to_string(problem.family) + " attention");
  return backward_fitted(problem, upstream, capabilities_, scalar, reference_forward(capabilities_),
                         reference_backward(capabilities_));
}

}  // namespace awb::core
