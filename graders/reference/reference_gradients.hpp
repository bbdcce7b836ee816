// reference_gradients.hpp: the reference forward and backward on host matrices, for checks that
// need the trusted numbers without a plugin's call shape (gradient checks, finite differences).
#ifndef AWB_GRADERS_REFERENCE_REFERENCE_GRADIENTS_HPP_
#define AWB_GRADERS_REFERENCE_REFERENCE_GRADIENTS_HPP_

#include "graders/model/gradients.hpp"
#include "graders/model/problem.hpp"
#include "graders/model/result.hpp"
#include "graders/reference/reference_backward.hpp"

namespace awb::reference {

// The problem exactly as given: projected when it has W_q, W_k, W_v, parameter-free otherwise.
// The forward keeps A and S. Throws std::invalid_argument for a malformed problem.
ForwardResult forward_of(const ProblemSpec& problem, Scalar scalar);
LayerGradients gradients_of(const ProblemSpec& problem, const BackwardSeed& upstream, Scalar scalar,
                            BackwardVariation variation = BackwardVariation::kExact);
// Per entry, what an f32 backward may err by from the exact gradients whatever its order of
// evaluation (attention_backward_rounding_bound, u = 2⁻²⁴).
LayerGradients f32_rounding_bounds(const ProblemSpec& problem, const BackwardSeed& upstream);

}  // namespace awb::reference

#endif  // AWB_GRADERS_REFERENCE_REFERENCE_GRADIENTS_HPP_
