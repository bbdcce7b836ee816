// subjects.hpp: what grading can run: a plugin variant through its session (in this process or
// in an awb-runner), or the reference.
#ifndef AWB_CORE_PLUGINS_SUBJECTS_HPP_
#define AWB_CORE_PLUGINS_SUBJECTS_HPP_

#include <memory>

#include "core/plugins/backward.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/forward.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/variant_session.hpp"
#include "graders/model/run.hpp"

namespace awb::core {

// Runs a plugin variant through its session: in-process for trusted plugins, in an awb-runner
// otherwise. Problems are fitted strictly: a variant that cannot run a problem exactly as given
// is not run at all. Throws awb::Error from the constructor when the session cannot open.
class VariantSubject : public Subject {
 public:
  VariantSubject(const VariantRef& ref, const SessionOptions& options);
  std::optional<std::string> cannot_run(const RunInput& input, Scalar scalar) const override;
  RunOutput run(const RunInput& input, Scalar scalar) override;
  RunOutput run_context_only(const RunInput& input, Scalar scalar) override;
  VariantSession& session() { return *session_; }
  std::optional<std::string> cannot_backward() const override;
  LayerGradients backward(const ProblemSpec& problem, const BackwardSeed& upstream,
                          Scalar scalar) override;

 private:
  uint64_t capabilities_;
  ParamBinding params_;
  std::unique_ptr<VariantSession> session_;
};

// The trusted reference kernels, able to run anything a variant with `capabilities` could.
class ReferenceSubject : public Subject {
 public:
  explicit ReferenceSubject(uint64_t capabilities) : capabilities_(capabilities) {}
  std::optional<std::string> cannot_run(const RunInput& input, Scalar scalar) const override;
  RunOutput run(const RunInput& input, Scalar scalar) override;
  RunOutput run_context_only(const RunInput& input, Scalar scalar) override;
  std::optional<std::string> cannot_backward() const override { return std::nullopt; }
  LayerGradients backward(const ProblemSpec& problem, const BackwardSeed& upstream,
                          Scalar scalar) override;

 private:
  uint64_t capabilities_;
};

// Fits every layer of `input` to `capabilities`; the first refusal's reason, or nothing.
std::optional<std::string> fit_reason(const RunInput& input, uint64_t capabilities, Scalar scalar);

// Runs all layers through `fn`, each layer's problem fitted strictly to `capabilities`; A and S
// are requested unless `context_only`.
RunOutput run_fitted(const RunInput& input, uint64_t capabilities, Scalar scalar,
                     const RawForward& fn, const ParamBinding& params = {},
                     bool context_only = false);

// One layer's backward: the problem fitted strictly, its forward run through `forward` (A and S
// kept), then `backward` given those results.
LayerGradients backward_fitted(const ProblemSpec& problem, const BackwardSeed& upstream,
                               uint64_t capabilities, Scalar scalar, const RawForward& forward,
                               const RawBackward& backward, const ParamBinding& params = {});

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_SUBJECTS_HPP_
