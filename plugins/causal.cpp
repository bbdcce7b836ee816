// causal.cpp: the bundled GPT-style masked multi-head self-attention; the mask is always on.
// SPDX-License-Identifier: MIT
#include "common/kernel_variant.hpp"

namespace {

struct Causal : awb::kernels::KernelVariant<awb::kernels::Inputs::kProjected,
                                            awb::kernels::Mask::kAlwaysCausal> {
  static constexpr awb::VariantInfo kInfo{
      "causal", "Causal (masked) multi-head attention",
      "Multi-head attention in which query t sees only keys t2 <= t, as in a GPT decoder; the "
      "mask is applied whatever the problem's causal flag says.",
      AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_GROUPED_KV |
          AWB_CAP_OUTPUT_PROJ | AWB_CAP_CAUSAL | AWB_CAP_CAUSAL_ONLY};
};

}  // namespace

AWB_EXPORT_PLUGIN((awb::PluginInfo{"org.awb.causal", "Causal attention", "1.0.0",
                                   "Attention Workbench", "Masked multi-head self-attention."}),
                  Causal)
