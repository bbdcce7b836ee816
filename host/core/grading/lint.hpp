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
#include "core/grading/assignment.hpp"
#include "core/grading/grading.hpp"
#include "graders/mutants/mistakes.hpp"
#include "graders/report/report.hpp"

namespace awb::core {

// The reference kernels graded on one exercise (under `options`: an assignment's scalar type):
// a broken exercise is one they do not ace.
grade::ExerciseReport reference_self_check(const Exercise& exercise,
                                           const GradeOptions& options = {});

// The folder of the shipped mutants: <build>/mutants or <prefix>/lib/awb/mutants.
std::filesystem::path bundled_mutant_dir();

// One cell of the mutant × kind matrix: how the mutant's variant of one kind fared.
enum class CellState {
  kCaught,         // it lost points on at least one exercise
  kNotCaught,      // the kind is linted and no exercise caught it: an escape
  kNotCovered,     // the kind is not linted: the set has no exercise of it, or the assignment
                   // does not grade it
  kNotApplicable,  // the mistake cannot occur in that kind (graders/mutants/mistakes.hpp), or it
                   // is one of the backward pass and no exercise checks a gradient
};

// When a student with the mistake first sees a check that catches it in the student view.
enum class Seen {
  kNow,       // a visible check catches it
  kAfterDue,  // only after_due_date checks: full marks in the student view until the due date
  kNever,     // only hidden checks: the student view shows full marks, and never more
};

struct LintCell {
  CellState state = CellState::kNotCovered;
  std::vector<std::string> exercises;  // the exercises it lost points on, in set order
  Seen seen = Seen::kNow;              // when caught: through the most visible check that did
  std::vector<std::string> checks;     // "exercise/check" of every check that cost it points
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
  unsigned kinds = 0;  // the kinds linted (mutants::kind_bit): the others' cells are kNotCovered
  std::vector<std::string> uncatchable_exercises;  // exercises no mutant loses points on
  // Applicable (mutant, kind) pairs of a linted kind that no exercise catches (kNotCaught). Over
  // a whole exercise set, or under an assignment, each is a failure.
  int escapes() const;
  int count(CellState state) const;  // cells in that state
};

// What the matrix grades: the exercises, and the kinds it lints.
struct LintScope {
  std::vector<const Exercise*> exercises;
  // The kinds (mutants::kind_bit) linted, when no assignment says: a pair escapes only in a
  // kind the set has exercises of, so a folder of Q/K/V exercises says nothing of the others.
  unsigned kinds = mutants::kAllKinds;
  // Grade as the assignment grades (its checks and points, its scalar type, every check
  // counting), only the kinds it grades (assignment_kinds); `exercises` are its own.
  const Assignment* assignment = nullptr;
};

// The kinds (mutants::kind_bit) the exercises declare in `variant.kind`.
unsigned declared_kinds(const std::vector<const Exercise*>& exercises);

// The kinds an assignment grades, given each kind's capabilities (0: no variant of that kind):
// those its `variant:` would pick (a variant id that is no kind's picks by capabilities alone)
// that can run every check it counts, and of those the narrowest: a kind whose capabilities
// another's include is left out (a multi-head variant adds nothing a Q/K/V assignment grades),
// and a causal-only kind is narrower than its twin that also runs unmasked.
unsigned assignment_kinds(const Assignment& assignment,
                          const std::array<uint64_t, mutants::kKindCount>& kind_capabilities);

// Grades every variant (one per kind linted) of every mutant in `mutant_dir`, loaded in-process
// (the mutants ship with awb), on every exercise of the scope, and fills the mutant × kind matrix.
Discrimination discrimination_check(const LintScope& scope,
                                    const std::filesystem::path& mutant_dir);
// The same over a set of exercises, linting the kinds they declare.
Discrimination discrimination_check(const std::vector<Exercise>& exercises,
                                    const std::filesystem::path& mutant_dir);

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_LINT_HPP_
