// cmd_exercises.cpp: `awb exercises [DIR...]` lists exercises; `awb lint` validates them and
// proves the reference earns full marks on every check.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/exercise.hpp"
#include "core/grading.hpp"
#include "core/subjects.hpp"

namespace awb::cli {
namespace {

std::vector<std::filesystem::path> locations_or_bundled(const std::vector<std::string>& given) {
  if (given.empty()) return {core::bundled_exercise_dir()};
  return {given.begin(), given.end()};
}

void print_errors(const std::vector<Error>& errors) {
  for (const auto& e : errors) std::cout << e.what() << '\n';
}

struct ListOptions {
  std::vector<std::string> locations;
  std::string format = "text";
};

int run_list(const ListOptions& o) {
  const core::ExerciseSet set = core::load_exercises(locations_or_bundled(o.locations));
  if (o.format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& ex : set.exercises)
      j.push_back({{"id", ex.id},
                   {"title", ex.title},
                   {"variant", core::to_string(ex.kind)},
                   {"checks", ex.checks.size()},
                   {"points", ex.max_points()},
                   {"file", ex.file.string()}});
    std::cout << nlohmann::json{{"exercises", j}, {"errors", set.errors.size()}}.dump(2) << '\n';
  } else {
    std::printf("%-20s %-15s %7s %7s  %s\n", "id", "variant", "checks", "points", "title");
    for (const auto& ex : set.exercises)
      std::printf("%-20s %-15s %7zu %7g  %s\n", ex.id.c_str(), core::to_string(ex.kind),
                  ex.checks.size(), ex.max_points(), ex.title.c_str());
    std::fflush(stdout);
    if (!set.errors.empty()) {
      std::cout << "\nProblems:\n";
      print_errors(set.errors);
    }
  }
  return set.errors.empty() ? kExitOk : kExitBadInput;
}

struct LintOptions {
  std::vector<std::string> locations;
};

int run_lint(const LintOptions& o) {
  const core::ExerciseSet set = core::load_exercises(locations_or_bundled(o.locations));
  print_errors(set.errors);
  int broken = 0;
  for (const auto& ex : set.exercises) {
    core::ReferenceSubject reference(ex.reference_capabilities);
    const core::ExerciseGrade g = core::grade_exercise(ex, reference);
    const bool full = g.score == ex.max_points();
    std::printf("%s  %s (%s, %zu checks): reference scores %g / %g\n", full ? "ok  " : "FAIL",
                ex.id.c_str(), ex.file.string().c_str(), ex.checks.size(), g.score,
                ex.max_points());
    for (const auto& c : g.checks) {
      const bool passed = c.status == grade::Status::kPassed;
      std::printf("      %-6s %-34s %-9s %-24s %s\n", passed ? "pass" : "FAIL", c.id.c_str(),
                  grade::to_string(c.kind), c.name.c_str(), grade::to_string(c.visibility));
      if (!passed) {
        std::printf("             the reference itself fails this check: %s\n", c.summary.c_str());
        if (!c.details.empty()) std::printf("%s", c.details.c_str());
      }
    }
    broken += !full;
  }
  std::printf("\n%d file(s), %zu exercise(s) loaded, %zu problem(s), %d exercise(s) the reference "
              "cannot pass\n",
              set.files, set.exercises.size(), set.errors.size(), broken);
  if (!set.errors.empty()) return kExitBadInput;
  return broken ? kExitFailed : kExitOk;
}

}  // namespace

void add_exercises_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ListOptions>();
  CLI::App* cmd = app.add_subcommand(
      "exercises", "List exercises: id, variant kind, number of checks, points, title.\n"
                   "With no DIR, lists the bundled exercises. Exits 3 if a file is invalid.");
  cmd->add_option("locations", opts->locations, "Exercise folders or files");
  cmd->add_option("--format", opts->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->callback([opts, &exit_code] { exit_code = run_list(*opts); });
}

void add_lint_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<LintOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lint",
      "Validate exercise files and run their self-check: the reference kernels must earn full\n"
      "points on every check. Every problem in a file is reported, each with an id and\n"
      "file:line:column. Exits 3 when a file is invalid, 1 when the reference fails a check.");
  cmd->add_option("locations", opts->locations, "Exercise folders or files (default: bundled)");
  cmd->callback([opts, &exit_code] { exit_code = run_lint(*opts); });
}

}  // namespace awb::cli
