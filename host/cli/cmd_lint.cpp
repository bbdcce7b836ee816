// cmd_lint.cpp: `awb lint` validates exercises and assignments, proves the reference earns full
// marks on every check, and prints the mutant × kind matrix (of a set, or under an assignment).
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/exercise_files.hpp"
#include "core/base/atomic_file.hpp"
#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_export.hpp"
#include "core/exercises/questions.hpp"
#include "core/exercises/yaml_reader.hpp"
#include "core/grading/assignment.hpp"
#include "core/grading/grading.hpp"
#include "core/grading/lint.hpp"

namespace awb::cli {
namespace {

struct LintOptions {
  std::vector<std::string> locations;
  std::string assignment;  // --assignment: lint what it grades
  bool mutants = true;
};

// Whether the linted exercises are a whole set (folders, or the bundled set) rather than some
// files picked out of one: a whole set must catch every applicable (mutant, kind) pair of the
// kinds it has exercises of; a few files need not, so there an uncaught pair is reported, not
// failed.
bool whole_set(const std::vector<std::string>& locations) {
  return std::all_of(locations.begin(), locations.end(),
                     [](const std::string& l) { return std::filesystem::is_directory(l); });
}

// The files `awb lint` reads from its locations, folders searched down to their subfolders:
// exercises and assignments apart.
struct LintFiles {
  std::vector<std::filesystem::path> exercises, assignments;
};
LintFiles lint_files(const std::vector<std::filesystem::path>& locations) {
  namespace fs = std::filesystem;
  LintFiles out;
  for (const auto& loc : locations) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (fs::is_directory(loc, ec)) {
      for (const auto& e :
           fs::recursive_directory_iterator(loc, fs::directory_options::skip_permission_denied, ec))
        if (e.path().extension() == ".yaml" || e.path().extension() == ".yml")
          files.push_back(e.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(loc);
    }
    for (auto& f : files)
      (core::is_assignment_file(f) ? out.assignments : out.exercises).push_back(std::move(f));
  }
  return out;
}

// The reference's self-check of each exercise, printed; returns how many it cannot pass (a check
// it fails, or a question without a single answer).
int self_check(const std::vector<const core::Exercise*>& exercises,
               const core::GradeOptions& options) {
  int broken = 0;
  for (const core::Exercise* e : exercises) {
    const core::Exercise& ex = *e;
    const grade::ExerciseReport g = core::reference_self_check(ex, options);
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
  return broken;
}

// One cell of the matrix in words: the numbers of the exercises that catch it, or why none do.
std::string cell_text(const core::LintCell& cell,
                      const std::vector<const core::Exercise*>& exercises, bool whole) {
  switch (cell.state) {
    case core::CellState::kNotApplicable:
      return "n/a";
    case core::CellState::kNotCaught:
      return whole ? "ESCAPES" : "not caught";
    case core::CellState::kNotCovered:
      return "-";
    case core::CellState::kCaught:
      break;
  }
  std::string out;
  for (const auto& id : cell.exercises) {
    const auto it = std::find_if(exercises.begin(), exercises.end(),
                                 [&](const core::Exercise* e) { return e->id == id; });
    out += (out.empty() ? "" : " ") + std::to_string(it - exercises.begin());
  }
  // A catch no student sees at once: * only after the due date, ** never.
  if (cell.seen == core::Seen::kAfterDue) out += " *";
  if (cell.seen == core::Seen::kNever) out += " **";
  return out;
}

std::string kind_list(unsigned kinds) {
  std::string out;
  for (int k = 0; k < mutants::kKindCount; ++k)
    if (kinds & (1u << k)) out += (out.empty() ? "" : ", ") + std::string(mutants::kKindIds[k]);
  return out.empty() ? "none" : out;
}

// The catches a student does not see at once, apart: caught only by after_due_date checks
// (full marks in the student view until `due`), or only by hidden ones (full marks in the student
// view, always).
void print_unseen_catches(const core::Discrimination& d, const std::string& due) {
  int n = 0;
  std::printf("\nCaught only by checks a student does not see:");
  for (const auto& m : d.mutants)
    for (int k = 0; k < mutants::kKindCount; ++k) {
      const core::LintCell& cell = m.cells[size_t(k)];
      if (cell.state != core::CellState::kCaught || cell.seen == core::Seen::kNow) continue;
      if (n++ == 0) std::printf("\n");
      std::string checks;
      for (const auto& c : cell.checks) checks += (checks.empty() ? "" : ", ") + c;
      const std::string kind(mutants::kKindIds[k]);
      if (cell.seen == core::Seen::kAfterDue)
        std::printf(
            "  %s (%s), only by after_due_date checks: %s\n"
            "    a student with this mistake sees full marks in the student view until after the "
            "due date%s\n",
            m.mutant.c_str(), kind.c_str(), checks.c_str(),
            due.empty() ? "" : (" (" + due + ")").c_str());
      else
        std::printf(
            "  %s (%s), only by hidden checks: %s\n"
            "    a student with this mistake sees full marks in the student view, and never a "
            "check it fails\n",
            m.mutant.c_str(), kind.c_str(), checks.c_str());
    }
  if (n == 0) std::printf(" none\n");
}

// Prints the mutant × kind matrix (the kinds linted) and one diagnosis per mutant; returns it
// (its escapes are failures only over a whole set or an assignment).
core::Discrimination print_discrimination(const core::LintScope& scope, bool whole,
                                          const std::string& due) {
  const core::Discrimination d = core::discrimination_check(scope, core::bundled_mutant_dir());
  const auto& exercises = scope.exercises;
  if (d.kinds == 0) {
    std::printf("\nMutants: no kind to lint: %s\n",
                scope.assignment
                    ? "no variant kind of the mutants can run every check the assignment counts"
                    : "no exercise is of a kind the mutants have a variant of (parameter-free, "
                      "qkv, multi-head, causal)");
    return d;
  }
  std::printf(
      "\nMutants x variant kinds: each cell lists the exercises (numbered below) on which the\n"
      "mutant's variant of that kind loses points (* only through after_due_date checks, ** only\n"
      "through hidden ones); n/a: the mistake cannot occur in that kind (or, a mistake of the\n"
      "backward pass, no exercise checks a gradient);\n%s\n",
      whole ? "ESCAPES: no exercise catches it (a failure)."
            : "not caught: the exercises given run that kind and do not catch it.");
  std::printf("Kinds linted: %s%s\n", kind_list(d.kinds).c_str(),
              scope.assignment ? " (the narrowest the assignment grades)"
                               : " (those the exercises are of)");
  for (size_t i = 0; i < exercises.size(); ++i)
    std::printf("  %2zu %s\n", i, exercises[i]->id.c_str());
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
  const auto linted = [&](int k) { return (d.kinds & (1u << k)) != 0; };
  std::printf("\n  %-*s", int(name_width), "mutant");
  for (int k = 0; k < mutants::kKindCount; ++k)
    if (linted(k))
      std::printf("  %-*s", int(width[size_t(k)]), std::string(mutants::kKindIds[k]).c_str());
  std::printf("\n");
  for (size_t i = 0; i < d.mutants.size(); ++i) {
    std::printf("  %-*s", int(name_width), d.mutants[i].mutant.c_str());
    for (int k = 0; k < mutants::kKindCount; ++k)
      if (linted(k)) std::printf("  %-*s", int(width[size_t(k)]), rows[i][size_t(k)].c_str());
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
  print_unseen_catches(d, due);
  return d;
}

// Loads each assignment file against `available` (the exercises its ids name) and says what it
// grades; its errors go to `errors`.
void lint_assignment_files(const std::vector<std::filesystem::path>& files,
                           const std::vector<core::Exercise>& available, const char* where,
                           std::vector<Error>& errors) {
  for (const auto& f : files) {
    core::AssignmentLoad l = core::load_assignment(f, available);
    errors.insert(errors.end(), l.errors.begin(), l.errors.end());
    if (!l.assignment) {
      std::printf("FAIL  assignment %s: %zu problem(s), below\n", f.string().c_str(),
                  l.errors.size());
      continue;
    }
    const core::Assignment& a = *l.assignment;
    std::printf("ok    assignment %s (%s): %zu exercise(s), %g points, ids among %s\n",
                a.id.c_str(), f.string().c_str(), a.exercises.size(), a.max_points(), where);
  }
}

int run_lint_folders(const LintOptions& o) {
  const LintFiles files = lint_files(locations_or_bundled(o.locations));
  const core::ExerciseSet set = core::load_exercises(files.exercises);
  std::vector<Error> errors = set.errors;
  std::vector<const core::Exercise*> exercises;
  for (const auto& e : set.exercises) exercises.push_back(&e);
  const int broken = self_check(exercises, {});
  // An assignment's ids are looked up where `awb grade --assignment` would: among the exercises
  // linted with it (its --exercises), or the bundled ones when there are none.
  if (!files.assignments.empty()) {
    const bool own = !set.exercises.empty();
    const core::ExerciseSet bundled =
        own ? core::ExerciseSet{} : core::load_exercises({core::bundled_exercise_dir()});
    lint_assignment_files(files.assignments, own ? set.exercises : bundled.exercises,
                          own ? "the exercises linted" : "the bundled exercises", errors);
  }
  print_errors(errors);
  const bool whole = whole_set(o.locations);
  core::LintScope scope;
  scope.exercises = exercises;
  scope.kinds = core::declared_kinds(exercises);
  const core::Discrimination d = o.mutants && !exercises.empty()
                                     ? print_discrimination(scope, whole, "")
                                     : core::Discrimination{};
  const int escapes = d.escapes();
  std::printf(
      "\n%d exercise file(s), %zu exercise(s) loaded, %zu assignment(s), %zu problem(s), %d "
      "exercise(s) the reference cannot pass, ",
      set.files, set.exercises.size(), files.assignments.size(), errors.size(), broken);
  if (whole)
    std::printf("%d applicable (mutant, kind) pair(s) escaping the set\n", escapes);
  else
    std::printf(
        "%d applicable (mutant, kind) pair(s) not caught by the given files (not a failure of a "
        "subset)\n",
        escapes);
  if (!errors.empty()) return kExitBadInput;
  return broken || (whole && escapes) ? kExitFailed : kExitOk;
}

// `awb lint --assignment A`: what the assignment grades, as it grades it.
int run_lint_assignment(const LintOptions& o) {
  // Its ids are looked up among the exercises of the locations, subfolders too, as the lint of
  // a folder looks them up (assignment files there are not exercises).
  const core::ExerciseSet set =
      core::load_exercises(lint_files(locations_or_bundled(o.locations)).exercises);
  print_errors(set.errors);
  if (!set.errors.empty()) return kExitBadInput;
  const auto file = core::find_assignment(o.assignment);
  const core::AssignmentLoad l = core::load_assignment(file, set.exercises);
  print_errors(l.errors);
  if (!l.assignment) return kExitBadInput;
  const core::Assignment& a = *l.assignment;
  std::printf("assignment %s (%s): %zu exercise(s), %g points\n", a.id.c_str(),
              file.string().c_str(), a.exercises.size(), a.max_points());
  const std::vector<const core::Exercise*> exercises = a.exercise_list();
  const int broken = self_check(exercises, core::under_assignment(a, nullptr, {}));
  core::LintScope scope;
  scope.exercises = exercises;
  scope.assignment = &a;
  const std::string due = a.due ? core::format_utc_time(*a.due) : "";
  const core::Discrimination d =
      o.mutants ? print_discrimination(scope, true, due) : core::Discrimination{};
  const int escapes = d.escapes();
  std::printf(
      "\nassignment %s: %d exercise(s) the reference cannot pass, %d applicable (mutant, kind) "
      "pair(s) escaping it\n",
      a.id.c_str(), broken, escapes);
  // An assignment no mutant kind can be graded under proves nothing of its exercises.
  return broken || escapes || (o.mutants && d.kinds == 0) ? kExitFailed : kExitOk;
}

int run_lint(const LintOptions& o) {
  return o.assignment.empty() ? run_lint_folders(o) : run_lint_assignment(o);
}

}  // namespace

void add_lint_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<LintOptions>();
  CLI::App* cmd = app.add_subcommand(
      "lint",
      "Validate exercise and assignment files (folders are searched with their subfolders) and\n"
      "run each exercise's self-check: the reference kernels must earn full points on every\n"
      "check. Every problem in a file is reported, each with an id and file:line:column. Then\n"
      "grades every shipped mutant's variant of each kind the exercises are of and prints the\n"
      "mutant x kind matrix. With --assignment, lints what the assignment grades, as it grades\n"
      "it, in the kinds it grades. Exits 3 when a file is invalid, 1 when the reference fails a\n"
      "check or, for a whole set (folders; the bundled set by default) or an assignment, when an\n"
      "applicable (mutant, kind) pair escapes every exercise.");
  cmd->add_option("locations", opts->locations,
                  "Exercise and assignment folders or files (default: bundled); with "
                  "--assignment, where its exercise ids are looked up");
  cmd->add_option("--assignment", opts->assignment,
                  "Lint under an assignment (a file, or a bundled one: parameter-free, qkv,\n"
                  "multi-head, causal): its checks and points, the kinds it grades, and the\n"
                  "mistakes only its hidden or after-due checks catch");
  cmd->add_flag("!--no-mutants", opts->mutants, "Skip the mutant discrimination check");
  cmd->callback([opts, &exit_code] { exit_code = run_lint(*opts); });
}

}  // namespace awb::cli
