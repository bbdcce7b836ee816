// feedback.tests.cpp: what a student reads: the SDK's statuses in words, and identical failures
// told once in the table.
#include <awb/awb_plugin.h>

#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "graders/model/plugin_status.hpp"
#include "graders/report/report.hpp"

using namespace awb;

TEST_CASE("the SDK's statuses reach a student in words", "[feedback][status]") {
  CHECK(plugin_status_message(AWB_ERR_UNSUPPORTED, "TODO: write the scores in attend()") ==
        "TODO left in the starter: write the scores in attend()");
  CHECK(plugin_status_message(AWB_ERR_UNSUPPORTED, "no f32 path") ==
        "the plugin does not implement this: no f32 path");
  CHECK(plugin_status_message(AWB_ERR_INVALID_ARGUMENT, "d_k is 0") ==
        "the plugin rejected the problem as invalid: d_k is 0");
  CHECK(plugin_status_message(AWB_ERR_OUT_OF_MEMORY, "") == "the plugin ran out of memory");
  CHECK(plugin_status_message(AWB_ERR_INTERNAL, "boom") ==
        "the plugin failed (an internal error or an exception): boom");
  CHECK(plugin_status_message(77, "?") == "the plugin returned an unknown status (77): ?");
  for (int status = 1; status <= 4; ++status)
    CHECK(plugin_status_message(status, "x").find("status " + std::to_string(status)) ==
          std::string::npos);
}

namespace {

grade::ExerciseReport erring_exercise(const std::string& id, int checks) {
  grade::ExerciseReport e;
  e.exercise_id = id;
  for (int i = 0; i < checks; ++i) {
    grade::CheckResult c;
    c.id = id + "-check-" + std::to_string(i);
    c.status = grade::Status::kError;
    c.max_points = 2;
    c.summary = "TODO left in the starter: write the scores in attend()";
    c.hint = "hint " + std::to_string(i) + " of " + id;
    e.checks.push_back(c);
    e.max_score += 2;
  }
  grade::CheckResult passed;
  passed.id = id + "-passed";
  passed.status = grade::Status::kPassed;
  passed.summary = "fine";
  passed.points = passed.max_points = 1;
  e.checks.push_back(passed);
  e.score = 1;
  e.max_score += 1;
  return e;
}

// Whether a line of `text` holds each of `parts`, in order.
bool has_row(const std::string& text, const std::vector<std::string>& parts) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    size_t at = 0;
    bool all = true;
    for (const auto& p : parts) {
      at = line.find(p, at);
      if (at == std::string::npos) {
        all = false;
        break;
      }
      at += p.size();
    }
    if (all) return true;
  }
  return false;
}

// How often each line of `text` occurs.
std::map<std::string, int> line_counts(const std::string& text) {
  std::map<std::string, int> n;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) ++n[line];
  return n;
}

}  // namespace

TEST_CASE("checks that failed identically share one row of the table", "[feedback][report]") {
  grade::GradeReport r;
  r.subject = "starter";
  r.exercises = {erring_exercise("first", 3), erring_exercise("second", 4)};
  const std::string t = grade::write_table(r, grade::View{});
  INFO(t);
  const auto n = line_counts(t);
  for (const auto& [line, count] : n)
    if (!line.empty() && line.find("STATUS  CHECK") == std::string::npos) CHECK(count == 1);
  // Told once, in full, where it first occurs; a count and the points of the group.
  CHECK(has_row(t, {"  ERROR", "3 checks", "0/6", "TODO left in the starter: write the scores"}));
  CHECK(t.find("Checks: first-check-0, first-check-1, first-check-2") != std::string::npos);
  CHECK(has_row(t, {"  ERROR", "4 checks", "0/8", "the same as in first above"}));
  // An error stopped each check before it judged anything: no check's hint helps.
  CHECK(t.find("Hint:") == std::string::npos);
  CHECK(has_row(t, {"  PASSED", "first-passed", "1/1", "fine"}));
  CHECK(t.find("Score: 1/7") != std::string::npos);

  // A single failure keeps its own row, its hint and its id.
  r.exercises = {erring_exercise("only", 1)};
  const std::string one = grade::write_table(r, grade::View{});
  CHECK(has_row(one, {"  ERROR", "only-check-0", "0/2", "TODO left in the starter"}));
  CHECK(one.find("Hint: hint 0 of only") != std::string::npos);
}
