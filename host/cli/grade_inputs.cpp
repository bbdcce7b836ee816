// grade_inputs.cpp: the options awb grade and awb grade merge share, and loading what they name.
#include "cli/grade_inputs.hpp"

#include <ctime>
#include <iostream>

#include "cli/exit_codes.hpp"
#include "cli/param_options.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {
CLI::Option* add_grade_input_options(CLI::App* cmd, GradeInputs& inputs,
                                     const std::string& assignment_help) {
  cmd->add_option("--exercises", inputs.exercise_dirs, "Where exercise ids are looked up");
  CLI::Option* assignment = cmd->add_option("--assignment", inputs.assignment, assignment_help);
  cmd->add_option("--view", inputs.view, "student (hidden checks left out) or instructor")
      ->check(CLI::IsMember({"student", "instructor"}))
      ->capture_default_str();
  cmd->add_flag("--after-due", inputs.after_due,
                "Show after_due_date checks to students (with an assignment: also once its due "
                "date has passed)");
  add_param_option(cmd, &inputs.params);
  return assignment;
}

LoadedInputs load_grade_inputs(const GradeInputs& inputs,
                               const std::vector<std::filesystem::path>& more) {
  std::vector<std::filesystem::path> locations(inputs.exercise_dirs.begin(),
                                               inputs.exercise_dirs.end());
  locations.insert(locations.end(), more.begin(), more.end());
  if (locations.empty()) locations.push_back(core::bundled_exercise_dir());
  LoadedInputs out;
  out.set = core::load_exercises(locations);
  for (const auto& e : out.set.errors) std::cerr << e.what() << '\n';
  if (!out.set.errors.empty()) {
    out.exit_code = kExitBadInput;
    return out;
  }
  // --param overrides what the exercises say: for the reference and the submission alike.
  for (auto& ex : out.set.exercises) apply_params(ex.parameters.variant, inputs.params);
  if (out.set.exercises.empty())
    throw Error("exercise.none_found", locations.front().string(),
                "no exercise file (*.yaml, *.yml) here: nothing to grade");
  if (inputs.assignment.empty()) return out;
  core::AssignmentLoad load =
      core::load_assignment(core::find_assignment(inputs.assignment), out.set.exercises);
  for (const auto& e : load.errors) std::cerr << e.what() << '\n';
  if (!load.errors.empty())
    out.exit_code = kExitBadInput;
  else
    out.assignment = std::move(load.assignment);
  return out;
}

grade::View view_for(const GradeInputs& inputs, const core::Assignment* assignment) {
  const bool past_due =
      assignment != nullptr && assignment->due && std::time(nullptr) > *assignment->due;
  return grade::View{inputs.view == "instructor", inputs.after_due || past_due};
}

}  // namespace awb::cli
