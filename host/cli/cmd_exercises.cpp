// cmd_exercises.cpp: `awb exercises [DIR...]` lists exercises; `awb lint` validates them and
// proves the reference earns full marks on every check.
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "core/exercise.hpp"
#include "core/exercise_export.hpp"
#include "core/grading.hpp"
#include "core/lint.hpp"

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

struct ExportOptions {
  std::vector<std::string> locations;
  std::string student_dir;
  bool after_due = false;
};

int run_export(const ExportOptions& o) {
  const core::ExerciseSet set = core::load_exercises(locations_or_bundled(o.locations));
  print_errors(set.errors);
  if (!set.errors.empty()) return kExitBadInput;
  std::filesystem::create_directories(o.student_dir);
  for (const auto& ex : set.exercises) {
    std::ifstream in(ex.file, std::ios::binary);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const auto out = std::filesystem::path(o.student_dir) / ex.file.filename();
    core::write_file_atomic(out, core::student_copy(text, ex.file.string(), o.after_due));
    std::printf("wrote %s\n", out.string().c_str());
  }
  return kExitOk;
}

struct LintOptions {
  std::vector<std::string> locations;
  bool mutants = true;
};

// Prints which exercises catch each mutant; returns nothing: escapes are warnings, since one
// file alone need not catch every mistake.
void print_discrimination(const std::vector<core::Exercise>& exercises) {
  const core::Discrimination d = core::discrimination_check(exercises, core::bundled_mutant_dir());
  std::printf("\nMutants (each carries one classic mistake; an exercise set should catch all):\n");
  for (const auto& m : d.mutants) {
    if (!m.load_error.empty()) {
      std::printf("  %-32s did not load: %s\n", m.mutant.c_str(), m.load_error.c_str());
      continue;
    }
    if (m.caught_by.empty()) {
      std::printf("  %-32s ESCAPES every exercise: no check fails it\n", m.mutant.c_str());
      continue;
    }
    std::string where;
    for (const auto& c : m.caught_by) where += (where.empty() ? "" : ", ") + c.exercise;
    std::printf("  %-32s caught by %zu exercise(s): %s\n", m.mutant.c_str(), m.caught_by.size(),
                where.c_str());
    const auto& first = m.caught_by.front();
    std::printf("  %-32s   e.g. %s/%s: %s\n", "", first.exercise.c_str(), first.check.c_str(),
                first.summary.c_str());
    if (!first.diagnosis.empty())
      std::printf("  %-32s   diagnosis: %s\n", "", first.diagnosis.c_str());
  }
  for (const auto& id : d.uncatchable_exercises)
    std::printf("  flagged: no mutant loses points on exercise '%s'\n", id.c_str());
}

int run_lint(const LintOptions& o) {
  const core::ExerciseSet set = core::load_exercises(locations_or_bundled(o.locations));
  print_errors(set.errors);
  int broken = 0;
  for (const auto& ex : set.exercises) {
    const grade::ExerciseReport g = core::reference_self_check(ex);
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
  if (o.mutants && !set.exercises.empty()) print_discrimination(set.exercises);
  std::printf(
      "\n%d file(s), %zu exercise(s) loaded, %zu problem(s), %d exercise(s) the reference "
      "cannot pass\n",
      set.files, set.exercises.size(), set.errors.size(), broken);
  if (!set.errors.empty()) return kExitBadInput;
  return broken ? kExitFailed : kExitOk;
}

}  // namespace

void add_exercises_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ListOptions>();
  CLI::App* cmd =
      app.add_subcommand("exercises",
                         "List exercises: id, variant kind, number of checks, points, title.\n"
                         "With no DIR, lists the bundled exercises. Exits 3 if a file is invalid.");
  cmd->add_option("locations", opts->locations, "Exercise folders or files");
  cmd->add_option("--format", opts->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  auto eopts = std::make_shared<ExportOptions>();
  CLI::App* ex = cmd->add_subcommand(
      "export",
      "Write the copies students receive: hidden checks (and after_due_date ones,\n"
      "unless --after-due) left out; every copy is still a valid exercise.");
  ex->add_option("locations", eopts->locations, "Exercise folders or files (default: bundled)");
  ex->add_option("--student", eopts->student_dir, "Folder to write the student copies into")
      ->required();
  ex->add_flag("--after-due", eopts->after_due, "Keep after_due_date checks");
  ex->callback([eopts, &exit_code] { exit_code = run_export(*eopts); });
  cmd->callback([opts, ex, &exit_code] {
    if (!ex->parsed()) exit_code = run_list(*opts);
  });
}

void add_lint_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<LintOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lint",
      "Validate exercise files and run their self-check: the reference kernels must earn full\n"
      "points on every check. Every problem in a file is reported, each with an id and\n"
      "file:line:column. Exits 3 when a file is invalid, 1 when the reference fails a check.");
  cmd->add_option("locations", opts->locations, "Exercise folders or files (default: bundled)");
  cmd->add_flag("!--no-mutants", opts->mutants, "Skip the mutant discrimination check");
  cmd->callback([opts, &exit_code] { exit_code = run_lint(*opts); });
}

}  // namespace awb::cli
