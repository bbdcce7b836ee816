// report.tests.cpp: the six report writers and their registry on hand-built results, read back
// and checked.
#include "graders/report/report.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <pugixml.hpp>
#include <set>
#include <sstream>

#include "graders/report/format.hpp"
#include "graders/report/formats.hpp"

using namespace awb::grade;
using Json = nlohmann::json;

namespace {

CheckResult check(std::string id, CheckKind kind, std::string name, Status status, double points,
                  double max_points, std::string summary,
                  Visibility visibility = Visibility::kVisible) {
  CheckResult c;
  c.id = std::move(id);
  c.kind = kind;
  c.name = std::move(name);
  c.status = status;
  c.points = points;
  c.max_points = max_points;
  c.summary = std::move(summary);
  c.visibility = visibility;
  return c;
}

// Names and messages carry XML and CSV specials, a control character and a newline on
// purpose: every writer must survive them.
const std::string kTricky = "row 2 sums to 1.37 <&> \"x\" 'y'\x01";

GradeReport sample_report() {
  ExerciseReport e;
  e.exercise_id = "softmax-basics";
  e.title = "Softmax <basics> & \"rows\"";
  e.provenance = {"0.1.0", std::string(64, 'a'), std::string(64, 'b'), "in-process", ""};
  e.checks.push_back(check("weights-match", CheckKind::kReference, "reference", Status::kPassed, 2,
                           2, "weights, scores and context within tolerance"));
  CheckResult rows =
      check("rows-sum", CheckKind::kProperty, "rows_sum_to_one", Status::kFailed, 0.5, 1, kTricky);
  rows.details = "row 2: sum 1.37\nrow 3: sum 0.91";
  rows.diagnosis = "looks like dividing by the row sum";
  rows.hint = "Exponentiate before you normalise: 'exp' & \"sum\"";
  e.checks.push_back(rows);
  CheckResult crash =
      check("crash", CheckKind::kExpect, "argmax", Status::kError, 0, 1, "plugin faulted");
  crash.details = "signal 11 in awb_forward";
  e.checks.push_back(crash);
  e.checks.push_back(check("slow", CheckKind::kProperty, "permutation_equivariance",
                           Status::kTimeout, 0, 1, "timed out after 2 s"));
  e.checks.push_back(check("causal-mask", CheckKind::kProperty, "causal", Status::kNotRun, 0, 1,
                           "cannot run: the variant has no causal mask"));
  e.checks.push_back(check("secret", CheckKind::kProperty, "scale_invariance", Status::kPassed, 3,
                           3, "hidden property holds", Visibility::kHidden));
  e.checks.push_back(check("late", CheckKind::kExpect, "peak", Status::kFailed, 0, 2,
                           "late check fails", Visibility::kAfterDueDate));
  e.score = 5.5;     // 2 + 0.5 + 3
  e.max_score = 10;  // every check but the not-run one

  ExerciseReport broken;
  broken.exercise_id = "broken";
  broken.title = "Broken plugin";
  broken.not_gradable = "the plugin did not load: missing symbol awb_entry";

  GradeReport r;
  r.subject = "org.awb.qkv:qkv";
  r.plugin_path = "plugins/libawb_qkv.so";
  r.execution_seconds = 1.6;
  r.exercises = {e, broken};
  return r;
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

bool has_line(const std::string& text, const std::string& line) {
  const auto lines = lines_of(text);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

const View kStudent{false, false};
const View kStudentAfterDue{false, true};
const View kInstructor{true, false};

}  // namespace

TEST_CASE("report: totals and what each view shows", "[report]") {
  const GradeReport r = sample_report();
  CHECK(r.score() == 5.5);
  CHECK(r.max_score() == 10);
  const ShownTotals student = shown_totals(r, kStudent);
  CHECK(student.hidden == 2);
  CHECK(student.score == 2.5);
  CHECK(student.max_score == 5);  // 2 + 1 + 1 + 1: the not-run check does not count
  const ShownTotals after_due = shown_totals(r, kStudentAfterDue);
  CHECK(after_due.hidden == 1);
  CHECK(after_due.max_score == 7);
  const ShownTotals instructor = shown_totals(r, kInstructor);
  CHECK(instructor.hidden == 0);
  CHECK(instructor.score == 5.5);
  CHECK(instructor.max_score == 10);
}

TEST_CASE("report: number and text helpers", "[report]") {
  CHECK(format_points(2) == "2");
  CHECK(format_points(0.5) == "0.5");
  CHECK(format_points(1.0 / 3) == "0.33");
  CHECK(format_points(-0.0001) == "0");
  CHECK(format_number(0.1 + 0.2) == "0.3");
  CHECK(format_number(12) == "12");
  CHECK(clean_text("a\tb\x1b[31mc\r\nd", false) == "a b[31mc d");
  CHECK(clean_text("x\xff y", true) == "x\xEF\xBF\xBD y");  // a bad byte becomes U+FFFD
  CHECK(xml_escape("<a href='x'>&\"\x02\n", true) ==
        "&lt;a href=&apos;x&apos;&gt;&amp;&quot;&#10;");
  CHECK(xml_escape("l1\nl2\r", false) == "l1\nl2&#13;");
  CHECK(xml_escape("\xEF\xBF\xBE", false).empty());  // U+FFFE is not an XML character
}

TEST_CASE("report: the table in the student view", "[report]") {
  const std::string t = write_table(sample_report(), kStudent);
  INFO(t);
  CHECK(has_line(t, "Subject: org.awb.qkv:qkv (plugins/libawb_qkv.so)"));
  CHECK(has_line(t, "softmax-basics (Softmax <basics> & \"rows\")"));
  CHECK(has_line(t, "  STATUS   CHECK          POINTS  SUMMARY"));
  CHECK(has_line(t,
                 "  PASSED   weights-match  2/2     weights, scores and context within tolerance"));
  // The control character in the summary is dropped; the specials stay as they are.
  CHECK(has_line(t, "  FAILED   rows-sum       0.5/1   row 2 sums to 1.37 <&> \"x\" 'y'"));
  CHECK(has_line(t, "             row 2: sum 1.37"));
  CHECK(has_line(t, "             row 3: sum 0.91"));
  CHECK(has_line(t, "             Diagnosis: looks like dividing by the row sum"));
  CHECK(has_line(t, "             Hint: Exponentiate before you normalise: 'exp' & \"sum\""));
  CHECK(has_line(t, "  ERROR    crash          0/1     plugin faulted"));
  CHECK(has_line(t, "             signal 11 in awb_forward"));
  CHECK(has_line(t, "  TIMEOUT  slow           0/1     timed out after 2 s"));
  CHECK(has_line(t,
                 "  NOT-RUN  causal-mask    -       "
                 "cannot run: the variant has no causal mask"));
  CHECK(has_line(t, "  2 hidden check(s) not shown"));
  CHECK(has_line(t, "  Score: 2.5/5"));
  CHECK(has_line(t,
                 "broken (Broken plugin): not gradable: "
                 "the plugin did not load: missing symbol awb_entry"));
  CHECK(has_line(t, "Total: 2.5/5 over 2 exercise(s), 1 not gradable"));
  // Nothing of the hidden checks leaks: not their ids, summaries or points.
  CHECK(t.find("secret") == std::string::npos);
  CHECK(t.find("late") == std::string::npos);
  CHECK(t.find("sha256") == std::string::npos);
  // Passed checks carry no feedback block.
  CHECK(t.find("Hint:") == t.rfind("Hint:"));
}

TEST_CASE("report: the table in the instructor view", "[report]") {
  const std::string t = write_table(sample_report(), kInstructor);
  INFO(t);
  CHECK(has_line(t,
                 "  awb 0.1.0, exercise sha256 aaaaaaaaaaaa, plugin sha256 bbbbbbbbbbbb, "
                 "lockdown in-process"));
  CHECK(has_line(t, "  PASSED   secret [hidden]        3/3     hidden property holds"));
  CHECK(has_line(t, "  FAILED   late [after_due_date]  0/2     late check fails"));
  CHECK(t.find("hidden check(s) not shown") == std::string::npos);
  CHECK(has_line(t, "  Score: 5.5/10"));
  CHECK(has_line(t, "Total: 5.5/10 over 2 exercise(s), 1 not gradable"));
  // After the due date a student sees the after-due check, but not the hidden one.
  const std::string s = write_table(sample_report(), kStudentAfterDue);
  CHECK(has_line(s, "  FAILED   late           0/2     late check fails"));
  CHECK(has_line(s, "  1 hidden check(s) not shown"));
  CHECK(has_line(s, "  Score: 2.5/7"));
}

TEST_CASE("report: JSON carries every field and drops hidden checks for students", "[report]") {
  const Json student = Json::parse(write_json(sample_report(), kStudent));
  CHECK(student["subject"] == "org.awb.qkv:qkv");
  CHECK(student["plugin_path"] == "plugins/libawb_qkv.so");
  CHECK(student["view"] == "student");
  CHECK(student["execution_seconds"] == 1.6);
  CHECK(student["score"] == 2.5);
  CHECK(student["max_score"] == 5.0);
  REQUIRE(student["exercises"].size() == 2);
  const Json& ex = student["exercises"][0];
  CHECK(ex["id"] == "softmax-basics");
  CHECK(ex["title"] == "Softmax <basics> & \"rows\"");
  CHECK(ex["provenance"]["awb_version"] == "0.1.0");
  CHECK(ex["provenance"]["exercise_sha256"] == std::string(64, 'a'));
  CHECK(ex["provenance"]["plugin_sha256"] == std::string(64, 'b'));
  CHECK(ex["provenance"]["lockdown"] == "in-process");
  CHECK(ex["not_gradable"] == "");
  CHECK(ex["hidden_checks"] == 2);
  REQUIRE(ex["checks"].size() == 5);
  for (const auto& c : ex["checks"]) {
    CHECK(c["visibility"] == "visible");
    CHECK(c["id"] != "secret");
  }
  const Json& rows = ex["checks"][1];
  CHECK(rows["id"] == "rows-sum");
  CHECK(rows["kind"] == "property");
  CHECK(rows["name"] == "rows_sum_to_one");
  CHECK(rows["status"] == "failed");
  CHECK(rows["points"] == 0.5);
  CHECK(rows["max_points"] == 1.0);
  CHECK(rows["summary"] == kTricky);  // JSON escapes the control character losslessly
  CHECK(rows["details"] == "row 2: sum 1.37\nrow 3: sum 0.91");
  CHECK(rows["diagnosis"] == "looks like dividing by the row sum");
  CHECK(rows["hint"] == "Exponentiate before you normalise: 'exp' & \"sum\"");
  CHECK(ex["checks"][4]["status"] == "not-run");
  const Json& broken = student["exercises"][1];
  CHECK(broken["not_gradable"] == "the plugin did not load: missing symbol awb_entry");
  CHECK(broken["checks"].empty());

  const Json instructor = Json::parse(write_json(sample_report(), kInstructor));
  CHECK(instructor["view"] == "instructor");
  CHECK(instructor["score"] == 5.5);
  CHECK(instructor["max_score"] == 10.0);
  REQUIRE(instructor["exercises"][0]["checks"].size() == 7);
  CHECK(instructor["exercises"][0]["checks"][5]["visibility"] == "hidden");
  CHECK(instructor["exercises"][0]["checks"][6]["visibility"] == "after_due_date");
  // The same input gives the same bytes.
  CHECK(write_json(sample_report(), kInstructor) == write_json(sample_report(), kInstructor));
}

TEST_CASE("report: JSON survives text that is not UTF-8", "[report]") {
  GradeReport r = sample_report();
  r.exercises[0].checks[0].details = "bad \xC3\x28 byte";
  const Json j = Json::parse(write_json(r, kInstructor));
  CHECK(j["exercises"][0]["checks"][0]["details"] == "bad \xEF\xBF\xBD( byte");
}

TEST_CASE("report: JUnit XML parses and counts like a CI server would", "[report]") {
  GradeReport second = sample_report();
  second.subject = "stu <2> & \"co\"";
  second.exercises.resize(1);
  const std::string xml = write_junit({sample_report(), second}, kStudent);
  pugi::xml_document doc;
  const pugi::xml_parse_result parsed = doc.load_string(xml.c_str());
  INFO(xml);
  REQUIRE(parsed);
  const pugi::xml_node root = doc.child("testsuites");
  // Per gradable exercise in the student view: 5 tests, 1 failure, 2 errors, 1 skipped; the
  // not-gradable exercise is one erroring test.
  CHECK(root.attribute("tests").as_int() == 11);
  CHECK(root.attribute("failures").as_int() == 2);
  CHECK(root.attribute("errors").as_int() == 5);
  CHECK(root.attribute("skipped").as_int() == 2);

  const pugi::xml_node suite = root.child("testsuite");
  CHECK(std::string(suite.attribute("name").value()) == "org.awb.qkv:qkv/softmax-basics");
  CHECK(suite.attribute("tests").as_int() == 5);
  CHECK(suite.attribute("failures").as_int() == 1);
  CHECK(suite.attribute("errors").as_int() == 2);
  CHECK(suite.attribute("skipped").as_int() == 1);
  CHECK(std::string(suite.child("properties")
                        .find_child_by_attribute("property", "name", "title")
                        .attribute("value")
                        .value()) == "Softmax <basics> & \"rows\"");
  CHECK(!suite.find_child_by_attribute("testcase", "name", "secret"));
  CHECK(!suite.find_child_by_attribute("testcase", "name", "late"));

  const pugi::xml_node rows = suite.find_child_by_attribute("testcase", "name", "rows-sum");
  CHECK(std::string(rows.attribute("classname").value()) == "org.awb.qkv:qkv.softmax-basics");
  const pugi::xml_node failure = rows.child("failure");
  REQUIRE(failure);
  // Round trip: every special comes back, the control character is gone.
  CHECK(std::string(failure.attribute("message").value()) == "row 2 sums to 1.37 <&> \"x\" 'y'");
  CHECK(std::string(failure.child_value()) ==
        "Points: 0.5/1\nrow 2: sum 1.37\nrow 3: sum 0.91\n"
        "Diagnosis: looks like dividing by the row sum\n"
        "Hint: Exponentiate before you normalise: 'exp' & \"sum\"");
  const pugi::xml_node crash = suite.find_child_by_attribute("testcase", "name", "crash");
  CHECK(std::string(crash.child("error").attribute("type").value()) == "error");
  CHECK(std::string(suite.find_child_by_attribute("testcase", "name", "slow")
                        .child("error")
                        .attribute("type")
                        .value()) == "timeout");
  CHECK(std::string(suite.find_child_by_attribute("testcase", "name", "causal-mask")
                        .child("skipped")
                        .attribute("message")
                        .value()) == "cannot run: the variant has no causal mask");
  const pugi::xml_node passed = suite.find_child_by_attribute("testcase", "name", "weights-match");
  CHECK(!passed.first_child());

  const pugi::xml_node broken = suite.next_sibling("testsuite");
  CHECK(std::string(broken.attribute("name").value()) == "org.awb.qkv:qkv/broken");
  CHECK(std::string(broken.child("testcase").child("error").attribute("message").value()) ==
        "the plugin did not load: missing symbol awb_entry");
  const pugi::xml_node third = broken.next_sibling("testsuite");
  CHECK(std::string(third.attribute("name").value()) == "stu <2> & \"co\"/softmax-basics");

  // The instructor sees the hidden and after-due checks too.
  pugi::xml_document all;
  REQUIRE(all.load_string(write_junit({sample_report()}, kInstructor).c_str()));
  CHECK(all.child("testsuites").attribute("tests").as_int() == 8);
  CHECK(all.child("testsuites").attribute("failures").as_int() == 2);
}

TEST_CASE("report: Gradescope results follow the published format", "[report][gradescope]") {
  const Json j = Json::parse(write_gradescope(sample_report(), kStudent));
  // No top-level score: Gradescope adds up the tests, each under its own visibility.
  CHECK_FALSE(j.contains("score"));
  CHECK_FALSE(j.contains("leaderboard"));
  CHECK(j["execution_time"] == 2);
  CHECK(j["visibility"] == "visible");
  CHECK(j["stdout_visibility"] == "hidden");
  CHECK(j["output"].get<std::string>().find("broken: not gradable: the plugin did not load") !=
        std::string::npos);
  // 6 checks that count and the not-gradable exercise; the not-run check is no test at all.
  REQUIRE(j["tests"].size() == 7);
  double max = 0, score = 0;
  for (const auto& t : j["tests"]) {
    CHECK((t["status"] == "passed" || t["status"] == "failed"));
    CHECK(t["output_format"] == "text");
    CHECK(t["name"] != "softmax-basics: causal-mask");
    max += t["max_score"].get<double>();
    score += t["score"].get<double>();
  }
  CHECK(max == 10);
  CHECK(score == 5.5);
  const Json& rows = j["tests"][1];
  CHECK(rows["name"] == "softmax-basics: rows-sum");
  CHECK(rows["number"] == "1.2");
  CHECK(rows["score"] == 0.5);
  CHECK(rows["max_score"] == 1.0);
  CHECK(rows["tags"] == Json::array({"softmax-basics", "property", "rows_sum_to_one"}));
  CHECK(j["tests"][0]["tags"] == Json::array({"softmax-basics", "reference"}));
  CHECK(rows["output"] ==
        "row 2 sums to 1.37 <&> \"x\" 'y'\n\nrow 2: sum 1.37\nrow 3: sum 0.91\n\n"
        "Diagnosis: looks like dividing by the row sum\n"
        "Hint: Exponentiate before you normalise: 'exp' & \"sum\"");
  CHECK(j["tests"][2]["status"] == "failed");
  CHECK(j["tests"][2]["output"].get<std::string>().rfind("Error: plugin faulted", 0) == 0);
  CHECK(j["tests"][3]["output"].get<std::string>().rfind("Timed out: ", 0) == 0);
  // Gradescope hides these itself; awb maps the visibility and keeps the test.
  CHECK(j["tests"][4]["name"] == "softmax-basics: secret");
  CHECK(j["tests"][4]["visibility"] == "hidden");
  CHECK(j["tests"][5]["visibility"] == "after_due_date");
  CHECK(j["tests"][6]["name"] == "broken: not gradable");
  CHECK(j["tests"][6]["number"] == "2.1");
  // The top-level output is the student's: no hidden check's name or points, in any total.
  const std::string output = j["output"].get<std::string>();
  CHECK(output.find("softmax-basics: 2.5/5 in the tests shown") != std::string::npos);
  CHECK(output.find("secret") == std::string::npos);
  CHECK(output.find("5.5") == std::string::npos);
  // The view does not change the file (see gradescope.cpp).
  CHECK(write_gradescope(sample_report(), kInstructor) ==
        write_gradescope(sample_report(), kStudent));
}

TEST_CASE("report: a Gradescope leaderboard holds the columns asked for", "[report][gradescope]") {
  const Json j =
      Json::parse(write_gradescope(sample_report(), kStudent, {"score", "exercises_passed"}));
  REQUIRE(j["leaderboard"].size() == 2);
  // What a student may see: 2 + 0.5 of the visible checks, not the hidden 3 (5.5 in all).
  CHECK(j["leaderboard"][0] == Json{{"name", "score"}, {"value", 2.5}, {"order", "desc"}});
  CHECK(j["leaderboard"][1]["name"] == "exercises_passed");
  CHECK(j["leaderboard"][1]["value"] == 0.0);
  // Written for the instructor, the board is still the students': every one of them reads it.
  CHECK(Json::parse(write_gradescope(sample_report(), kInstructor,
                                     {"score"}))["leaderboard"][0]["value"] == 2.5);
}

TEST_CASE("report: a Gradescope leaderboard applies the late policy", "[report][gradescope]") {
  // 20 % off. After the due date the after-due check (0 of 2) shows too: 2.5 of 7 visible.
  const Json after =
      Json::parse(write_gradescope(sample_report(), kStudentAfterDue, {"score", "percent"}, 0.8));
  CHECK(after["leaderboard"][0]["value"].get<double>() == Approx(2.0));
  CHECK(after["leaderboard"][1]["value"].get<double>() == Approx(100.0 * 2.0 / 7.0));
  // Before it: 50 % of the visible 5, less 20 %.
  const Json before = Json::parse(write_gradescope(sample_report(), kStudent, {"percent"}, 0.8));
  CHECK(before["leaderboard"][0]["value"].get<double>() == Approx(40.0));
}

namespace {

// What PrairieLearn reads from any results.json awb writes: the fields it documents, of the
// right types and in range (score in [0, 1], 0 <= points <= max_points), and nothing else at the
// top. Returns the document for the checks that follow.
Json prairielearn_document(const std::string& text) {
  const Json j = Json::parse(text);  // throws on anything but JSON (NaN included)
  REQUIRE(j.is_object());
  for (const auto& [key, value] : j.items()) {
    INFO(key);
    CHECK((key == "gradable" || key == "score" || key == "message" || key == "output" ||
           key == "format_errors" || key == "tests"));
  }
  REQUIRE(j["gradable"].is_boolean());
  REQUIRE(j["score"].is_number());
  CHECK(j["score"].get<double>() >= 0.0);
  CHECK(j["score"].get<double>() <= 1.0);
  CHECK(j["message"].is_string());
  CHECK(j["output"].is_string());
  REQUIRE(j["tests"].is_array());
  if (j["gradable"]) {
    CHECK_FALSE(j.contains("format_errors"));
  } else {
    REQUIRE(j["format_errors"].is_array());
    CHECK(!j["format_errors"].empty());
    for (const auto& e : j["format_errors"]) CHECK(e.is_string());
    CHECK(j["tests"].empty());
  }
  for (const auto& t : j["tests"]) {
    REQUIRE(t.is_object());
    CHECK(t.size() == 5);
    CHECK(t["name"].is_string());
    CHECK(t["message"].is_string());
    CHECK(t["output"].is_string());
    REQUIRE(t["points"].is_number());
    REQUIRE(t["max_points"].is_number());
    CHECK(t["points"].get<double>() >= 0.0);
    CHECK(t["points"].get<double>() <= t["max_points"].get<double>());
  }
  return j;
}

std::vector<std::string> test_names(const Json& j) {
  std::vector<std::string> out;
  for (const auto& t : j["tests"]) out.push_back(t["name"]);
  return out;
}

}  // namespace

TEST_CASE("report: PrairieLearn results: a share in [0, 1], one test per check that counts",
          "[report][prairielearn]") {
  // Student: the visible checks that count (2 + 0.5 + 0 + 0 of 5), the broken exercise worth 0.
  const Json student = prairielearn_document(write_prairielearn(sample_report(), kStudent));
  CHECK(student["gradable"] == true);
  CHECK(student["score"] == 0.5);
  CHECK(student["message"] == "2.5/5 points in the tests shown");
  CHECK(test_names(student) ==
        std::vector<std::string>{"softmax-basics: weights-match", "softmax-basics: rows-sum",
                                 "softmax-basics: crash", "softmax-basics: slow",
                                 "broken: not gradable"});
  const Json& rows = student["tests"][1];
  CHECK(rows["points"] == 0.5);
  CHECK(rows["max_points"] == 1.0);
  CHECK(rows["message"] == "row 2 sums to 1.37 <&> \"x\" 'y'");  // the control character dropped
  CHECK(rows["output"] ==
        "row 2: sum 1.37\nrow 3: sum 0.91\n\nDiagnosis: looks like dividing by the row sum\n"
        "Hint: Exponentiate before you normalise: 'exp' & \"sum\"");
  CHECK(student["tests"][0]["output"] == "");  // a passed check has nothing to fix
  CHECK(student["tests"][2]["message"] == "Error: plugin faulted");
  CHECK(student["tests"][2]["output"] == "signal 11 in awb_forward");
  CHECK(student["tests"][3]["message"] == "Timed out: timed out after 2 s");
  CHECK(student["tests"][4]["message"] ==
        "Not gradable: the plugin did not load: missing symbol awb_entry");
  CHECK(student["tests"][4]["points"] == 0.0);
  // Neither a hidden check's name nor its points reach the student's document.
  const std::string text = write_prairielearn(sample_report(), kStudent);
  CHECK(text.find("secret") == std::string::npos);
  CHECK(text.find("5.5") == std::string::npos);
  CHECK(student["output"].get<std::string>().find("softmax-basics: 2.5/5 in the tests shown") !=
        std::string::npos);

  // Instructor: every check that counts, and the score over all of them.
  const Json instructor = prairielearn_document(write_prairielearn(sample_report(), kInstructor));
  CHECK(instructor["score"] == 0.55);
  CHECK(instructor["message"] == "5.5/10 points");
  CHECK(instructor["tests"].size() == 7);
  CHECK(instructor["tests"][4]["name"] == "softmax-basics: secret");
  CHECK(instructor["tests"][5]["name"] == "softmax-basics: late");
  double points = 0, max_points = 0;
  for (const auto& t : instructor["tests"]) {
    points += t["points"].get<double>();
    max_points += t["max_points"].get<double>();
  }
  CHECK(points == 5.5);
  CHECK(max_points == 10);
  // After the due date the student sees the after-due check too.
  CHECK(prairielearn_document(write_prairielearn(sample_report(), kStudentAfterDue))["score"] ==
        Approx(2.5 / 7));
}

TEST_CASE("report: PrairieLearn results: nothing graded is not gradable, with the reasons",
          "[report][prairielearn]") {
  GradeReport r;
  r.subject = "student";
  for (const char* id : {"river-bank", "animal-road"}) {
    ExerciseReport e;
    e.exercise_id = id;
    e.max_score = 12;
    e.not_gradable = "build failed: main.cpp:3:1: error: expected ';'\x1b[0m";
    r.exercises.push_back(e);
  }
  const Json j = prairielearn_document(write_prairielearn(r, kStudent));
  CHECK(j["gradable"] == false);
  CHECK(j["score"] == 0.0);
  // One reason, once, without the terminal's escape character.
  CHECK(j["format_errors"] == Json::array({"build failed: main.cpp:3:1: error: expected ';'[0m"}));
  CHECK(j["message"] == "Not gradable: build failed: main.cpp:3:1: error: expected ';'[0m");
  CHECK(j["output"].get<std::string>().find("river-bank: not gradable: build failed") !=
        std::string::npos);
  // The same document whoever reads it: there is nothing hidden to leave out.
  CHECK(write_prairielearn(r, kInstructor) == write_prairielearn(r, kStudent));

  const Json empty = prairielearn_document(write_prairielearn(GradeReport{}, kStudent));
  CHECK(empty["gradable"] == false);
  CHECK(empty["format_errors"] == Json::array({"no exercise was graded"}));
}

TEST_CASE("report: PrairieLearn results stay JSON and in range on odd values",
          "[report][prairielearn]") {
  GradeReport odd = sample_report();
  odd.subject = "bad \xC3\x28 utf-8";
  odd.exercises[0].checks[0].points = std::numeric_limits<double>::infinity();
  odd.exercises[0].checks[1].points = std::numeric_limits<double>::quiet_NaN();
  for (const View& view : {kStudent, kInstructor})
    prairielearn_document(write_prairielearn(odd, view));
  // Nothing counts in what a student sees: a score of 0, never a division by 0.
  GradeReport hidden_only;
  ExerciseReport e;
  e.exercise_id = "secret";
  e.checks.push_back(
      check("c", CheckKind::kProperty, "p", Status::kPassed, 1, 1, "ok", Visibility::kHidden));
  e.score = e.max_score = 1;
  hidden_only.exercises = {e};
  const Json j = prairielearn_document(write_prairielearn(hidden_only, kStudent));
  CHECK(j["score"] == 0.0);
  CHECK(j["tests"].empty());
}

TEST_CASE("report: CSV honours the view: a student's totals leave hidden checks out", "[report]") {
  // Student: the visible checks that count (2 + 0.5 + 0 + 0 of 5); instructor: everything.
  const std::string student = write_csv({sample_report()}, kStudent);
  CHECK(student ==
        "subject,broken,softmax-basics,total,max,status,comment\r\n"
        "org.awb.qkv:qkv,0,2.5,2.5,5,graded,"
        "not gradable: the plugin did not load: missing symbol awb_entry\r\n");
  CHECK(write_csv({sample_report()}, kInstructor).find(",5.5,5.5,10,graded,") != std::string::npos);
}

TEST_CASE("report: CSV gradebook: numbers only, one maximum, a one-line comment", "[report]") {
  // A subject whose build failed (the compiler's lines in its reason) beside one graded: its
  // cells are 0, its maximum the one the view shows for the exercise where it was graded (the
  // hidden points of a not-gradable exercise are not in the student's maximum either).
  GradeReport graded = sample_report();
  graded.exercises.pop_back();  // softmax-basics only
  GradeReport failed;
  failed.subject = "zed";
  ExerciseReport e;
  e.exercise_id = "softmax-basics";
  e.max_score = 10;  // every check, hidden ones too: the exercise's maximum
  e.not_gradable =
      "build failed: the build step failed\nsrc/a.cpp:1:5: error: expected expression\n"
      "    int x = ;\n        ^";
  failed.exercises = {e};
  const std::string csv = write_csv({graded, failed}, kStudent);
  CHECK(csv ==
        "subject,softmax-basics,total,max,status,comment\r\n"
        "org.awb.qkv:qkv,2.5,2.5,5,graded,\r\n"
        "zed,0,0,5,not gradable,not gradable: build failed: the build step failed / "
        "src/a.cpp:1:5: error: expected expression / int x = ; / ^\r\n");
  CHECK(write_csv({graded, failed}, kInstructor).find("zed,0,0,10,not gradable,") !=
        std::string::npos);
  // Long reasons are cut, on a character's boundary.
  const std::string long_text = std::string(400, 'x') + "\xC3\xA9tc";
  CHECK(one_line_comment(long_text, 401) == std::string(400, 'x') + " [...]");
  CHECK(one_line_comment("a\r\n\r\n  b  \n") == "a / b");
}

TEST_CASE("report: the roster has numbers only, the same maximum, and status and comment apart",
          "[report]") {
  const GradeReport graded = sample_report();
  auto row = [](std::string name, const GradeReport* report, int late_days, double kept,
                std::string status, std::string comment, std::string at = "",
                std::string source = "") {
    RosterRow r;
    r.submission = std::move(name);
    r.report = report;
    r.late_days = late_days;
    r.kept = kept;
    r.status = std::move(status);
    r.comment = std::move(comment);
    r.submitted_at = std::move(at);
    r.time_source = std::move(source);
    return r;
  };
  const std::vector<RosterRow> rows = {
      row("01-ann", &graded, 0, 1.0, "graded", ""),
      row("02-bob, \"jr\"", nullptr, 0, 1.0, "not gradable", "not gradable: no plugin file"),
      row("03-cy", &graded, 2, 0.8, "graded", "late 2 days (20 % off)", "2026-12-17T10:00:00Z",
          "submitted-at"),
      row("04-di", nullptr, 0, 1.0, "not gradable",
          "not gradable: build failed\nsrc/a.cpp:1:5: error: expected expression",
          "2026-12-20T10:00:00Z", "file-mtime")};
  // The instructor's totals whatever view the other reports are for: the hidden 3 points count.
  const std::string csv = write_roster(rows, {"softmax-basics", "broken"}, 10);
  CHECK(csv ==
        "submission,softmax-basics,broken,total,max,late_days,final,status,comment,"
        "submitted_at,time_source\r\n"
        "01-ann,5.5,0,5.5,10,0,5.5,graded,,,\r\n"
        "\"02-bob, \"\"jr\"\"\",0,0,0,10,0,0,not gradable,not gradable: no plugin file,,\r\n"
        "03-cy,5.5,0,5.5,10,2,4.4,graded,late 2 days (20 % off),2026-12-17T10:00:00Z,"
        "submitted-at\r\n"
        "04-di,0,0,0,10,0,0,not gradable,not gradable: build failed / src/a.cpp:1:5: error: "
        "expected expression,2026-12-20T10:00:00Z,file-mtime\r\n");
}

TEST_CASE("report: CSV gradebook, exact text", "[report]") {
  GradeReport alpha;
  alpha.subject = "alpha, \"the\" first";
  ExerciseReport e1;
  e1.exercise_id = "softmax-basics";
  e1.score = 0.1 + 0.2;
  e1.max_score = 1;
  ExerciseReport e2;
  e2.exercise_id = "extra";
  e2.score = 2;
  e2.max_score = 2;
  alpha.exercises = {e1, e2};
  GradeReport injected;
  injected.subject = "=cmd()";
  ExerciseReport e3 = e2;
  e3.score = 1;
  injected.exercises = {e3};

  const std::string csv = write_csv({sample_report(), alpha, injected});
  CHECK(csv ==
        "subject,broken,extra,softmax-basics,total,max,status,comment\r\n"
        "'=cmd(),,1,,1,2,graded,\r\n"
        "\"alpha, \"\"the\"\" first\",,2,0.3,2.3,3,graded,\r\n"
        "org.awb.qkv:qkv,0,,5.5,5.5,10,graded,"
        "not gradable: the plugin did not load: missing symbol awb_entry\r\n");
  CHECK(write_csv({}) == "subject,total,max,status,comment\r\n");
}

// Not part of the default run: the `report.write_samples` ctest runs it to feed the schema
// checks (check_gradescope.py), so the files are written once, before they are read.
TEST_CASE("report: write Gradescope and PrairieLearn samples for the schema check",
          "[.][report-samples]") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::path(AWB_TEST_OUTPUT_DIR) / "gradescope";
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    CHECK(fs::file_size(dir / name) == text.size());
  };
  write("student.json", write_gradescope(sample_report(), kStudent));
  write("instructor.json", write_gradescope(sample_report(), kInstructor));
  write("empty.json", write_gradescope(GradeReport{}, kStudent));
  write("leaderboard.json",
        write_gradescope(sample_report(), kStudent, {"score", "percent", "exercises_passed"}));
  GradeReport odd = sample_report();
  odd.subject = "bad \xC3\x28 utf-8";
  odd.execution_seconds = std::numeric_limits<double>::quiet_NaN();
  odd.exercises[0].checks[0].points = std::numeric_limits<double>::infinity();
  write("odd_values.json", write_gradescope(odd, kStudent));

