// parameter_free.cpp: the bundled parameter-free variant: S = sharpness·X Xᵀ, A = softmax(S), Z = A
// X. SPDX-License-Identifier: MIT
#include "common/attention_backward.hpp"

namespace {

struct ParameterFree {
  static constexpr awb::VariantInfo kInfo{
      "parameter-free", "Parameter-free dot-product attention",
      "Every token is its own query, key and value: S = X·Xᵀ times sharpness, row softmax, "
      "Z = A·X. Any weights in the problem are ignored.",
      AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL};

  template <class T>
  void forward(const awb::Problem<T>& p, awb::Results<T>& r) {
    awb::kernels::attention_forward(p, r, awb::kernels::Inputs::kParameterFree, false, workspaces_);
  }

  template <class T>
  void backward(const awb::Problem<T>& p, const awb::Upstream<T>& up, awb::Gradients<T>& g) {
    awb::kernels::attention_backward(p, up, g, awb::kernels::Inputs::kParameterFree, false);
  }

  awb::kernels::Workspaces workspaces_;
};

}  // namespace

AWB_EXPORT_PLUGIN((awb::PluginInfo{"org.awb.parameter-free", "Parameter-free attention", "1.0.0",
                                   "Attention Workbench", "The lesson's first mechanism."}),
                  ParameterFree)
