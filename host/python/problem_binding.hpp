// problem_binding.hpp: awb.Problem as C++ sees it: a run's input and where it came from.
#ifndef AWB_PYTHON_PROBLEM_BINDING_HPP_
#define AWB_PYTHON_PROBLEM_BINDING_HPP_

#include <cstdint>
#include <string>

#include "graders/model/run.hpp"

namespace awb::python {

struct Problem {
  RunInput input;
  std::string label;        // "example journey", "exercise journey", a file, "arrays"
  std::string exercise_id;  // set for an exercise case
  std::string case_id;
  uint64_t reference_capabilities = 0;  // the exercise's; 0: the full reference
};

}  // namespace awb::python

#endif  // AWB_PYTHON_PROBLEM_BINDING_HPP_
