// gradescope.cpp: results.json for a Gradescope autograder (one test per check).
//
// Format: Gradescope autograder documentation, "Autograder Specifications", section "Output
// format" (results.json): top-level score, execution_time (seconds), output, visibility,
// stdout_visibility, tests[]; each test score, max_score, status ("passed" | "failed"), name,
// number, output, output_format ("text" | "html" | "simple_format" | "md" | "ansi"), tags,
// visibility ("hidden" | "after_due_date" | "after_published" | "visible").
// tests/schema/gradescope_results.schema.json encodes that format; the tests validate against it.
//
// The view does not change the tests. Gradescope, not awb, decides what a student sees: a
// hidden check becomes a test with visibility "hidden" (never shown to students), an
// after-due-date one "after_due_date" (Gradescope applies its own due date). Leaving such
// tests out would also hide them from the instructor on Gradescope, and the course's own
// setting for when results are published still applies on top. The top-level output is read
// by the student, so it counts only visible checks; there is no top-level score (it would
// override the tests' sum and show hidden points in it). Checks that did not run are no
// tests at all. The leaderboard, which every student reads, shows what a student may see
// (the view's after_due decides the after-due-date checks) with the late policy applied.
//
// Names and outputs are put in front of people, so they go through clean_text (control
// characters dropped, invalid UTF-8 replaced); JSON escaping alone would keep the controls.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "graders/report/format.hpp"
#include "graders/report/report.hpp"

namespace awb::grade {
namespace {

using Json = nlohmann::ordered_json;

// Our visibility names are Gradescope's by design ("visible", "hidden", "after_due_date").
const char* gradescope_visibility(Visibility v) { return to_string(v); }

// What the student reads under the test. Gradescope knows only passed and failed, so the
// real status leads the text whenever it is something else.
std::string test_output(const CheckResult& c) {
  return std::string(status_lead(c.status)) + c.summary + check_feedback(c);
}

Json check_test(const ExerciseReport& e, const CheckResult& c, const std::string& number) {
  Json t;
  t["name"] = clean_text(e.exercise_id + ": " + c.id, false);
  t["number"] = number;
  t["score"] = counts(c) ? finite(c.points) : 0.0;
  // A check that did not run must not lower the student's percentage.
  t["max_score"] = counts(c) ? finite(c.max_points) : 0.0;
  t["status"] = c.status == Status::kPassed ? "passed" : "failed";
  t["output"] = clean_text(test_output(c), true);
  t["output_format"] = "text";
  t["tags"] = Json::array({e.exercise_id, to_string(c.kind)});
  if (!c.name.empty() && c.name != to_string(c.kind)) t["tags"].push_back(c.name);
  t["visibility"] = gradescope_visibility(c.visibility);
  return t;
}

// An exercise that could not be graded is one failed test, so the student sees why.
Json not_gradable_test(const ExerciseReport& e, const std::string& number) {
  Json t;
  t["name"] = clean_text(e.exercise_id + ": not gradable", false);
  t["number"] = number;
  t["score"] = 0.0;
  t["max_score"] = finite(e.max_score);
  t["status"] = "failed";
  t["output"] = clean_text("Not gradable: " + e.not_gradable, true);
  t["output_format"] = "text";
  t["tags"] = Json::array({e.exercise_id, "not_gradable"});
  t["visibility"] = "visible";
  return t;
}

// The leaderboard entries an assignment asks for (Gradescope's "leaderboard" array). Every
// student reads the leaderboard, so it holds what a student may see of each entry: the visible
// checks (after-due-date ones once due), never hidden points; and the late policy's share.
Json leaderboard(const GradeReport& r, const std::vector<std::string>& columns, const View& student,
                 double late_kept) {
  // A not-gradable exercise holds no checks to leave out: it counts nothing of its maximum.
  double score = 0, max = 0;
  int passed = 0;
  for (const auto& e : r.exercises) {
    if (!e.not_gradable.empty()) continue;
    const ShownTotals t = shown_totals(e, student);
    score += t.score;
    max += t.max_score;
    if (t.max_score > 0 && t.score >= t.max_score - 1e-9) ++passed;
  }
  const double kept = std::clamp(finite(late_kept), 0.0, 1.0);
  Json out = Json::array();
  for (const auto& name : columns) {
    double value = 0;
    if (name == "score") {
      value = score * kept;
    } else if (name == "percent") {
      value = max > 0 ? 100.0 * score * kept / max : 0.0;
    } else if (name == "exercises_passed") {
      value = passed;
    } else {
      continue;
    }
    out.push_back(Json{{"name", name}, {"value", finite(value)}, {"order", "desc"}});
  }
  return out;
}

}  // namespace

std::string write_gradescope(const GradeReport& report, const View& view,
                             const std::vector<std::string>& leaderboard_columns,
                             double late_kept) {
  Json j;
  Json tests = Json::array();
  for (size_t i = 0; i < report.exercises.size(); ++i) {
    const ExerciseReport& e = report.exercises[i];
    const std::string prefix = std::to_string(i + 1) + ".";
    if (!e.not_gradable.empty()) {
      tests.push_back(not_gradable_test(e, prefix + "1"));
      continue;
    }
    // Only checks that count are tests: a not-run check would show as a red failure.
    int number = 0;
    for (const auto& c : e.checks)
      if (counts(c)) tests.push_back(check_test(e, c, prefix + std::to_string(++number)));
  }
  // No top-level score: Gradescope then adds up the tests' scores, each under its own
  // visibility, and a hidden test's points never show in a total the student reads.
  j["execution_time"] = std::llround(std::fmax(0.0, finite(report.execution_seconds)));
  // The top-level text is the student's: per exercise the points of what they may see.
  j["output"] = clean_text(grade_summary(report, View{}), true);
  j["output_format"] = "text";
  j["visibility"] = "visible";
  // run_autograder's stdout may hold instructor-only text (a table in the instructor view).
  j["stdout_visibility"] = "hidden";
  j["tests"] = std::move(tests);
  if (!leaderboard_columns.empty())
    j["leaderboard"] =
        leaderboard(report, leaderboard_columns, View{false, view.after_due}, late_kept);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace awb::grade