  const fs::path pl = fs::path(AWB_TEST_OUTPUT_DIR) / "prairielearn";
  fs::remove_all(pl);
  fs::create_directories(pl);
  std::ofstream(pl / "student.json", std::ios::binary)
      << write_prairielearn(sample_report(), kStudent);
  std::ofstream(pl / "instructor.json", std::ios::binary)
      << write_prairielearn(sample_report(), kInstructor);
  std::ofstream(pl / "not_gradable.json", std::ios::binary)
      << write_prairielearn(GradeReport{}, kStudent);
  std::ofstream(pl / "odd_values.json", std::ios::binary) << write_prairielearn(odd, kStudent);
  CHECK(fs::file_size(pl / "odd_values.json") > 0);
}

TEST_CASE("report: terminal text shows control characters instead of obeying them", "[report]") {
  CHECK(terminal_text("plain \xC3\xA9t\xC3\xA9") == "plain \xC3\xA9t\xC3\xA9");
  CHECK(terminal_text("a\x1b[31mred\x07") == "a\\x1b[31mred\\x07");
  CHECK(terminal_text("two\nlines\r") == "two\\x0alines\\x0d");
  CHECK(terminal_text("\xC2\x9B"
                      "2J") == "\\x9b2J");  // the 8-bit CSI
  CHECK(terminal_text("bad \xFF byte") == "bad \xEF\xBF\xBD byte");
}

