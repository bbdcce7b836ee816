// reference_attention.hpp: the trusted reference forward pass, plain loops, same contract as a
// plugin.
#ifndef AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_
#define AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_

#include <awb/awb_plugin.h>

#include <span>

namespace awb::reference {

// What the reference reads from a problem, mirroring the bundled variants.
enum class Kind {
  kParameterFree,  // Q = K = V = X; weights ignored; one head
  kProjected,      // Q/K/V projections, h heads, optional W_o; honours problem.causal
  // Both below: projected as kProjected (h heads, optional W_o), honouring problem.causal.
  kSlidingWindow,  // softmax over the keys t2 with |t - t2| <= window (parameter "window")
  kLinear,         // linear attention, feature map phi (parameter "feature_map": elu+1 | relu)
};

// The parameters the reference of `kind` reads from awb_problem::params, declared as a plugin
// declares them (same names, types, defaults, ranges and choices as the bundled variant), so a
// host fills the reference's problem exactly as a plugin's. Empty for the softmax kinds.
// Static storage.
std::span<const awb_param_decl* const> parameters(Kind kind);

// Computes `results` for `problem` exactly as awb_plugin.h defines a forward pass: the scalar
// type is problem.scalar, A and S are written only when their data is non-null. Written with
// textbook loops and no Eigen, so it shares no code with the plugins it checks.
// Parameters are read from problem.params by name (when struct_size covers them); an absent one
// takes its declared default. Semantics of the research kinds:
// - kSlidingWindow: S = factor·Q·Kᵀ for every pair (factor = scale × sharpness); query t sees
//   keys t2 with |t − t2| ≤ window (and t2 ≤ t when causal); A = softmax of S over those keys,
//   exactly 0 elsewhere.
// - kLinear: q̃ = φ(factor·q), k̃ = φ(k), φ(x) = elu(x) + 1 or max(x, 0); S[t, t2] = q̃_t · k̃_t2
//   for every pair (no mask); A[t, t2] = S[t, t2] / (Σ_visible S[t, j] + 1e-6) on visible keys
//   (all, or t2 ≤ t when causal), exactly 0 elsewhere.
// Throws std::invalid_argument when the problem or the result buffers are malformed, or a
// parameter is out of its declared range.
void attention_forward(const awb_problem& problem, awb_results& results, Kind kind);

}  // namespace awb::reference

#endif  // AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_
