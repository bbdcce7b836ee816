// forward.hpp: runs a forward pass of a plugin variant (or the reference) on a host problem.
#ifndef AWB_CORE_FORWARD_HPP_
#define AWB_CORE_FORWARD_HPP_

#include <awb/awb_plugin.h>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/capabilities.hpp"
#include "core/plugin_loader.hpp"
#include "model/problem.hpp"
#include "model/result.hpp"
#include "model/tensor.hpp"

namespace awb::core {

struct ForwardOptions {
  Scalar scalar = Scalar::kF64;
  bool want_weights = true;  // A
  bool want_scores = true;   // S
  int threads = 0;           // 0: the plugin's choice
};

// A dense row-major tensor over `data` (rank 2 or 3; unused dimensions are 1).
awb_tensor make_tensor(void* data, int32_t rank, std::array<int64_t, 3> shape);

// The raw call: fills ABI results for an ABI problem; throws awb::Error on failure.
using RawForward = std::function<void(const awb_problem&, awb_results&)>;

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

  // Throws awb::Error("plugin.forward_failed") with the status and the plugin's message.
  void forward(const awb_problem& problem, awb_results& results);
  RawForward as_raw();
  const VariantDesc& variant() const { return variant_; }

 private:
  std::shared_ptr<const Library> library_;
  VariantDesc variant_;
  void* instance_ = nullptr;
};

const char* to_string(awb_status status);

}  // namespace awb::core

#endif  // AWB_CORE_FORWARD_HPP_
