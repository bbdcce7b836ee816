// grading.hpp: grades a subject on an exercise (every check, its points, and the total), and a
// variant on a list of exercises in one session with the limits each exercise sets.
#ifndef AWB_CORE_GRADING_GRADING_HPP_
#define AWB_CORE_GRADING_GRADING_HPP_

#include <optional>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/variant_session.hpp"
#include "graders/checks/check.hpp"
#include "graders/report/report.hpp"

namespace awb::core {

// Command-line overrides of an exercise's limits.
struct LimitOverrides {
  std::optional<double> cpu_seconds, wall_seconds;
  std::optional<int64_t> memory_mb;
};

struct GradeOptions {
  Scalar scalar = Scalar::kF64;
  int strictness = 2;      // 1: outputs only; 2: also reruns and perturbations
  SessionOptions session;  // how untrusted plugins are isolated
  bool trust_all = false;  // --trusted: load every plugin in-process
  LimitOverrides limits;
  // Under an assignment every check counts: one the subject cannot run fails with 0 points and
  // the reason, so every submission has the same maximum.
  bool every_check_counts = false;
  uint64_t subject_capabilities = 0;  // what the graded variant declares (names what it lacks)
  // The plugin file's SHA-256 in each report's provenance. Lint, which shows no provenance and
  // grades each shipped mutant once per kind, leaves it out: hashing was most of its time.
  bool hash_plugin = true;
};

// The session for grading `exercises`: the runner's address space is the largest the exercises
// allow (or the override).
SessionOptions session_options_for(const std::vector<const Exercise*>& exercises,
                                   const GradeOptions& options);
// Applies `exercise`'s per-run CPU and wall limits (or the overrides) to `session`.
void apply_exercise_limits(VariantSession& session, const Exercise& exercise,
                           const GradeOptions& options);
// Voids a report after the session found a fault only at its end (a forged frame): every check
// becomes an error with `reason`, and no point stands.
void void_report(grade::ExerciseReport& report, const std::string& reason);

// Runs every check of `exercise` on `subject`, judging against the exercise's reference.
// Checks on the same case and parameters share their runs. Never throws for a subject fault:
// a fault becomes that check's error verdict.
// The report's provenance carries the exercise hash; the caller fills in the rest.
grade::ExerciseReport grade_exercise(const Exercise& exercise, Subject& subject,
                                     const GradeOptions& options = {});

// The report of an exercise no check could run on (the plugin did not load, ...): it scores 0
// of the exercise's points, with the reason.
grade::ExerciseReport not_gradable_report(const Exercise& exercise, const std::string& reason);

// Why `exercise` is left out of the default set (no assignment, no exercise named) for `variant`:
// it belongs to another family (a research exercise whose parameters the variant does not
// declare, a softmax exercise for a research variant), or the variant can run none of its
// problem at `scalar` (a capability it lacks). Nothing when the exercise is for the variant.
std::optional<std::string> not_for_variant(const Exercise& exercise, const VariantDesc& variant,
                                           Scalar scalar);

// Grades a loaded variant on each exercise, in one session (in-process for trusted plugins, one
// runner otherwise); the report carries the provenance (awb version, exercise and plugin hashes,
// the isolation level). A variant that cannot be set up gets every exercise marked not
// gradable with the reason.
grade::GradeReport grade_variant(const VariantRef& variant,
                                 const std::vector<const Exercise*>& exercises,
                                 const GradeOptions& options = {});

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_GRADING_HPP_
