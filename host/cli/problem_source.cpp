// problem_source.cpp: --problem, --example and --exercise read into a RunInput.
#include "cli/problem_source.hpp"

#include <iostream>

#include "cli/param_options.hpp"
#include "core/exercises/exercise.hpp"
#include "core/exercises/problem_file.hpp"
#include "core/grading/subject_factory.hpp"

namespace awb::cli {

void add_problem_source_options(CLI::App* cmd, ProblemSource& s) {
  auto* ex = cmd->add_option("--example", s.example, "A built-in problem by name: journey");
  auto* pf = cmd->add_option("--problem", s.problem_file,
                             "A problem file: YAML, an .npz of NumPy arrays X (required), W_q, "
                             "W_k, W_v, W_o, heads, causal, sharpness, or an .npy (X alone)")
                 ->check(CLI::ExistingFile);
  auto* ee = cmd->add_option("--exercise", s.exercise, "An exercise id (its first case)");
  ex->excludes(pf)->excludes(ee);
  pf->excludes(ee);
  cmd->add_option("--case", s.case_id, "Which case of the exercise, by id (default: the first)")
      ->needs(ee);
  cmd->add_option("--exercises", s.exercise_dirs,
                  "Exercise folders or files (default: the bundled exercises)");
  add_param_option(cmd, &s.params);
}

namespace {

LoadedProblem read_source(const ProblemSource& s) {
  LoadedProblem out;
  if (!s.exercise.empty()) {
    std::vector<std::filesystem::path> dirs(s.exercise_dirs.begin(), s.exercise_dirs.end());
    if (dirs.empty()) dirs.push_back(core::bundled_exercise_dir());
    const core::ExerciseSet set = core::load_exercises(dirs);
    for (const auto& ex : set.exercises) {
      if (ex.id != s.exercise) continue;
      out.input = core::case_input(ex, s.case_id);
      out.exercise_id = ex.id;
      out.case_id = s.case_id.empty() ? ex.cases.front().id : s.case_id;
      out.reference_capabilities = ex.reference_capabilities;
      out.label = "exercise " + ex.id + (ex.cases.size() > 1 ? ", case " + out.case_id : "");
      return out;
    }
    for (const auto& e : set.errors) std::cerr << e.what() << '\n';
    throw core::unknown_exercise(set, s.exercise);
  }
  if (s.problem_file.empty()) {
    out.input = single_layer(core::example_problem(s.example));
    out.label = "example " + s.example;
    return out;
  }
  // Every problem of the file at once; the last one is thrown for the exit code.
  core::ProblemLoad l = core::read_problem_file(s.problem_file);
  if (!l.problem) {
    for (size_t i = 0; i + 1 < l.errors.size(); ++i)
      std::cerr << "awb: " << l.errors[i].what() << '\n';
    throw l.errors.back();
  }
  out.input = single_layer(*l.problem);
  out.label = s.problem_file;
  return out;
}

}  // namespace

LoadedProblem load_problem(const ProblemSource& s) {
  LoadedProblem out = read_source(s);
  apply_params(out.input.params.variant, s.params);
  return out;
}

}  // namespace awb::cli
