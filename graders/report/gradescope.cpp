// gradescope.cpp: results.json for a Gradescope autograder (one test per check).
//
// Format: Gradescope autograder documentation, "Autograder Specifications", section "Output
// format" (results.json): top-level score, execution_time (seconds), output, visibility,
// stdout_visibility, tests[]; each test score, max_score, status ("passed" | "failed"), name,
// number, output, output_format ("text" | "html" | "simple_format" | "md" | "ansi"), tags,
// visibility ("hidden" | "after_due_date" | "after_published" | "visible").
// tests/schema/gradescope_results.schema.json encodes that format; the tests validate against it.
//
// The view does not change this file. Gradescope, not awb, decides what a student sees: a
// hidden check becomes a test with visibility "hidden" (never shown to students), an
// after-due-date one "after_due_date" (Gradescope applies its own due date). Leaving such
// tests out would also hide them from the instructor on Gradescope, and the course's own
// setting for when results are published still applies on top.
//
// Names and outputs are put in front of people, so they go through clean_text (control
// characters dropped, invalid UTF-8 replaced); JSON escaping alone would keep the controls.
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "report/format.hpp"
#include "report/report.hpp"

namespace awb::grade {
namespace {

using Json = nlohmann::ordered_json;

double finite(double v) { return std::isfinite(v) ? v : 0.0; }

// Our visibility names are Gradescope's by design ("visible", "hidden", "after_due_date").
const char* gradescope_visibility(Visibility v) { return to_string(v); }

// What the student reads under the test. Gradescope knows only passed and failed, so the
// real status leads the text whenever it is something else.
std::string test_output(const CheckResult& c) {
  std::string out;
  switch (c.status) {
    case Status::kPassed:
    case Status::kFailed:
      break;
    case Status::kError:
      out = "Error: ";
      break;
    case Status::kTimeout:
      out = "Timed out: ";
      break;
    case Status::kNotRun:
      out = "Not run (does not count): ";
      break;
  }
  out += c.summary;
  if (c.status == Status::kPassed || c.status == Status::kNotRun) return out;
  if (!c.details.empty()) out += "\n\n" + c.details;
  if (!c.diagnosis.empty()) out += "\n\nDiagnosis: " + c.diagnosis;
  if (!c.hint.empty()) out += "\nHint: " + c.hint;
  return out;
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

std::string summary_output(const GradeReport& r) {
  std::string out = "awb graded " + r.subject;
  if (!r.exercises.empty() && !r.exercises.front().provenance.awb_version.empty())
    out += " (awb " + r.exercises.front().provenance.awb_version + ")";
  out += ".\n";
  for (const auto& e : r.exercises) {
    out += e.exercise_id + ": ";
    out += e.not_gradable.empty() ? format_points(e.score) + "/" + format_points(e.max_score)
                                  : "not gradable: " + e.not_gradable;
    out += "\n";
  }
  return out;
}

}  // namespace

std::string write_gradescope(const GradeReport& report, const View& /*view*/) {
  Json j;
  double score = 0;
  Json tests = Json::array();
  for (size_t i = 0; i < report.exercises.size(); ++i) {
    const ExerciseReport& e = report.exercises[i];
    const std::string prefix = std::to_string(i + 1) + ".";
    if (!e.not_gradable.empty()) {
      tests.push_back(not_gradable_test(e, prefix + "1"));
      continue;
    }
    for (size_t k = 0; k < e.checks.size(); ++k) {
      tests.push_back(check_test(e, e.checks[k], prefix + std::to_string(k + 1)));
      score += tests.back()["score"].get<double>();
    }
  }
  // The top-level score overrides the tests' sum on Gradescope; it is set to that sum so the
  // two cannot disagree.
  j["score"] = score;
  j["execution_time"] = std::llround(std::fmax(0.0, finite(report.execution_seconds)));
  j["output"] = clean_text(summary_output(report), true);
  j["output_format"] = "text";
  j["visibility"] = "visible";
  // run_autograder's stdout may hold instructor-only text (a table in the instructor view).
  j["stdout_visibility"] = "hidden";
  j["tests"] = std::move(tests);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace awb::grade
