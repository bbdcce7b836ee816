// exit_codes.hpp: the one table from error ids to exit codes, so that a condition exits the same
// way in every command (docs/errors.md lists every id).
#ifndef AWB_CLI_EXIT_CODES_HPP_
#define AWB_CLI_EXIT_CODES_HPP_

#include <string>

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

// The exit code for an error id: its own row of the table, else the row of its family
// ("problem.*": a file reader's ids), else kExitFailed.
int exit_code_for(const std::string& id);

}  // namespace awb::cli

#endif  // AWB_CLI_EXIT_CODES_HPP_
