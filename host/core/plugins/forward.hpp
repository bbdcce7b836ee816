// forward.hpp: runs a forward pass of a plugin variant (or the reference) on a host problem.
#ifndef AWB_CORE_PLUGINS_FORWARD_HPP_
#define AWB_CORE_PLUGINS_FORWARD_HPP_

#include <awb/awb_plugin.h>

#include <array>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/plugins/capabilities.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/problem.hpp"
#include "graders/model/result.hpp"
#include "graders/model/tensor.hpp"

namespace awb::core {

// How a callee takes the problem's variant parameters: its declarations, its name in messages,
// and whether a value it does not declare is an error (a variant) or ignored (the reference,
// which sees the values meant for the variant).
struct ParamBinding {
  std::vector<ParamDecl> decls{};
  std::string owner = "the variant";
  bool strict = true;
};

struct ForwardOptions {
  Scalar scalar = Scalar::kF64;
  bool want_weights = true;  // A
  bool want_scores = true;   // S
  int threads = 0;           // 0: the plugin's choice
  ParamBinding params;       // the problem's parameter values are resolved against these
};

// The raw call: fills ABI results for an ABI problem; throws awb::Error on failure.
using RawForward = std::function<void(const awb_problem&, awb_results&)>;
// The raw backward call (awb_plugin.h, "org.awb.backward/1"): problem, its forward results, dZ,
// dA (null when absent), gradients out; throws awb::Error on failure.
using RawBackward = std::function<void(const awb_problem&, const awb_results&, const awb_tensor&,
                                       const awb_tensor*, awb_gradients&)>;

// The cost of one forward pass by the variant's own model (awb_plugin.h, AWB_EXT_COST) for a
// problem whose tensors carry shapes only; nothing when the variant has no model. Throws
// awb::Error("plugin.cost_failed") when the model refuses the problem.
using RawCost = std::function<std::optional<awb_cost>(const awb_problem&, bool writes_weights)>;

// A variant without AWB_CAP_BATCH is never sent a batch: these call `fn` once per sequence
// (awb/sequences.hpp) when a problem is batched, and pass any other problem straight through; a
// batch's cost is the sum of its sequences'.
RawForward per_sequence(RawForward fn);
RawBackward per_sequence(RawBackward fn);
RawCost per_sequence(RawCost fn);

// Marshals `problem` into ABI buffers of the requested scalar type, calls `fn`, and converts the
// outputs back. Output buffers are pre-filled with NaN so an unwritten entry cannot pass as a
// value. The problem must already be validated and fitted to the variant.
ForwardResult run_forward(const RawForward& fn, const ProblemSpec& problem,
                          const ForwardOptions& options);

// One live instance of a plugin variant. Keeps its library loaded; destroys the instance first.
class VariantInstance {
 public:
  // Throws awb::Error("plugin.create_failed") with the plugin's message.
  VariantInstance(std::shared_ptr<const Library> library, const VariantDesc& variant);
  ~VariantInstance();
  VariantInstance(const VariantInstance&) = delete;
  VariantInstance& operator=(const VariantInstance&) = delete;

  // Throws awb::Error("plugin.forward_failed") with the status in words and the plugin's message
  // (plugin_status_message).
  void forward(const awb_problem& problem, awb_results& results);
  RawForward as_raw();
  // Whether the variant exports the backward extension.
  bool has_backward() const { return backward_ != nullptr; }
  // Throws awb::Error("plugin.no_backward" | "plugin.backward_failed").
  void backward(const awb_problem& problem, const awb_results& forward, const awb_tensor& dz,
                const awb_tensor* da, awb_gradients& grads);
  RawBackward backward_raw();
  // The variant's cost model for `problem`'s shapes (AWB_EXT_COST), or nothing without one.
  // Throws awb::Error("plugin.cost_failed").
  std::optional<awb_cost> cost(const awb_problem& problem, bool writes_weights) const;
  const VariantDesc& variant() const { return variant_; }

 private:
  std::shared_ptr<const Library> library_;
  VariantDesc variant_;
  void* instance_ = nullptr;
  const awb_backward_ext* backward_ = nullptr;
  const awb_cost_ext* cost_ = nullptr;
};

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_FORWARD_HPP_
