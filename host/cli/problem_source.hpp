// problem_source.hpp: the input a command runs, named on its command line by --problem,
// --example or --exercise [--case]: one set of options and one reader for `awb run` and
// `awb compare`.
#ifndef AWB_CLI_PROBLEM_SOURCE_HPP_
#define AWB_CLI_PROBLEM_SOURCE_HPP_

#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>
#include <vector>

#include "graders/model/run.hpp"

namespace awb::cli {

struct ProblemSource {
  std::string example;                     // --example
  std::string problem_file;                // --problem
  std::string exercise;                    // --exercise
  std::string case_id;                     // --case
  std::vector<std::string> exercise_dirs;  // --exercises
  std::vector<std::string> params;         // --param name=value, over the source's own values
  bool given() const { return !example.empty() || !problem_file.empty() || !exercise.empty(); }
};

// Adds --example, --problem, --exercise, --case, --exercises (at most one of the first three) and
// --param.
void add_problem_source_options(CLI::App* cmd, ProblemSource& source);

struct LoadedProblem {
  RunInput input;
  std::string label;  // "two-heads.yaml", "example journey", "exercise multi-head, case b"
  std::string exercise_id, case_id;     // empty unless it is an exercise case
  uint64_t reference_capabilities = 0;  // the exercise's; 0: the full reference
};

// Reads the source. A problem file's errors are printed on stderr and the last one thrown (its
// id decides the exit code); an unknown exercise throws "exercise.not_found" with the closest id.
LoadedProblem load_problem(const ProblemSource& source);

}  // namespace awb::cli

#endif  // AWB_CLI_PROBLEM_SOURCE_HPP_
