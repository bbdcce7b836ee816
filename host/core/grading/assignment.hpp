// assignment.hpp: an assignment (exercises/FORMAT.md, "Assignments"): the exercises a course grades
// together, which variant of a submission is graded, what it must support, and so which checks
// count. Every submission graded under one assignment has the same maximum.
#ifndef AWB_CORE_GRADING_ASSIGNMENT_HPP_
#define AWB_CORE_GRADING_ASSIGNMENT_HPP_

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/grading/grading.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

// How a late submission is scored: `none` keeps its score (the roster still says how late it
// is); otherwise each started day after the due date takes `percent_per_day` of the score, and
// past `max_days` the score is 0.
struct LatePolicy {
  double percent_per_day = 0;  // 0: policy `none`
  int max_days = 0;
  bool none() const { return percent_per_day <= 0; }
};

// One exercise as the assignment grades it: only the checks it requires, their points scaled
// so that they add up to `points`.
struct AssignedExercise {
  Exercise exercise;  // checks filtered and re-weighted; sha256 is still the file's
  double points = 0;  // what the exercise is worth here
  int left_out = 0;   // checks of the file the assignment does not require
  // The entry's `file:` as the assignment wrote it (relative to the assignment, or absolute);
  // empty for an exercise named by id.
  std::string file_entry;
};

struct Assignment {
  std::filesystem::path file;
  std::string sha256;  // of the file's bytes: grading options that change results
  std::string id, title;
  // Which variant of a submission is graded: by id ("qkv" or "plugin-id:qkv"), else the first
  // declaring every capability in `variant_capabilities`, else the submission's first variant.
  std::string variant_id;
  uint64_t variant_capabilities = 0;
  // What a submission must declare: a check needing anything else is left out.
  uint64_t requires_capabilities = 0;
  bool trainable = false;        // gradient checks count (the plugin must export a backward pass)
  Scalar scalar = Scalar::kF64;  // checks are graded in f64 unless only f32 is required
  std::vector<AssignedExercise> exercises;
  std::optional<std::time_t> due;  // UTC
  LatePolicy late;
  std::vector<std::string> leaderboard;  // Gradescope leaderboard columns: "score", ...

  double max_points() const;
  std::vector<const Exercise*> exercise_list() const;
};

// The capabilities a check runs with (qkv, multi-head, w_o, causal, the scalar type it is graded
// in) and whether it needs a backward pass.
struct CheckNeeds {
  uint64_t capabilities = 0;
  bool backward = false;
};
CheckNeeds check_needs(const Exercise& exercise, const grade::CheckSpec& check, Scalar scalar);

struct AssignmentLoad {
  std::optional<Assignment> assignment;
  std::vector<Error> errors;  // every problem of the file, at file:line:column
};
// Reads an assignment file. Exercise ids are looked up in `available` (the exercises loaded
// from the bundled folder or --exercises); `file:` entries are loaded relative to the file.
AssignmentLoad load_assignment(const std::filesystem::path& file,
                               const std::vector<Exercise>& available);

// The variant of a submission the assignment grades, and the others it leaves out.
struct VariantChoice {
  std::optional<VariantRef> chosen;
  std::vector<std::string> others;  // "plugin-id:variant-id" of every variant not graded
  std::string note;                 // why the chosen one was taken when it is a fallback
};
VariantChoice choose_variant(const Assignment& assignment, const std::vector<VariantRef>& found);

// `options` as a submission's variant is graded under `assignment`: every check counts (one the
// variant cannot run fails with its reason), in the assignment's scalar type, against what the
// variant declares. The CLI, batches and the GUI grade through this one rule.
GradeOptions under_assignment(const Assignment& assignment, const VariantDesc* variant,
                              GradeOptions options);

// Whole days late (a started day counts) and the share of the score kept.
struct Lateness {
  int days = 0;
  double kept = 1.0;
};
Lateness lateness(const Assignment& assignment, std::time_t submitted);
// The same against `due` (a student's extended due date; nothing: never late).
Lateness lateness(const Assignment& assignment, std::time_t submitted,
                  std::optional<std::time_t> due);

// "2026-12-15T23:59:00Z" (or "2026-12-15": the end of that day, UTC) as a time; nothing when
// the text is not such a date.
std::optional<std::time_t> parse_utc_time(const std::string& text);
std::string format_utc_time(std::time_t t);

// The bundled example assignments: <prefix>/share/awb/exercises/assignments, or the source
// tree's exercises/assignments.
std::filesystem::path bundled_assignment_dir();
// What --assignment names: a file, or else the bundled assignment of that name ("qkv"). Throws
// awb::Error("assignment.not_found") when it is neither.
std::filesystem::path find_assignment(const std::string& spec);

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_ASSIGNMENT_HPP_
