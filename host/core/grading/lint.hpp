// lint.hpp: the exercise self-checks behind `awb lint`: the reference must earn full points,
// and every shipped mutant must lose points somewhere, in every variant kind its mistake can
// occur in (mutation testing for exercises).
#ifndef AWB_CORE_GRADING_LINT_HPP_
#define AWB_CORE_GRADING_LINT_HPP_

#include <array>
#include <filesystem>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "graders/mutants/mistakes.hpp"
#include "graders/report/report.hpp"

namespace awb::core {

// The reference kernels graded on one exercise: a broken exercise is one they do not ace.
grade::ExerciseReport reference_self_check(const Exercise& exercise);

// The folder of the shipped mutants: <build>/mutants or <prefix>/lib/awb/mutants.
std::filesystem::path bundled_mutant_dir();

// One cell of the mutant × kind matrix: how the mutant's variant of one kind fared.
enum class CellState {
  kCaught,         // it lost points on at least one exercise
  kNotCaught,      // it ran on some exercise of the set and lost no point: an escape
  kNotCovered,     // no exercise of the set can run that kind at all (every check not-run)
  kNotApplicable,  // the mistake cannot occur in that kind (graders/mutants/mistakes.hpp)
};

struct LintCell {
  CellState state = CellState::kNotCovered;
  std::vector<std::string> exercises;  // the exercises it lost points on, in set order
};

struct MutantOutcome {
  std::string mutant;  // the mistake's name, e.g. "divide-by-sum" (else the file stem)
  std::array<LintCell, mutants::kKindCount> cells;  // in the order of mutants::kKindIds
  // The first check that caught it, and its diagnosis: what a student would read.
  struct Catch {
    std::string kind, exercise, check, summary, diagnosis;
  };
  std::vector<Catch> caught_by;  // one per (kind, exercise) that caught it
  std::string load_error;        // when the mutant did not load
};

struct Discrimination {
  std::vector<MutantOutcome> mutants;
  std::vector<std::string> uncatchable_exercises;  // exercises no mutant loses points on
  // Applicable (mutant, kind) pairs the set does not catch: kNotCaught, or kNotCovered (a kind
  // the set has no exercise for). Over a whole exercise set each is a failure.
  int escapes() const;
  int count(CellState state) const;  // cells in that state
};

// Grades every variant (one per kind) of every mutant in `mutant_dir`, loaded in-process (the
// mutants ship with awb), on every exercise, and fills the mutant × kind matrix.
Discrimination discrimination_check(const std::vector<Exercise>& exercises,
                                    const std::filesystem::path& mutant_dir);

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_LINT_HPP_
