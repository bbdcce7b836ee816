// autograder.tests.cpp: the files an autograder bundle gathers for each platform, and the
// assignment files it refuses.
#include "core/grading/autograder.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/exercises/exercise.hpp"
#include "support/scratch.hpp"
#include "support/test_support.hpp"

namespace fs = std::filesystem;
using awb::test::slurp;
using awb::test::thrown_error_id;
using namespace awb::core;

namespace {

// The fixture assignment over the bundled exercises.
Assignment fixture_assignment(const std::string& file) {
  static const ExerciseSet set = load_exercises({AWB_TEST_EXERCISE_DIR});
  REQUIRE(set.errors.empty());
  AssignmentLoad load = load_assignment(fs::path(AWB_TEST_AUTOGRADER_DIR) / file, set.exercises);
  for (const auto& e : load.errors) UNSCOPED_INFO(e.what());
  REQUIRE(load.errors.empty());
  return std::move(*load.assignment);
}

}  // namespace

TEST_CASE("autograder: a Gradescope bundle holds the scripts, the package and the exercises",
          "[autograder]") {
  const Assignment a = fixture_assignment("course.yaml");
  const fs::path deb = fs::temp_directory_path() / "awb-autograder-test.deb";
  std::ofstream(deb, std::ios::binary) << "!<arch>\ndebian-binary   0 0 0 100644 4 `\n2.0\n";
  const auto files = autograder_files(a, Platform::kGradescope, deb);
  std::map<std::string, const ZipEntry*> by_name;
  for (const auto& f : files) by_name[f.name] = &f;
  CHECK(by_name.size() == files.size());
  const std::map<std::string, bool> expected{{"setup.sh", true},
                                             {"run_autograder", true},
                                             {"grade_submission.sh", true},
                                             {"awb.deb", false},
                                             {"assignment/assignment.yaml", false},
                                             {"exercises/why-qkv.yaml", false},
                                             {"assignment/extra/seeded-qkv.yaml", false}};
  REQUIRE(by_name.size() == expected.size());
  for (const auto& [name, executable] : expected) {
    INFO(name);
    REQUIRE(by_name.count(name) == 1);
    CHECK(by_name[name]->executable == executable);
  }
  // Byte for byte what they were: the assignment, each exercise, the platform's scripts.
  const fs::path fixtures = AWB_TEST_AUTOGRADER_DIR;
  CHECK(by_name["assignment/assignment.yaml"]->content == slurp(fixtures / "course.yaml"));
  CHECK(by_name["assignment/extra/seeded-qkv.yaml"]->content ==
        slurp(fixtures / "extra" / "seeded-qkv.yaml"));
  CHECK(by_name["exercises/why-qkv.yaml"]->content ==
        slurp(fs::path(AWB_TEST_EXERCISE_DIR) / "why-qkv.yaml"));
  CHECK(by_name["run_autograder"]->content ==
        slurp(shipped_contrib_dir() / "gradescope" / "run_autograder"));
  CHECK(by_name["awb.deb"]->content == slurp(deb));

  // Anything but a Debian package is refused before it reaches Gradescope.
  std::ofstream(deb, std::ios::binary) << "#!/bin/sh\n";
  CHECK(thrown_error_id([&] { autograder_files(a, Platform::kGradescope, deb); }) ==
        "autograder.usage");
  fs::remove(deb);
  CHECK(thrown_error_id([&] { autograder_files(a, Platform::kGradescope, deb); }) == "io.read");
}

TEST_CASE("autograder: a PrairieLearn bundle has grade.sh and no package", "[autograder]") {
  std::vector<std::string> names;
  for (const auto& f : autograder_files(fixture_assignment("course.yaml"), Platform::kPrairieLearn))
    names.push_back(f.name);
  CHECK(names == std::vector<std::string>{"grade.sh", "grade_submission.sh",
                                          "assignment/assignment.yaml", "exercises/why-qkv.yaml",
                                          "assignment/extra/seeded-qkv.yaml"});
}

TEST_CASE("autograder: an exercise file outside the assignment's folder is refused",
          "[autograder]") {
  const Assignment a = fixture_assignment("outside.yaml");
  REQUIRE(a.exercises.size() == 1);
  CHECK(a.exercises[0].file_entry == "../../../exercises/scaling.yaml");
  CHECK(thrown_error_id([&] { autograder_files(a, Platform::kPrairieLearn); }) ==
        "autograder.usage");
}
