// lint.hpp: the exercise self-checks behind `awb lint`: the reference must earn full points,
// and every shipped mutant must lose points somewhere (mutation testing for exercises).
#ifndef AWB_CORE_LINT_HPP_
#define AWB_CORE_LINT_HPP_

#include <filesystem>
#include <string>
#include <vector>

#include "core/exercise.hpp"
#include "report/report.hpp"

namespace awb::core {

// The reference kernels graded on one exercise: a broken exercise is one they do not ace.
grade::ExerciseReport reference_self_check(const Exercise& exercise);

// The folder of the shipped mutants: <build>/mutants or <prefix>/lib/awb/mutants.
std::filesystem::path bundled_mutant_dir();

struct MutantOutcome {
  std::string mutant;  // file stem, e.g. "mutant_divide_by_sum"
  // Per exercise it lost points on: the exercise id, and the first failed check's id,
  // summary and diagnosis.
  struct Catch {
    std::string exercise, check, summary, diagnosis;
  };
  std::vector<Catch> caught_by;
  std::string load_error;  // when the mutant did not load
};

struct Discrimination {
  std::vector<MutantOutcome> mutants;
  std::vector<std::string> uncatchable_exercises;  // exercises no mutant loses points on
};

// Grades every variant of every mutant in `mutant_dir` on every exercise.
Discrimination discrimination_check(const std::vector<Exercise>& exercises,
                                    const std::filesystem::path& mutant_dir);

}  // namespace awb::core

#endif  // AWB_CORE_LINT_HPP_
