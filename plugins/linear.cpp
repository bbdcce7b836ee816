// linear.cpp: the bundled linear attention variant: a kernel feature map φ instead of the
// softmax, so that attention runs in O(T · d²) instead of O(T² · d).
// SPDX-License-Identifier: MIT
//
// Semantics (the reference in graders/reference states them again, independently):
// - Q = X·W_q, K = X·W_k, V = X·W_v; head j uses its column blocks; heads are concatenated, then
//   multiplied by W_o when present (as the multi-head variant).
// - With c = scale × sharpness: q̃_t = φ(c·q_t), k̃_t = φ(k_t); φ = elu(x) + 1 ("elu+1") or
//   max(x, 0) ("relu"), elementwise. S[t, t2] = q̃_t · k̃_t2 for every pair (no mask on S).
// - Query t sees every key, or t2 ≤ t when causal. A[t, t2] = S[t, t2] / (Σ_visible S[t, j] + ε),
//   ε = 10⁻⁶, for visible t2, else exactly 0: a row sums to 1 only up to ε, and to exactly 0
//   when its scores are all 0 (relu), when z_t = 0 too. z_t = Σ_visible A[t, t2] v_t2.
// - Without A and S the kernel streams: O(T · d_k · d_v) (linear_kernel.hpp); the cost model is
//   in attention_cost.hpp.
#include "common/attention_cost.hpp"
#include "common/kernel_world.hpp"

namespace {

struct Linear {
  static constexpr awb::VariantInfo kInfo{
      "linear", "Linear attention",
      "Kernelised multi-head attention: A[t, t2] = phi(q_t).phi(k_t2) / sum over visible keys, "
      "computed in O(T d^2) through running sums when the weights are not wanted.",
      AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_OUTPUT_PROJ |
          AWB_CAP_CAUSAL};
  static constexpr const char* kMaps[] = {"elu+1", "relu"};
  static constexpr awb_param_decl kParams[] = {
      awb::enum_param("feature_map", kMaps, 0, "the feature map phi applied to queries and keys")};

  template <class Scalar>
  void forward(const awb::Problem<Scalar>& p, awb::Results<Scalar>& r) {
    const auto phi = p.choice("feature_map") == "relu" ? awb::kernels::FeatureMap::kRelu
                                                       : awb::kernels::FeatureMap::kEluPlusOne;
    state_.world.kernels<Scalar>().linear(p, r, phi, *state_.workspaces);
  }
  static awb::Cost cost(const awb::ProblemShape& p, bool writes_weights) {
    return awb::kernels::linear_cost(p, p.choice("feature_map"), writes_weights);
  }

  awb::kernels::WorldLinearWorkspaces state_;
};

}  // namespace

AWB_EXPORT_PLUGIN((awb::PluginInfo{"org.awb.linear", "Linear attention", "1.0.0",
                                   "Attention Workbench",
                                   "Kernel feature-map attention with a streaming O(T d^2) path."}),
                  Linear)
