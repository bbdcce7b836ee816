// capabilities.hpp: what a variant declares, and whether (and how) it can run a given problem.
#ifndef AWB_CORE_PLUGINS_CAPABILITIES_HPP_
#define AWB_CORE_PLUGINS_CAPABILITIES_HPP_

#include <awb/awb_plugin.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "graders/model/problem.hpp"

namespace awb::core {

// Capability names as users read them: "f64 f32 qkv multi-head ...".
std::vector<std::string> capability_names(uint64_t caps);
std::string describe_capabilities(uint64_t caps);
// The bit for one capability name ("multi-head") or an earlier spelling of one ("w_o"), or 0
// for an unknown name.
uint64_t capability_bit(const std::string& name);
// Every name a file may give a capability: the names, then the earlier spellings still read.
std::vector<std::string> capability_spellings();

// Returns why a descriptor's capability set is self-contradictory, or nothing when it is sound.
std::optional<std::string> inconsistent_capabilities(uint64_t caps, uint32_t plugin_minor);

enum class Fit {
  kStrict,       // grading: the problem runs exactly as given, or not at all
  kDemonstrate,  // explore/compare: a variant runs on what it understands of the problem
};

struct Adapted {
  std::optional<ProblemSpec> problem;  // the problem the variant receives; empty: cannot run
  std::string reason;                  // why it cannot run (when problem is empty)
  std::vector<std::string> notes;      // what was dropped or changed to fit (demonstrate mode)
};

// Fits `problem` to a variant with `caps` and `scalar`, e.g. "cannot run: the variant lacks the
// causal capability". In demonstrate mode a parameter-free variant ignores weights and a
// single-head variant takes the first head's columns without W_o.
Adapted adapt(const ProblemSpec& problem, uint64_t caps, Scalar scalar, Fit fit);

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_CAPABILITIES_HPP_
