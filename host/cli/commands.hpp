// commands.hpp: each awb subcommand registers itself on the CLI11 app.
#ifndef AWB_CLI_COMMANDS_HPP_
#define AWB_CLI_COMMANDS_HPP_

#include <CLI/CLI.hpp>

#include "cli/exit_codes.hpp"

namespace awb::cli {

// Each adds a subcommand whose callback stores its exit code in `exit_code`.
void add_plugins_command(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_exercises_command(CLI::App& app, int& exit_code);
void add_lint_command(CLI::App& app, int& exit_code);
void add_grade_command(CLI::App& app, int& exit_code);
void add_train_command(CLI::App& app, int& exit_code);
void add_bench_command(CLI::App& app, int& exit_code);
void add_compare_command(CLI::App& app, int& exit_code);
void add_page_command(CLI::App& app, int& exit_code);
void add_autograder_command(CLI::App& app, int& exit_code);
void add_build_command(CLI::App& app, int& exit_code);
void add_new_plugin_command(CLI::App& app, int& exit_code);
// `awb grade merge`, a subcommand of grade (which then runs nothing itself: check parsed()).
CLI::App* add_grade_merge_command(CLI::App& grade, int& exit_code);

}  // namespace awb::cli

#endif  // AWB_CLI_COMMANDS_HPP_
