// kernel_variant.hpp: the body every bundled softmax variant shares: forward and backward through
// the shared kernels of the world this CPU runs (kernel_world.hpp), with the workspaces kept from
// call to call, and the cost model. A variant is this plus its kInfo.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_KERNEL_VARIANT_HPP_
#define AWB_PLUGINS_COMMON_KERNEL_VARIANT_HPP_

#include "common/attention_cost.hpp"
#include "common/kernel_world.hpp"

namespace awb::kernels {

// `kInputs`: whether the variant reads the weights; `kMask`: whether it masks whatever the
// problem's causal flag says (the causal variant).
template <Inputs kInputs, Mask kMask = Mask::kAsProblemSays>
struct KernelVariant {
  // Batches of sequences come whole (attention_forward, attention_backward).
  static constexpr bool kTakesBatches = true;
  template <class Scalar>
  void forward(const awb::Problem<Scalar>& p, awb::Results<Scalar>& r) {
    state_.world.template kernels<Scalar>().softmax(p, r, kInputs, kMask, *state_.workspaces);
  }
  template <class Scalar>
  void backward(const awb::Problem<Scalar>& p, const awb::Upstream<Scalar>& up,
                awb::Gradients<Scalar>& g) {
    state_.world.template kernels<Scalar>().softmax_backward(p, up, g, kInputs, kMask,
                                                             *state_.workspaces);
  }
  static Cost cost(const ProblemShape& p, bool writes_weights) {
    return full_attention_cost(p, kInputs == Inputs::kProjected, kMask == Mask::kAlwaysCausal,
                               writes_weights);
  }
  WorldWorkspaces state_;
};

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_KERNEL_VARIANT_HPP_
