// problem_binding.hpp: awb.Problem as C++ sees it: a run's input and where it came from.
#ifndef AWB_PYTHON_PROBLEM_BINDING_HPP_
#define AWB_PYTHON_PROBLEM_BINDING_HPP_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "graders/model/run.hpp"

namespace awb::python {

struct Problem {
  RunInput input;
  std::string label;        // "example journey", "exercise journey", a file, "arrays"
  std::string exercise_id;  // set for an exercise case
  std::string case_id;
  uint64_t reference_capabilities = 0;  // the exercise's; 0: the full reference
};

// The exercise `id` of the folders or files `exercise_dirs` (the bundled exercises when none);
// throws Error("exercise.not_found") naming the closest id.
core::Exercise find_exercise(const std::string& id,
                             const std::optional<std::vector<std::string>>& exercise_dirs);
// One case of `exercise` (its first when `case_id` is empty), as `awb run --exercise` runs it.
Problem exercise_problem(const core::Exercise& exercise, const std::string& case_id);

}  // namespace awb::python

#endif  // AWB_PYTHON_PROBLEM_BINDING_HPP_
