// grade_inputs.hpp: what `awb grade` and `awb grade merge` both read from the command line: where
// exercises are looked up, the assignment, and who reads the reports (the view); so a class
// graded in shards is merged with the very options it was graded with.
#ifndef AWB_CLI_GRADE_INPUTS_HPP_
#define AWB_CLI_GRADE_INPUTS_HPP_

#include <CLI/CLI.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/grading/assignment.hpp"
#include "graders/report/report.hpp"

namespace awb::cli {

struct GradeInputs {
  std::vector<std::string> exercise_dirs;  // --exercises
  std::string assignment;                  // --assignment: a file or a bundled assignment's name
  std::string view = "student";            // --view
  bool after_due = false;                  // --after-due
  std::vector<std::string> params;         // --param name=value: every exercise's variant.params
};

// Adds --exercises, --assignment (described by `assignment_help`), --view and --after-due;
// returns the --assignment option (for the options it excludes).
CLI::Option* add_grade_input_options(CLI::App* cmd, GradeInputs& inputs,
                                     const std::string& assignment_help);

// The exercises of --exercises and `more` (the bundled folder when both are empty) and the
// assignment, if one is given. Prints every error of a file on stderr; `exit_code` is then
// kExitBadInput and the rest unset. Throws awb::Error("exercise.none_found") when the folders hold
// no exercise and
// ("assignment.not_found") when --assignment names nothing.
struct LoadedInputs {
  core::ExerciseSet set;
  std::optional<core::Assignment> assignment;
  int exit_code = 0;
};
LoadedInputs load_grade_inputs(const GradeInputs& inputs,
                               const std::vector<std::filesystem::path>& more = {});

// Who reads the reports. after_due_date checks show to students with --after-due, or once the
// assignment's due date has passed.
grade::View view_for(const GradeInputs& inputs, const core::Assignment* assignment);

}  // namespace awb::cli

#endif  // AWB_CLI_GRADE_INPUTS_HPP_
