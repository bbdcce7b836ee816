// cmd_exercises.cpp: `awb exercises [DIR...]` lists exercises; `awb lint` validates them, proves
// the reference earns full marks on every check, and prints the mutant × kind matrix.
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "core/base/atomic_file.hpp"
#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_export.hpp"
#include "core/exercises/questions.hpp"
#include "core/exercises/yaml_reader.hpp"
#include "core/grading/grading.hpp"
#include "core/grading/lint.hpp"

namespace awb::cli {
namespace {

std::vector<std::filesystem::path> locations_or_bundled(const std::vector<std::string>& given) {
  if (given.empty()) return {core::bundled_exercise_dir()};
  return {given.begin(), given.end()};
}

// Problems of the files are errors: on stderr, whatever the command prints on stdout.
void print_errors(const std::vector<Error>& errors) {
  for (const auto& e : errors) std::cerr << e.what() << '\n';
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
      std::cerr << "\nProblems:\n";
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
    std::vector<Error> errors;
    const auto text = core::read_yaml_file(ex.file, "exercise", errors);
    if (!text) throw errors.front();  // the file changed since it was loaded
    const auto out = std::filesystem::path(o.student_dir) / ex.file.filename();
    core::write_file_atomic(out, core::student_copy(*text, ex.file.string(), o.after_due));
    std::printf("wrote %s\n", out.string().c_str());
  }
  return kExitOk;
}

struct LintOptions {
  std::vector<std::string> locations;
  bool mutants = true;
};

// Whether the linted exercises are a whole set (folders, or the bundled set) rather than some
// files picked out of one: a whole set must catch every applicable (mutant, kind) pair; a few
// files need not, so there an uncaught pair is reported, not failed.
bool whole_set(const std::vector<std::string>& locations) {
  return std::all_of(locations.begin(), locations.end(),
                     [](const std::string& l) { return std::filesystem::is_directory(l); });
}

// One cell of the matrix in words: the numbers of the exercises that catch it, or why none do.
std::string cell_text(const core::LintCell& cell, const std::vector<core::Exercise>& exercises,
                      bool whole) {
  switch (cell.state) {
    case core::CellState::kNotApplicable:
      return "n/a";
    case core::CellState::kNotCaught:
      return whole ? "ESCAPES" : "not caught";
    case core::CellState::kNotCovered:
      return whole ? "ESCAPES" : "-";
    case core::CellState::kCaught:
      break;
  }
  std::string out;
  for (const auto& id : cell.exercises) {
    const auto it = std::find_if(exercises.begin(), exercises.end(),
                                 [&](const core::Exercise& e) { return e.id == id; });
    out += (out.empty() ? "" : " ") + std::to_string(it - exercises.begin());
  }
  return out;
}

// Prints the mutant × kind matrix and one diagnosis per mutant; returns it (its escapes are
// failures only over a whole set).
core::Discrimination print_discrimination(const std::vector<core::Exercise>& exercises,
                                          bool whole) {
  const core::Discrimination d = core::discrimination_check(exercises, core::bundled_mutant_dir());
  std::printf(
      "\nMutants x variant kinds: each cell lists the exercises (numbered below) on which the\n"
      "mutant's variant of that kind loses points; n/a: the mistake cannot occur in that kind;\n"
      "%s\n",
      whole ? "ESCAPES: no exercise of the set catches it (a failure)."
            : "not caught: the exercises given run that kind and do not catch it; -: none of them "
              "runs that kind.");
  for (size_t i = 0; i < exercises.size(); ++i)
    std::printf("  %2zu %s\n", i, exercises[i].id.c_str());
  std::vector<std::array<std::string, mutants::kKindCount>> rows;
  size_t name_width = 6;
  std::array<size_t, mutants::kKindCount> width{};
  for (int k = 0; k < mutants::kKindCount; ++k) width[size_t(k)] = mutants::kKindIds[k].size();
  for (const auto& m : d.mutants) {
    name_width = std::max(name_width, m.mutant.size());
    auto& row = rows.emplace_back();
    for (int k = 0; k < mutants::kKindCount; ++k) {
      row[size_t(k)] = cell_text(m.cells[size_t(k)], exercises, whole);
      width[size_t(k)] = std::max(width[size_t(k)], row[size_t(k)].size());
    }
  }
  std::printf("\n  %-*s", int(name_width), "mutant");
  for (int k = 0; k < mutants::kKindCount; ++k)
    std::printf("  %-*s", int(width[size_t(k)]), std::string(mutants::kKindIds[k]).c_str());
  std::printf("\n");
  for (size_t i = 0; i < d.mutants.size(); ++i) {
    std::printf("  %-*s", int(name_width), d.mutants[i].mutant.c_str());
    for (int k = 0; k < mutants::kKindCount; ++k)
      std::printf("  %-*s", int(width[size_t(k)]), rows[i][size_t(k)].c_str());
    std::printf("\n");
  }
  std::printf("\nWhat a student with each mistake reads first:\n");
  for (const auto& m : d.mutants) {
    if (!m.load_error.empty()) {
      std::printf("  %s did not load: %s\n", m.mutant.c_str(), m.load_error.c_str());
      continue;
    }
    if (m.caught_by.empty()) continue;
    const auto& first = m.caught_by.front();
    const std::string& text = first.diagnosis.empty() ? first.summary : first.diagnosis;
    std::printf("  %s (%s) on %s/%s: %s\n", m.mutant.c_str(), first.kind.c_str(),
                first.exercise.c_str(), first.check.c_str(), text.c_str());
  }
  for (const auto& id : d.uncatchable_exercises)
    std::printf("  flagged: no mutant loses points on exercise '%s'\n", id.c_str());
  return d;
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
    // Each question's answer as the reference gives it: what the file implies, for its author
    // to read, and a tie is a question without an answer.
    bool answered = true;
    for (const auto& q : ex.questions) {
      const core::QuestionTruth t = core::reference_truth(ex, q);
      if (t.answer >= 0) {
        std::printf("      ask    %-34s answer: %s\n", q.id.c_str(),
                    core::answer_name(ex, q, t.answer).c_str());
      } else {
        std::printf("      FAIL   %-34s no single answer: the largest weights tie\n", q.id.c_str());
        answered = false;
      }
    }
    broken += !full || !answered;
  }
  const bool whole = whole_set(o.locations);
  const core::Discrimination d = o.mutants && !set.exercises.empty()
                                     ? print_discrimination(set.exercises, whole)
                                     : core::Discrimination{};
  const int escapes = d.escapes();
  std::printf(
      "\n%d file(s), %zu exercise(s) loaded, %zu problem(s), %d exercise(s) the reference "
      "cannot pass, ",
      set.files, set.exercises.size(), set.errors.size(), broken);
  if (whole)
    std::printf("%d applicable (mutant, kind) pair(s) escaping the set\n", escapes);
  else
    std::printf(
        "%d applicable (mutant, kind) pair(s) not caught by the given files and %d in kinds they "
        "do not run (neither is a failure of a subset)\n",
        d.count(core::CellState::kNotCaught), d.count(core::CellState::kNotCovered));
  if (!set.errors.empty()) return kExitBadInput;
  return broken || (whole && escapes) ? kExitFailed : kExitOk;
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
      "file:line:column. Then grades every shipped mutant's variant of each kind on every\n"
      "exercise and prints the mutant x kind matrix. Exits 3 when a file is invalid, 1 when\n"
      "the reference fails a check or, for a whole set (folders; the bundled set by default),\n"
      "when an applicable (mutant, kind) pair escapes every exercise.");
  cmd->add_option("locations", opts->locations, "Exercise folders or files (default: bundled)");
  cmd->add_flag("!--no-mutants", opts->mutants, "Skip the mutant discrimination check");
  cmd->callback([opts, &exit_code] { exit_code = run_lint(*opts); });
}

}  // namespace awb::cli
