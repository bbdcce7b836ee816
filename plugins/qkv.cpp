// qkv.cpp: the bundled single-head variant with trainable Q/K/V projections and 1/sqrt(d_k).
// SPDX-License-Identifier: MIT
#include "common/kernel_variant.hpp"

namespace {

struct Qkv : awb::kernels::KernelVariant<awb::kernels::Inputs::kProjected> {
  static constexpr awb::VariantInfo kInfo{
      "qkv", "Scaled dot-product attention with Q/K/V projections",
      "Q = X·W_q, K = X·W_k, V = X·W_v; S = Q·Kᵀ/sqrt(d_k) (or unscaled) times sharpness; "
      "Z = softmax(S)·V. One head.",
      AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_CAUSAL};
};

}  // namespace

AWB_EXPORT_PLUGIN((awb::PluginInfo{"org.awb.qkv", "Q/K/V attention", "1.0.0", "Attention Workbench",
                                   "Single-head scaled attention."}),
                  Qkv)
