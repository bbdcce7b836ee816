// report.hpp: graded results as the report writers see them, and the writers themselves.
#ifndef AWB_GRADERS_REPORT_REPORT_HPP_
#define AWB_GRADERS_REPORT_REPORT_HPP_

#include <string>
#include <vector>

#include "graders/checks/check.hpp"

namespace awb::grade {

// Where a result came from: enough to tell whether it is still valid.
struct Provenance {
  std::string awb_version;
  std::string exercise_sha256;
  std::string plugin_sha256;
  std::string lockdown;  // "in-process" for trusted plugins; the runner's level otherwise
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
// "exercises_passed").
std::string write_gradescope(const GradeReport& report, const View& view,
                             const std::vector<std::string>& leaderboard = {});
// A PrairieLearn external grader's results.json: the score as a share in [0, 1] of what the view
// shows; not gradable (with the reasons) when no exercise could be graded.
std::string write_prairielearn(const GradeReport& report, const View& view);
// One row per subject, one column per exercise, then the total: the points the view shows.
std::string write_csv(const std::vector<GradeReport>& reports, const View& view = View{true, true});

// One submission in a course's roster: the subject graded for it and what the gradebook needs.
struct RosterRow {
  std::string submission;  // the folder's name, exactly
  const GradeReport* report = nullptr;
  int late_days = 0;
  double kept = 1.0;    // share of the score a late policy keeps
  std::string status;   // "graded" | "not gradable"
  std::string comment;  // reasons and flags, "; "-separated
};
// The roster an LMS imports: one row per submission; numeric columns only (one per exercise id
// in `exercise_ids`, total, max, late_days, final = total × kept), then status and comment.
std::string write_roster(const std::vector<RosterRow>& rows,
                         const std::vector<std::string>& exercise_ids, double max_points,
                         const View& view);

}  // namespace awb::grade

#endif  // AWB_GRADERS_REPORT_REPORT_HPP_
