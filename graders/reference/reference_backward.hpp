// reference_backward.hpp: the trusted reference backward pass, plain loops, same contract as the
// plugins' "org.awb.backward/1" extension.
#ifndef AWB_GRADERS_REFERENCE_REFERENCE_BACKWARD_HPP_
#define AWB_GRADERS_REFERENCE_REFERENCE_BACKWARD_HPP_

#include <awb/awb_plugin.h>

#include "graders/reference/reference_attention.hpp"

namespace awb::reference {

// The exact backward pass, or one with a classic mistake. The mistaken versions are hypotheses a
// diagnosis tests a plugin's gradients against ("your gradients are what you get when ...");
// grading always judges against kExact.
enum class BackwardVariation {
  kExact,
  kNoSoftmaxCorrection,  // dS = A ∘ dA, without the −A·(A·dA) term
  kNoScale,              // the 1/sqrt(d_k) left out of the backward: weights recomputed from
                         // unscaled scores, and no scale on dQ and dK
  kNoCausalMask,         // the weights recomputed without the causal mask
};

// Writes ∂L/∂X and ∂L/∂W (for each weight the problem has) into `grads`, for L with ∂L/∂Z = dz
// and, when `da` is non-null with data, ∂L/∂A = da. Recomputes the forward activations itself.
// Throws std::invalid_argument when the problem or a buffer is malformed.
void attention_backward(const awb_problem& problem, const awb_tensor& dz, const awb_tensor* da,
                        awb_gradients& grads, VariantKind kind,
                        BackwardVariation variation = BackwardVariation::kExact);

// What a correct f32 backward may differ from the exact gradients by, entry by entry, whatever
// the order of its sums and whether it fuses multiply-adds: the first-order rounding bound
// γ_n·M (Higham, Accuracy and Stability of Numerical Algorithms, 2nd ed., §3.1: a sum of n terms
// computed in any order errs by at most γ_n = n·u / (1 − n·u) times the sum of their absolute
// values), with M each entry's sum of absolute values through the whole pass, n the longest chain
// of roundings to it, and the weights' own error from their scores' rounding added. `problem`
// and the buffers are f64; `bounds` is shaped as the gradients; u is the unit roundoff (2⁻²⁴ for
// f32).
void attention_backward_rounding_bound(const awb_problem& problem, const awb_tensor& dz,
                                       const awb_tensor* da, awb_gradients& bounds,
                                       VariantKind kind, double unit_roundoff);

}  // namespace awb::reference

#endif  // AWB_GRADERS_REFERENCE_REFERENCE_BACKWARD_HPP_
