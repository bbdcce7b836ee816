// kernel_variant.hpp: the body every bundled variant shares: forward and backward through the
// shared kernels, with the workspaces kept from call to call. A variant is this plus its kInfo.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_KERNEL_VARIANT_HPP_
#define AWB_PLUGINS_COMMON_KERNEL_VARIANT_HPP_

#include "common/attention_backward.hpp"
#include "common/attention_kernel.hpp"

namespace awb::kernels {

// `kInputs`: whether the variant reads the weights; `kCausalOnly`: the mask whatever the problem's
// causal flag says (the causal variant).
template <Inputs kInputs, bool kCausalOnly>
struct KernelVariant {
  template <class T>
  void forward(const awb::Problem<T>& p, awb::Results<T>& r) {
    attention_forward(p, r, kInputs, kCausalOnly, workspaces_);
  }
  template <class T>
  void backward(const awb::Problem<T>& p, const awb::Upstream<T>& up, awb::Gradients<T>& g) {
    attention_backward(p, up, g, kInputs, kCausalOnly);
  }
  Workspaces workspaces_;
};

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_KERNEL_VARIANT_HPP_
