// variant_session.hpp: a live connection to one plugin variant, in this process (trusted
// plugins) or in an awb-runner (everything else). Front ends and grading call plugins only
// through it, so the isolation decision is made in one place.
#ifndef AWB_CORE_PLUGINS_VARIANT_SESSION_HPP_
#define AWB_CORE_PLUGINS_VARIANT_SESSION_HPP_

#include <memory>
#include <optional>
#include <string>

#include "core/plugins/forward.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/runner_client/runner_process.hpp"

namespace awb::core {

struct SessionOptions {
  RunnerOptions runner;
  // Refuse a runner that locked down less than this (--min-isolation). Trusted plugins run
  // in-process by design and are not subject to it.
  runner::Isolation minimum = runner::Isolation::kProcess;
};

class VariantSession {
 public:
  virtual ~VariantSession() = default;
  // One forward call. Faults surface as awb::Error ("plugin.*", "runner.*").
  virtual void forward(const awb_problem& problem, awb_results& results) = 0;
  virtual runner::Isolation isolation() const = 0;
  // Per-run limits (an exercise's limits); ignored in-process.
  virtual void set_limits(double /*cpu_seconds*/, double /*wall_seconds*/) {}
  // Ends the session. Throws awb::Error for a fault only visible at the end (a stray frame).
  virtual void finish() {}
  // What the plugin printed so far (runner sessions; empty in-process).
  virtual std::string output() const { return {}; }
  // The forward call as a function; a batch reaches a variant without AWB_CAP_BATCH one
  // sequence at a time (per_sequence).
  RawForward as_raw() {
    RawForward fn = [this](const awb_problem& p, awb_results& r) { forward(p, r); };
    return batch_capable_ ? fn : per_sequence(std::move(fn));
  }
  // Why this session cannot run the backward pass (exactly runner::kNotTrainable when the
  // variant exports none, in-process and in a runner alike), or nothing.
  virtual std::optional<std::string> cannot_backward() const = 0;
  // One backward call (awb_plugin.h, AWB_EXT_BACKWARD).
  virtual void backward(const awb_problem& problem, const awb_results& forward,
                        const awb_tensor& dz, const awb_tensor* da, awb_gradients& grads) = 0;
  // What one forward pass of `problem` (shapes, flags and parameters; its tensors' data is not
  // read) costs, by the variant's own cost model (AWB_EXT_COST); nothing when it has none.
  // Throws awb::Error("plugin.cost_failed") when the model refuses the problem.
  virtual std::optional<awb_cost> cost(const awb_problem& problem, bool writes_weights) = 0;
  RawCost cost_raw() {
    RawCost fn = [this](const awb_problem& p, bool writes_weights) {
      return cost(p, writes_weights);
    };
    return batch_capable_ ? fn : per_sequence(std::move(fn));
  }
  RawBackward backward_raw() {
    RawBackward fn = [this](const awb_problem& p, const awb_results& f, const awb_tensor& dz,
                            const awb_tensor* da, awb_gradients& g) { backward(p, f, dz, da, g); };
    return batch_capable_ ? fn : per_sequence(std::move(fn));
  }

 protected:
  explicit VariantSession(const VariantRef& ref)
      : batch_capable_((ref.variant->capabilities & AWB_CAP_BATCH) != 0) {}

 private:
  bool batch_capable_;
};

// In-process when the plugin was loaded here (it has a library), else in a fresh runner.
// Throws awb::Error when the variant cannot be set up (create fails, the runner cannot load
// the plugin, or its lockdown is below `options.minimum`).
std::unique_ptr<VariantSession> open_session(const VariantRef& ref, const SessionOptions& options);

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_VARIANT_SESSION_HPP_
