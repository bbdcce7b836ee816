// feedback.tests.cpp: what a student reads: hints that agree with their checks' thresholds, the
// SDK's statuses in words, and identical failures told once in the table.
#include <awb/awb_plugin.h>

#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "graders/checks/hint_threshold.hpp"
#include "graders/model/plugin_status.hpp"
#include "graders/report/report.hpp"

using namespace awb;

namespace {

grade::CheckSpec expect_check(const std::string& predicate, const std::string& hint) {
  grade::CheckSpec c;
  c.id = "probe";
  c.kind = grade::CheckKind::kExpect;
  c.name = predicate;
  c.hint = hint;
  return c;
}

}  // namespace

TEST_CASE("every bundled hint agrees with its check's threshold", "[feedback][hints]") {
  const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  REQUIRE(set.errors.empty());
  size_t read = 0;
  for (const auto& ex : set.exercises) {
    std::vector<grade::CheckSpec> checks = ex.checks;
    if (ex.train)
      checks.insert(checks.end(), ex.train->success_checks.begin(), ex.train->success_checks.end());
    for (const auto& c : checks) {
      INFO(ex.id << "/" << c.id << ": " << c.hint);
      CHECK(grade::hint_threshold_mismatches(c).empty());
      read += c.kind == grade::CheckKind::kExpect;
    }
  }
  CHECK(read > 30);
}

TEST_CASE("a hint that names another threshold than its check's is found", "[feedback][hints]") {
  // The scaling exercise's hint before it was fixed: the check wants entropy above 1.2.
  grade::CheckSpec spread = expect_check(
      "entropy_above",
      "With scale inv_sqrt_dk the scores are divided by √d_k = 16 (d_k = 256, the width of one "
      "query: W_q's columns per head), and every row keeps an entropy above 1.5 nats.");
  spread.value = 1.2;
  const auto found = grade::hint_threshold_mismatches(spread);
  REQUIRE(found.size() == 1);
  CHECK(found[0] == "'above 1.5' but the check wants 1.2");
  spread.hint = "every row keeps an entropy above 1.2 nats";
  CHECK(grade::hint_threshold_mismatches(spread).empty());

  grade::CheckSpec below = expect_check("weight_below", "gives it less than 0.05 of the row");
  below.value = 0.01;
  CHECK(grade::hint_threshold_mismatches(below).size() == 1);
  below.hint = "its weight is ≤ 1/100";  // a fraction reads as its value
  CHECK(grade::hint_threshold_mismatches(below).empty());
  grade::CheckSpec negative = expect_check("weight_above", "its weight is above −0.5");
  negative.value = -0.5;  // the typographic minus reads as a minus
  CHECK(grade::hint_threshold_mismatches(negative).empty());

  grade::CheckSpec one_hot = expect_check("one_hot_rows", "every largest weight is above 0.9");
  one_hot.tolerance.atol = 0.1;  // the threshold is 1 − tolerance
  CHECK(grade::hint_threshold_mismatches(one_hot).empty());

  grade::CheckSpec top = expect_check("in_top_k", "journey is among its 3 largest");
  top.k = 2;
  CHECK(grade::hint_threshold_mismatches(top).size() == 1);
}

TEST_CASE("a hint's facts are not read as its check's threshold", "[feedback][hints]") {
  // Approximate values, numbers about another quantity, numbers in another clause.
  grade::CheckSpec c = expect_check(
      "weight_above",
      "With scale 1/√2 the score for \"river\" is about 3.9 and the other scores are at most "
      "about 0.4, which gives \"river\" about 0.89 of the weight.");
  c.value = 0.8;
  CHECK(grade::hint_threshold_mismatches(c).empty());
  grade::CheckSpec gap =
      expect_check("one_hot_rows",
                   "Every row's best score beats the runner-up by at least 8400, so the "
                   "softmax is one-hot.");
  gap.tolerance.atol = 1e-9;
  CHECK(grade::hint_threshold_mismatches(gap).empty());
  grade::CheckSpec flat =
      expect_check("entropy_above", "a uniform row over 11 keys has entropy ln 11 = 2.40");
  flat.value = 2.0;
  CHECK(grade::hint_threshold_mismatches(flat).empty());
  // Only expect predicates have a threshold a hint can state.
  grade::CheckSpec property = expect_check("finite", "exp() overflows a float above about 88.7");
  property.kind = grade::CheckKind::kProperty;
  CHECK(grade::hint_threshold_mismatches(property).empty());
}

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
