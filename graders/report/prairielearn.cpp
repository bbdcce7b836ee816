// prairielearn.cpp: results.json for a PrairieLearn external grader (one test per check).
//
// Format: PrairieLearn documentation, "External Grading", section "Grading results": `score` in
// [0, 1]; `gradable: false` marks a submission that could not be graded (no points given or
// taken, no attempt used), with the reasons in `format_errors`; `message` and `output` at the top;
// `tests[]` each with name, points, max_points, message, output (what the element
// <pl-external-grader-results> renders).
//
// PrairieLearn shows every test to the student and has no visibility of its own, so the view
// decides both what is listed and what counts: the student view leaves hidden checks out of the
// tests and out of the score (PrairieLearn records the score as the grade); the instructor view
// lists and counts them all.
//
// Names and texts are put in front of people, so they go through clean_text, as Gradescope's do.
#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "graders/report/format.hpp"
#include "graders/report/report.hpp"

namespace awb::grade {
namespace {

using Json = nlohmann::ordered_json;

Json check_test(const ExerciseReport& e, const CheckResult& c) {
  Json t;
  t["name"] = clean_text(e.exercise_id + ": " + c.id, false);
  t["points"] = finite(c.points);
  t["max_points"] = finite(c.max_points);
  // The one line the element shows beside the points; the feedback below it.
  t["message"] = clean_text(std::string(status_lead(c.status)) + c.summary, true);
  std::string feedback = check_feedback(c);
  feedback.erase(0, feedback.find_first_not_of('\n'));  // all of it when it is only newlines
  t["output"] = clean_text(feedback, true);
  return t;
}

// An exercise that could not be graded (while others were) is one test worth 0 of its points.
Json not_gradable_test(const ExerciseReport& e, const View& view) {
  Json t;
  t["name"] = clean_text(e.exercise_id + ": not gradable", false);
  t["points"] = 0.0;
  t["max_points"] = finite(shown_totals(e, view).max_score);
  t["message"] = clean_text("Not gradable: " + e.not_gradable, true);
  t["output"] = "";
  return t;
}

}  // namespace

std::string write_prairielearn(const GradeReport& report, const View& view) {
  Json j;
  const std::string summary = clean_text(grade_summary(report, view), true);
  // Nothing graded at all (the submission did not build, held no plugin, did not load): not
  // gradable, each distinct reason once.
  const bool gradable = std::any_of(report.exercises.begin(), report.exercises.end(),
                                    [](const ExerciseReport& e) { return e.not_gradable.empty(); });
  if (!gradable) {
    Json errors = Json::array();
    for (const auto& e : report.exercises) {
      const std::string why = clean_text(e.not_gradable, true);
      if (std::none_of(errors.begin(), errors.end(),
                       [&](const Json& known) { return known.get<std::string>() == why; }))
        errors.push_back(why);
    }
    if (errors.empty()) errors.push_back("no exercise was graded");
    j["gradable"] = false;
    j["score"] = 0.0;
    j["message"] = "Not gradable: " + errors.front().get<std::string>();
    j["output"] = summary;
    j["format_errors"] = std::move(errors);
    j["tests"] = Json::array();
    return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
  }
  const ShownTotals total = shown_totals(report, view);
  const double max = finite(total.max_score);
  j["gradable"] = true;
  j["score"] = max > 0 ? std::clamp(finite(total.score) / max, 0.0, 1.0) : 0.0;
  j["message"] = format_points(total.score) + "/" + format_points(total.max_score) + " points" +
                 (total.hidden > 0 ? " in the tests shown" : "");
  j["output"] = summary;
  Json tests = Json::array();
  for (const auto& e : report.exercises) {
    if (!e.not_gradable.empty()) {
      tests.push_back(not_gradable_test(e, view));
      continue;
    }
    // As on Gradescope, only checks that count are tests: a not-run one would read as a failure.
    for (const auto* c : shown_checks(e, view))
      if (counts(*c)) tests.push_back(check_test(e, *c));
  }
  j["tests"] = std::move(tests);
  return j.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace awb::grade
