// reference_attention.hpp: the trusted reference forward pass, plain loops, same contract as a
// plugin.
#ifndef AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_
#define AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_

#include <awb/awb_plugin.h>

#include <span>

#include "graders/model/variant_kinds.hpp"

namespace awb::reference {

// The parameters the reference of `family` reads from awb_problem::params, declared as a plugin
// declares them (same names, types, defaults, ranges and choices as the bundled variant), so a
// host fills the reference's problem exactly as a plugin's. Empty for softmax. Static storage.
std::span<const awb_param_decl* const> parameters(Family family);

// Computes `results` for `problem` as the reference of `kind` (kVariantKinds): its family's
// rule, with the Q/K/V projections, h heads and W_o when the kind projects (else Q = K = V = X,
// one head); every kind honours problem.causal. Exactly as awb_plugin.h defines a forward pass: the
// scalar type is problem.scalar, A and S are written only when their data is non-null. Written with
// textbook loops and no Eigen, so it shares no code with the plugins it checks.
// Parameters are read from problem.params by name (when struct_size covers them); an absent one
// takes its declared default. Semantics of the research families:
// - kSlidingWindow: S = factor·Q·Kᵀ for every pair (factor = scale × sharpness); query t sees
//   keys t2 with |t − t2| ≤ window (and t2 ≤ t when causal); A = softmax of S over those keys,
//   exactly 0 elsewhere.
// - kLinear: q̃ = φ(factor·q), k̃ = φ(k), φ(x) = elu(x) + 1 or max(x, 0); S[t, t2] = q̃_t · k̃_t2
//   for every pair (no mask); A[t, t2] = S[t, t2] / (Σ_visible S[t, j] + 1e-6) on visible keys
//   (all, or t2 ≤ t when causal), exactly 0 elsewhere.
// Throws std::invalid_argument when the problem or the result buffers are malformed, or a
// parameter is out of its declared range.
void attention_forward(const awb_problem& problem, awb_results& results, VariantKind kind);

}  // namespace awb::reference

#endif  // AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_
