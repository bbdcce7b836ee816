// isolation_options.hpp: the command-line switches every command that loads plugins shares:
// --trusted, --isolation, --min-isolation and the limit overrides.
#ifndef AWB_CLI_ISOLATION_OPTIONS_HPP_
#define AWB_CLI_ISOLATION_OPTIONS_HPP_

#include <CLI/CLI.hpp>
#include <optional>
#include <string>
#include <vector>

#include "core/grading/grading.hpp"
#include "core/plugins/plugin_loader.hpp"

namespace awb::cli {

struct IsolationFlags {
  bool trusted = false;
  std::string isolation = "confined";
  std::string min_isolation = "process";
  std::optional<double> cpu_seconds, wall_seconds;
  std::optional<int64_t> memory_mb;
  int64_t output_kb = 1024;

  core::LoadPolicy load_policy() const;
  core::SessionOptions session() const;
  void apply(core::GradeOptions& grading) const;
};

// --plugin-dir: extra plugin folders or files, each of which must exist.
void add_plugin_dir_option(CLI::App* cmd, std::vector<std::string>& dirs);

// Adds the switches to `cmd`; `with_limits` adds the limit overrides too.
void add_isolation_options(CLI::App* cmd, IsolationFlags& flags, bool with_limits = true);

}  // namespace awb::cli

#endif  // AWB_CLI_ISOLATION_OPTIONS_HPP_
