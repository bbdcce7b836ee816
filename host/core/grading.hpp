// grading.hpp: grades one subject on one exercise: every check, its points, and the total.
#ifndef AWB_CORE_GRADING_HPP_
#define AWB_CORE_GRADING_HPP_

#include <string>
#include <vector>

#include "checks/check.hpp"
#include "core/exercise.hpp"

namespace awb::core {

struct GradeOptions {
  Scalar scalar = Scalar::kF64;
  int strictness = 2;  // 1: outputs only; 2: also reruns and perturbations
};

struct ExerciseGrade {
  std::string exercise_id;
  std::vector<grade::CheckResult> checks;
  double score = 0;
  double max_score = 0;  // counts only checks that ran or could have run (not-run excluded)
};

// Runs every check of `exercise` on `subject`, judging against the exercise's reference.
// Checks on the same case and parameters share their runs. Never throws for a subject fault:
// a fault becomes that check's error verdict.
ExerciseGrade grade_exercise(const Exercise& exercise, Subject& subject,
                             const GradeOptions& options = {});

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_HPP_
