// linear_kernel.hpp: linear attention (Katharopoulos et al. 2020, "Transformers are RNNs"), the
// Eigen kernel of the bundled linear variant (one source, f32/f64).
//
// With q_t, k_t a head's rows and c the score factor (scale × sharpness): q̃_t = φ(c·q_t),
// k̃_t = φ(k_t), where φ is elu(x) + 1 (elu(x) = x for x > 0, eˣ − 1 otherwise) or relu(x) =
// max(x, 0), elementwise. Kernel scores S[t, t2] = q̃_t · k̃_t2 (reported as S, no mask applied).
// Query t sees every key, or t2 ≤ t when causal; A[t, t2] = S[t, t2] / (Σ_visible S[t, j] + ε)
// for visible t2 and 0 otherwise, ε = kLinearEpsilon; z_t = Σ_visible A[t, t2] v_t2. Rows of A
// sum to 1 only up to ε (exactly 0 for a relu row whose scores are all 0: then z_t = 0 too).
//
// Streaming (A and S not wanted): z_t = (q̃_t · KV) / (q̃_t · ksum + ε) with KV = Σ k̃_t2 v_t2ᵀ
// (d_k × d_v) and ksum = Σ k̃_t2 over the visible keys: O(T · d_k · d_v), no T × T matrix. With
// the mask, KV and ksum are prefix sums: queries go in blocks of kLinearCausalBlock rows; a
// block sees the sums over all earlier blocks, plus its own keys through its small masked
// B × B score matrix (O(T · B · d) more).
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_LINEAR_KERNEL_HPP_
#define AWB_PLUGINS_COMMON_LINEAR_KERNEL_HPP_

#include <string_view>
#include <vector>

#include "common/attention_kernel.hpp"

namespace awb::kernels {

enum class FeatureMap { kEluPlusOne, kRelu };

// The normaliser's ε: a row with no weight (relu's all-zero row) divides 0 by ε, not by 0.
inline constexpr double kLinearEpsilon = 1e-6;
// Queries per block: with the mask a block's own keys go through a B × B matrix, so B trades
// that O(T·B·d) work against the GEMMs' shape; without it blocks only split the KV sums.
inline constexpr Eigen::Index kLinearCausalBlock = 64;
inline constexpr Eigen::Index kLinearBlock = 256;

// φ applied in place to every element of `m`.
template <class M>
void apply_feature_map(M&& m, FeatureMap phi) {
  using Scalar = typename std::decay_t<M>::Scalar;
  if (phi == FeatureMap::kRelu) {
    m = m.cwiseMax(Scalar(0));
  } else {
    // elu(x) + 1 = x + 1 for x > 0, else eˣ: both at once as max(x, 0) + exp(min(x, 0)), which
    // vectorises (a select of the two does not, and the scalar exp took 60 % of the kernel) and
    // never overflows.
    m = (m.array().max(Scalar(0)) + m.array().min(Scalar(0)).exp()).matrix();
  }
}

// Per-instance state of the linear variant: the shared workspace, and the block sums of K̃ᵀV and
// of K̃ (per head and block; with the mask each turns into the sum over the earlier blocks).
template <class Scalar>
struct LinearWorkspace {
  Workspace<Scalar> base;
  RowMatrix<Scalar> kv;    // (h · blocks · d_k) × d_v
  RowMatrix<Scalar> ksum;  // (h · blocks) × d_k
};
struct LinearWorkspaces {
  LinearWorkspace<double> f64;
  LinearWorkspace<float> f32;
  ThreadTeam team;
  template <class Scalar>
  LinearWorkspace<Scalar>& get() {
    if constexpr (std::is_same_v<Scalar, double>)
      return f64;
    else
      return f32;
  }
};

// Forward pass of linear attention. Shapes as in attention_forward (projected, h heads, optional
// W_o). Threads over (head, query block) tasks.
template <class Scalar>
void linear_forward(const Problem<Scalar>& p, Results<Scalar>& r, FeatureMap phi,
                    LinearWorkspaces& workspaces);

#ifndef AWB_KERNELS_INSTANTIATE
extern template void linear_forward<float>(const Problem<float>&, Results<float>&, FeatureMap,
                                           LinearWorkspaces&);
extern template void linear_forward<double>(const Problem<double>&, Results<double>&, FeatureMap,
                                            LinearWorkspaces&);
#endif

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_LINEAR_KERNEL_HPP_
