// reference_forward.hpp: the trusted reference kernels behind the same call shape as a plugin.
#ifndef AWB_CORE_PLUGINS_REFERENCE_FORWARD_HPP_
#define AWB_CORE_PLUGINS_REFERENCE_FORWARD_HPP_

#include <cstdint>

#include "core/plugins/forward.hpp"
#include "graders/reference/reference_attention.hpp"

namespace awb::core {

// The reference kernel of a problem family for a variant with these capabilities (the family's
// kind that projects, or not, as the variant does: reference_kind in variant_kinds.hpp) behind
// the plugin call shape. Errors surface as awb::Error("reference.invalid").
RawForward reference_forward(uint64_t capabilities, Family family = Family::kSoftmax);

// How the reference of `family` takes a problem's parameter values: its own declarations (those
// of the bundled variant of the family), values meant for a variant it does not read ignored.
ParamBinding reference_params(Family family);

// The family a variant computes, judged from what it declares: a family with reference parameters
// that it all declares (`window`: sliding-window; `feature_map`: linear), else softmax.
Family declared_family(const std::vector<ParamDecl>& declared);

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_REFERENCE_FORWARD_HPP_
