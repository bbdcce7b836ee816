// grading.hpp: grades one subject on one exercise: every check, its points, and the total.
#ifndef AWB_CORE_GRADING_HPP_
#define AWB_CORE_GRADING_HPP_

#include <string>
#include <vector>

#include "checks/check.hpp"
#include "core/exercise.hpp"
#include "core/plugin_loader.hpp"
#include "report/report.hpp"

namespace awb::core {

struct GradeOptions {
  Scalar scalar = Scalar::kF64;
  int strictness = 2;  // 1: outputs only; 2: also reruns and perturbations
};

// Runs every check of `exercise` on `subject`, judging against the exercise's reference.
// Checks on the same case and parameters share their runs. Never throws for a subject fault:
// a fault becomes that check's error verdict.
// The report's provenance carries the exercise hash; the caller fills in the rest.
grade::ExerciseReport grade_exercise(const Exercise& exercise, Subject& subject,
                                     const GradeOptions& options = {});

// The report of an exercise no check could run on (the plugin did not load, ...): it scores 0
// of the exercise's points, with the reason.
grade::ExerciseReport not_gradable_report(const Exercise& exercise, const std::string& reason);

// Grades a loaded variant (in-process) on each exercise; the report carries the provenance
// (awb version, exercise and plugin hashes, "in-process"). A variant that cannot be
// instantiated gets every exercise marked not gradable with the reason.
grade::GradeReport grade_variant(const VariantRef& variant,
                                 const std::vector<const Exercise*>& exercises,
                                 const GradeOptions& options = {});

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_HPP_
