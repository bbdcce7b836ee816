// parameter_free.cpp: the bundled parameter-free variant: S = sharpness·X Xᵀ, A = softmax(S), Z = A
// X. SPDX-License-Identifier: MIT
#include "common/kernel_variant.hpp"

namespace {

struct ParameterFree : awb::kernels::KernelVariant<awb::kernels::Inputs::kParameterFree> {
  static constexpr awb::VariantInfo kInfo{
      "parameter-free", "Parameter-free dot-product attention",
      "Every token is its own query, key and value: S = X·Xᵀ times sharpness, row softmax, "
      "Z = A·X. Any weights in the problem are ignored.",
      AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL};
};

}  // namespace

AWB_EXPORT_PLUGIN((awb::PluginInfo{"org.awb.parameter-free", "Parameter-free attention", "1.0.0",
                                   "Attention Workbench", "The lesson's first mechanism."}),
                  ParameterFree)
