// report.hpp: graded results as the report writers see them, and the writers themselves.
#ifndef AWB_GRADERS_REPORT_REPORT_HPP_
#define AWB_GRADERS_REPORT_REPORT_HPP_

#include <string>
#include <vector>

#include "checks/check.hpp"

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
std::string write_gradescope(const GradeReport& report, const View& view);
// One row per subject, one column per exercise, then the total.
std::string write_csv(const std::vector<GradeReport>& reports);

}  // namespace awb::grade

#endif  // AWB_GRADERS_REPORT_REPORT_HPP_
