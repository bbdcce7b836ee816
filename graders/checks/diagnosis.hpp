// diagnosis.hpp: names a likely mistake from the outputs themselves, in a student's words.
#ifndef AWB_GRADERS_CHECKS_DIAGNOSIS_HPP_
#define AWB_GRADERS_CHECKS_DIAGNOSIS_HPP_

#include <string>

#include "graders/model/run.hpp"

namespace awb::grade {

// Looks at what a layer returned (and, when given, what the reference returned for the same
// input) and says what the numbers suggest: negative weights → dividing by the row sum; columns
// summing to 1 → softmax over the wrong axis; weight on future tokens → no causal mask; ...
// Returns "" when nothing stands out. `causal` is whether the mask was on.
std::string diagnose(const LayerRun& got, const LayerRun* expected, const ProblemSpec& problem);

}  // namespace awb::grade

#endif  // AWB_GRADERS_CHECKS_DIAGNOSIS_HPP_
