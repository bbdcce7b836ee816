// time_options.hpp: --submitted-at and --extensions, the same in `awb grade --batch` and in
// `awb grade merge` (which computes lateness again from them).
#ifndef AWB_CLI_TIME_OPTIONS_HPP_
#define AWB_CLI_TIME_OPTIONS_HPP_

#include <CLI/CLI.hpp>

#include "core/grading/submission_times.hpp"

namespace awb::cli {

inline void add_time_options(CLI::App* cmd, core::TimeFiles& files) {
  cmd->add_option("--submitted-at", files.submitted_at,
                  "With --assignment: a CSV of the submissions' times (header\n"
                  "submission,submitted_at; times in UTC like 2026-12-15T21:04:00Z), from the LMS\n"
                  "or platform; lateness is computed from them, not from the files' times")
      ->check(CLI::ExistingFile);
  cmd->add_option(
         "--extensions", files.extensions,
         "With --assignment: a CSV of per-student extensions (header submission,extension;\n"
         "a new due date in UTC, or a whole number of extra days)")
      ->check(CLI::ExistingFile);
}

}  // namespace awb::cli

#endif  // AWB_CLI_TIME_OPTIONS_HPP_
