// commands.hpp: each awb subcommand registers itself on the CLI11 app.
#ifndef AWB_CLI_COMMANDS_HPP_
#define AWB_CLI_COMMANDS_HPP_

#include <CLI/CLI.hpp>

namespace awb::cli {

// Documented exit codes (also printed by `awb --help`).
enum ExitCode : int {
  kExitOk = 0,
  kExitFailed = 1,       // the requested work ran and failed (a plugin call failed, ...)
  kExitUsage = 2,        // bad command line
  kExitBadInput = 3,     // a problem or exercise file is invalid
  kExitPluginError = 4,  // a plugin could not be loaded or the variant was not found
  kExitCannotRun = 5,    // the variant's capabilities do not cover the problem
};

// Each adds a subcommand whose callback stores its exit code in `exit_code`.
void add_plugins_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_exercises_command(CLI::App& app, int& exit_code);
void add_lint_command(CLI::App& app, int& exit_code);
void add_grade_command(CLI::App& app, int& exit_code);
void add_train_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);

}  // namespace awb::cli

#endif  // AWB_CLI_COMMANDS_HPP_
