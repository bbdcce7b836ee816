// reference_forward.cpp: adapts graders/reference to RawForward.
#include "core/plugins/reference_forward.hpp"

#include <algorithm>
#include <stdexcept>

#include "graders/model/error.hpp"

namespace awb::core {

ParamBinding reference_params(Family family) {
  const auto decls = reference::parameters(family);
  return {to_decls(decls.data(), decls.size()),
          std::string("the ") + to_string(family) + " reference", false};
}

Family declared_family(const std::vector<ParamDecl>& declared) {
  for (const auto& [family, name] : kFamilyNames) {
    if (family == Family::kSoftmax) continue;
    const std::vector<ParamDecl> needed = reference_params(family).decls;
    const bool all = std::all_of(needed.begin(), needed.end(), [&](const ParamDecl& n) {
      return std::any_of(declared.begin(), declared.end(),
                         [&](const ParamDecl& d) { return d.name == n.name; });
    });
    if (!needed.empty() && all) return family;
  }
  return Family::kSoftmax;
}

RawForward reference_forward(uint64_t capabilities, Family family) {
  const auto kind = reference_kind(family, (capabilities & AWB_CAP_QKV) != 0);
  return [kind](const awb_problem& p, awb_results& r) {
    try {
      reference::attention_forward(p, r, kind);
    } catch (const std::invalid_argument& e) {
      throw Error("reference.invalid", e.what());
    }
  };
}

}  // namespace awb::core