TEST_CASE(
    "report: CSV keeps names exactly: folders that differ in a control character stay two "
    "rows",
    "[report]") {
  GradeReport a, b;
  a.subject = "ann\x01";
  b.subject = "ann";
  const std::string csv = write_csv({a, b}, kInstructor);
  CHECK(csv ==
        "subject,total,max,status,comment\r\nann,0,0,graded,\r\n\"ann\x01\",0,0,graded,\r\n");
}

TEST_CASE("report formats: one registry, names unique, the table first", "[report][formats]") {
  const auto formats = report_formats();
  REQUIRE(!formats.empty());
  CHECK(formats.front().name == "table");
  CHECK(report_format_names() ==
        std::vector<std::string>{"table", "json", "junit", "gradescope", "csv", "prairielearn"});
  std::set<std::string_view> names;
  for (const auto& f : formats) {
    INFO(f.name);
    CHECK(names.insert(f.name).second);
    CHECK(find_report_format(f.name) == &f);
    CHECK(f.write != nullptr);
    // A format that holds one subject says what its document is, for the refusal of several.
    CHECK(f.multi_subject == f.document.empty());
  }
  CHECK(find_report_format("pdf") == nullptr);
  CHECK(find_report_format("JSON") == nullptr);
}

TEST_CASE("report formats: each writes what its writer writes, byte for byte",
          "[report][formats]") {
  GradeReport second = sample_report();
  second.subject = "org.awb.causal:causal";
  const std::vector<GradeReport> one{sample_report()}, two{sample_report(), second};
  FormatOptions options;
  options.leaderboard = {"score", "percent"};
  for (const View& view : {kStudent, kStudentAfterDue, kInstructor}) {
    CHECK(find_report_format("table")->write(two, view, options) ==
          write_table(two[0], view) + write_table(two[1], view));
    CHECK(find_report_format("json")->write(one, view, options) == write_json(one[0], view));
    CHECK(find_report_format("json")->write(two, view, options) ==
          "[\n" + write_json(two[0], view) + ",\n" + write_json(two[1], view) + "]\n");
    CHECK(find_report_format("junit")->write(two, view, options) == write_junit(two, view));
    CHECK(find_report_format("gradescope")->write(one, view, options) ==
          write_gradescope(one[0], view, options.leaderboard));
    CHECK(find_report_format("csv")->write(two, view, options) == write_csv(two, view));
    CHECK(find_report_format("prairielearn")->write(one, view, options) ==
          write_prairielearn(one[0], view));
  }
}

TEST_CASE("report formats: honours_view says whether the view changes the bytes",
          "[report][formats]") {
  const std::vector<GradeReport> one{sample_report()};  // holds a hidden check
  for (const auto& f : report_formats()) {
    INFO(f.name);
    CHECK((f.write(one, kStudent, {}) != f.write(one, kInstructor, {})) == f.honours_view);
  }
}

TEST_CASE("report formats: what a batch writes for each", "[report][formats]") {
  std::map<std::string, std::string> files;
  for (const auto& f : report_formats())
    if (!f.batch_file.empty()) files[std::string(f.name)] = batch_file_for(f, "alice");
  CHECK(files == std::map<std::string, std::string>{{"junit", "junit.xml"},
                                                    {"gradescope", "gradescope/alice.json"},
                                                    {"csv", "grades.csv"},
                                                    {"prairielearn", "prairielearn/alice.json"}});
  CHECK(per_submission(*find_report_format("gradescope")));
  CHECK(per_submission(*find_report_format("prairielearn")));
  CHECK_FALSE(per_submission(*find_report_format("csv")));
  // A per-submission format holds one subject per file, so every such format may hold just one.
  for (const auto& f : report_formats())
    if (!f.multi_subject) CHECK(per_submission(f));
}
