// subjects.cpp: strict fitting of each layer, then the forward call, layer by layer.
#include "core/subjects.hpp"

#include "core/reference_forward.hpp"
#include "model/error.hpp"

namespace awb::core {

std::optional<std::string> fit_reason(const RunInput& input, uint64_t capabilities, Scalar scalar) {
  for (size_t l = 0; l < input.layers.size(); ++l) {
    const auto fitted = adapt(input.layer_problem(l, input.x), capabilities, scalar, Fit::kStrict);
    if (!fitted.problem) return fitted.reason;
  }
  return std::nullopt;
}

RunOutput run_fitted(const RunInput& input, uint64_t capabilities, Scalar scalar,
                     const RawForward& fn) {
  ForwardOptions options;
  options.scalar = scalar;
  return run_layers(input, [&](const ProblemSpec& p) {
    validate(p);
    const auto fitted = adapt(p, capabilities, scalar, Fit::kStrict);
    if (!fitted.problem) throw Error("run.cannot_run", fitted.reason);
    return run_forward(fn, *fitted.problem, options);
  });
}

PluginSubject::PluginSubject(const VariantRef& ref, const SessionOptions& options)
    : capabilities_(ref.variant->capabilities), session_(open_session(ref, options)) {}

std::optional<std::string> PluginSubject::cannot_run(const RunInput& input, Scalar scalar) const {
  return fit_reason(input, capabilities_, scalar);
}

RunOutput PluginSubject::run(const RunInput& input, Scalar scalar) {
  return run_fitted(input, capabilities_, scalar, session_->as_raw());
}

std::optional<std::string> ReferenceSubject::cannot_run(const RunInput& input,
                                                        Scalar scalar) const {
  return fit_reason(input, capabilities_, scalar);
}

RunOutput ReferenceSubject::run(const RunInput& input, Scalar scalar) {
  return run_fitted(input, capabilities_, scalar, reference_forward(capabilities_));
}

}  // namespace awb::core
