// report.hpp: graded results as the report writers see them, and the writers themselves.
#ifndef AWB_GRADERS_REPORT_REPORT_HPP_
#define AWB_GRADERS_REPORT_REPORT_HPP_

#include <string>
#include <string_view>
#include <vector>

#include "graders/checks/check.hpp"

namespace awb::grade {

// Where a result came from: enough to tell whether it is still valid.
struct Provenance {
  std::string awb_version;
  std::string exercise_sha256;
  std::string plugin_sha256;
  std::string lockdown;  // "in-process" for trusted plugins; the runner's level otherwise
  // What plugin_sha256 is the sha256 of: "" for the plugin file graded; "folder digest" when no
  // plugin file could be graded and it stands for the submission folder (its *.so files' names
  // and contents, or a source project's build key and outcome). Reports say so.
  std::string plugin_sha256_of;
};

// One subject graded on one exercise.
struct ExerciseReport {
  std::string exercise_id;
  std::string title;
  Provenance provenance;
  std::vector<CheckResult> checks;
  double score = 0;
  double max_score = 0;      // points of the checks that ran (not-run ones do not count)
  std::string not_gradable;  // when set, no check ran: the reason (the plugin did not load, ...)
};

// One subject (a plugin variant, or a submission) graded on several exercises.
struct GradeReport {
  std::string subject;      // "org.awb.qkv:qkv", or a submission's name in a batch
  std::string plugin_path;  // may be empty
  std::vector<ExerciseReport> exercises;
  // Exercises of the default set (no assignment, none named) that are not for this variant, each
  // with the reason: listed once, never graded or counted.
  std::vector<std::pair<std::string, std::string>> not_for_variant{};
  double execution_seconds = 0;
  double score() const;
  double max_score() const;
};

// Who reads the report: a student sees no hidden checks (and no after-due-date ones before the
// due date); an instructor sees everything.
struct View {
  bool instructor = false;
  bool after_due = false;
  bool shows(Visibility v) const {
    return instructor || v == Visibility::kVisible || (v == Visibility::kAfterDueDate && after_due);
  }
};

std::string write_table(const GradeReport& report, const View& view);
std::string write_json(const GradeReport& report, const View& view);
std::string write_junit(const std::vector<GradeReport>& reports, const View& view);
// `leaderboard` names the Gradescope leaderboard columns to add ("score", "percent",
// "exercises_passed"): what the student may see (visible checks, after-due-date ones once
// `view.after_due`), the score and percent times `late_kept` (the late policy's share).
std::string write_gradescope(const GradeReport& report, const View& view,
                             const std::vector<std::string>& leaderboard = {},
                             double late_kept = 1.0);
// A PrairieLearn external grader's results.json: the score as a share in [0, 1] of what the view
// shows; not gradable (with the reasons) when no exercise could be graded.
std::string write_prairielearn(const GradeReport& report, const View& view);
// One row per subject, one column per exercise (numbers only: a not-gradable exercise scores 0),
// then total, max, status ("graded" | "not gradable") and comment (why not, on one line): the
// points the view shows.
std::string write_csv(const std::vector<GradeReport>& reports, const View& view = View{true, true});

// One submission in a course's roster: the subject graded for it and what the gradebook needs.
struct RosterRow {
  std::string submission;  // the folder's name, exactly
  const GradeReport* report = nullptr;
  int late_days = 0;
  double kept = 1.0;         // share of the score a late policy keeps
  std::string status;        // "graded" | "not gradable"
  std::string comment;       // reasons and flags, "; "-separated (written on one line, capped)
  std::string submitted_at;  // "2026-12-15T21:04:00Z", or "" when unknown
  std::string time_source;   // "submitted-at" | "metadata" | "file-mtime" | ""
};
// The roster an LMS imports: one row per submission; numeric columns only (one per exercise id
// in `exercise_ids`, total, max, late_days, final = total × kept), then status, comment,
// submitted_at and time_source. Always the instructor's totals (every check): the view shapes
// only what students read.
std::string write_roster(const std::vector<RosterRow>& rows,
                         const std::vector<std::string>& exercise_ids, double max_points);
// `text` on one line for a CSV cell: its lines joined by " / ", control characters dropped, cut
// to about `cap` bytes (whole characters) with " [...]" when longer.
std::string one_line_comment(std::string_view text, size_t cap = 300);

}  // namespace awb::grade

#endif  // AWB_GRADERS_REPORT_REPORT_HPP_
