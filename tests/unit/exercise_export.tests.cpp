// exercise_export.tests.cpp: the student copy of an exercise keeps exactly the checks students
// may see, leaves out the hidden ones with their expected values and hints, and still loads.
#include "core/exercises/exercise_export.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "graders/model/error.hpp"

namespace fs = std::filesystem;
using namespace awb;

namespace {

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

core::Exercise parse_clean(const std::string& text, const std::string& label) {
  core::ExerciseLoad load = core::parse_exercise(text, label);
  std::string errors;
  for (const auto& e : load.errors) errors += std::string(e.what()) + "\n";
  INFO(errors);
  REQUIRE(load.errors.empty());
  REQUIRE(load.exercise);
  return std::move(*load.exercise);
}

std::vector<std::string> ids_of(const std::vector<grade::CheckSpec>& checks) {
  std::vector<std::string> ids;
  for (const auto& c : checks) ids.push_back(c.id);
  return ids;
}

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

const fs::path kJourney = fs::path(AWB_TEST_EXERCISE_DIR) / "journey.yaml";

}  // namespace

TEST_CASE("every bundled exercise's student copy holds exactly its visible checks", "[export]") {
  int with_hidden = 0;
  for (const auto& entry : fs::directory_iterator(AWB_TEST_EXERCISE_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().filename().string());
    const std::string text = read_text(entry.path());
    const core::Exercise original = parse_clean(text, entry.path().string());
    const std::string copy_text = core::student_copy(text, entry.path().string(), false);
    const core::Exercise copy = parse_clean(copy_text, "copy of " + entry.path().string());

    std::vector<std::string> visible;
    std::vector<const grade::CheckSpec*> hidden;
    for (const auto& c : original.checks) {
      if (c.visibility == grade::Visibility::kVisible)
        visible.push_back(c.id);
      else
        hidden.push_back(&c);
    }
    CHECK(ids_of(copy.checks) == visible);
    CHECK(contains(copy_text, "# Student copy: " + std::to_string(hidden.size()) + " check(s)"));
    // A hidden check's hint tells its answer; none may reach the copy.
    for (const auto* h : hidden) {
      CHECK_FALSE(contains(copy_text, "id: " + h->id + "\n"));
      for (const auto& c : copy.checks)
        if (!h->hint.empty()) CHECK(c.hint != h->hint);
    }
    // Everything but the checks is the same exercise.
    CHECK(copy.id == original.id);
    CHECK(copy.lesson == original.lesson);
    CHECK(copy.cases.size() == original.cases.size());
    if (!hidden.empty()) ++with_hidden;
  }
  CHECK(with_hidden >= 3);  // the test must not pass for want of hidden checks
}

TEST_CASE("the student copy of journey leaves out the hidden expected values", "[export]") {
  const std::string text = read_text(kJourney);
  REQUIRE(contains(text, "value: [0.4419, 0.6515, 0.5683]"));  // context-of-journey, hidden
  const std::string copy = core::student_copy(text, kJourney.string(), false);
  CHECK(contains(copy, "# Student copy: 2 check(s) not visible to students were left out."));
  CHECK_FALSE(contains(copy, "context-of-journey"));
  CHECK_FALSE(contains(copy, "permutation-equivariant"));
  CHECK_FALSE(contains(copy, "0.4419"));
  CHECK_FALSE(contains(copy, "visibility: hidden"));
  CHECK(contains(copy, "matches-reference"));
  CHECK(contains(copy, "no-guaranteed-self-preference"));
}

TEST_CASE("after_due_date checks reach the student copy only with after_due", "[export]") {
  std::string text = read_text(kJourney);
  const std::string hidden = "    visibility: hidden\n";
  const auto first = text.find(hidden);  // context-of-journey's
  REQUIRE(first != std::string::npos);
  text.replace(first, hidden.size(), "    visibility: after_due_date\n");

  const std::string before = core::student_copy(text, "journey", false);
  CHECK_FALSE(contains(before, "context-of-journey"));
  CHECK_FALSE(contains(before, "0.4419"));

  const std::string after = core::student_copy(text, "journey", true);
  CHECK(contains(after, "# Student copy: 1 check(s)"));
  CHECK(contains(after, "0.4419"));
  CHECK_FALSE(contains(after, "permutation-equivariant"));  // hidden stays hidden
  const core::Exercise copy = parse_clean(after, "journey after due");
  const auto ids = ids_of(copy.checks);
  CHECK(std::find(ids.begin(), ids.end(), "context-of-journey") != ids.end());
}

TEST_CASE("an exercise with no visible check has no student copy", "[export]") {
  const std::string text =
      "id: all-hidden\n"
      "checks:\n"
      "  - id: one\n"
      "    visibility: hidden\n"
      "  - id: two\n"
      "    visibility: after_due_date\n";
  try {
    core::student_copy(text, "all-hidden.yaml", false);
    FAIL("expected exercise.export");
  } catch (const Error& e) {
    CHECK(e.id() == "exercise.export");
    CHECK(contains(e.what(), "all-hidden.yaml"));
    CHECK(contains(e.what(), "no check is visible to students"));
  }
  CHECK(contains(core::student_copy(text, "all-hidden.yaml", true), "id: two"));
}
