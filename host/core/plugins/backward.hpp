// backward.hpp: runs the backward pass of a plugin variant (or the reference) on a host problem:
// the one place gradients are marshalled to and from ABI buffers, whichever session calls.
#ifndef AWB_CORE_PLUGINS_BACKWARD_HPP_
#define AWB_CORE_PLUGINS_BACKWARD_HPP_

#include <cstdint>

#include "core/plugins/forward.hpp"
#include "graders/model/gradients.hpp"
#include "graders/reference/reference_backward.hpp"

namespace awb::core {

// Marshals `problem`, its forward results (`forward`: Z, and A and S where present) and the
// upstream gradients into ABI buffers of `scalar`, calls `fn`, and converts the gradients back.
// Gradient buffers are pre-filled with NaN so an unwritten entry cannot pass as a value.
// Throws awb::Error("run.backward_shape") when dZ or dA does not fit the problem.
LayerGradients run_backward(const RawBackward& fn, const ProblemSpec& problem,
                            const ForwardResult& forward, const BackwardSeed& upstream,
                            Scalar scalar, const ParamBinding& params = {});

// The reference backward matching a variant with these capabilities (see reference_forward).
// Errors surface as awb::Error("reference.invalid").
RawBackward reference_backward(uint64_t capabilities, reference::BackwardVariation variation =
                                                          reference::BackwardVariation::kExact);

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_BACKWARD_HPP_
