// multi_head.cpp: the bundled multi-head variant: h heads, concatenation, output projection W_o.
// SPDX-License-Identifier: MIT
#include "common/kernel_variant.hpp"

namespace {

struct MultiHead : awb::kernels::KernelVariant<awb::kernels::Inputs::kProjected> {
  static constexpr awb::VariantInfo kInfo{
      "multi-head", "Multi-head attention",
      "h scaled dot-product heads over column blocks of W_q, W_k, W_v; outputs concatenated in "
      "head order and multiplied by W_o; fewer key/value heads than query heads (grouped-query "
      "attention) share each K and V head among a group of consecutive query heads.",
      AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_GROUPED_KV |
          AWB_CAP_OUTPUT_PROJ | AWB_CAP_CAUSAL};
};

}  // namespace

AWB_EXPORT_PLUGIN((awb::PluginInfo{"org.awb.multi-head", "Multi-head attention", "1.0.0",
                                   "Attention Workbench", "Heads, concatenation, W_o."}),
                  MultiHead)
