// reference_attention.hpp: the trusted reference forward pass, plain loops, same contract as a
// plugin.
#ifndef AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_
#define AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_

#include <awb/awb_plugin.h>

namespace awb::reference {

// What the reference reads from a problem, mirroring the bundled variants.
enum class Kind {
  kParameterFree,  // Q = K = V = X; weights ignored; one head
  kProjected,      // Q/K/V projections, h heads, optional W_o; honours problem.causal
};

// Computes `results` for `problem` exactly as awb_plugin.h defines a forward pass: the scalar
// type is problem.scalar, A and S are written only when their data is non-null. Written with
// textbook loops and no Eigen, so it shares no code with the plugins it checks.
// Throws std::invalid_argument when the problem or the result buffers are malformed.
void attention_forward(const awb_problem& problem, awb_results& results, Kind kind);

}  // namespace awb::reference

#endif  // AWB_GRADERS_REFERENCE_REFERENCE_ATTENTION_HPP_
