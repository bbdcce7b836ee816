// reference_forward.hpp: the trusted reference kernels behind the same call shape as a plugin.
#ifndef AWB_CORE_PLUGINS_REFERENCE_FORWARD_HPP_
#define AWB_CORE_PLUGINS_REFERENCE_FORWARD_HPP_

#include <cstdint>

#include "core/plugins/forward.hpp"

namespace awb::core {

// The reference that matches a variant with these capabilities (parameter-free without QKV,
// projected attention with it). Errors surface as awb::Error("reference.invalid").
RawForward reference_forward(uint64_t capabilities);

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_REFERENCE_FORWARD_HPP_
