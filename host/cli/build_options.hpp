// build_options.hpp: the options of the build sandbox, the same in `awb build` and in
// `awb grade --batch` (which builds source submissions before grading them).
#ifndef AWB_CLI_BUILD_OPTIONS_HPP_
#define AWB_CLI_BUILD_OPTIONS_HPP_

#include <CLI/CLI.hpp>
#include <string>

#include "core/builds/source_build.hpp"

namespace awb::cli {

struct BuildFlags {
  core::BuildLimits limits;
  std::string cache;  // empty: the command's default
};

// Adds --build-wall-limit, --build-cpu-limit, --build-memory-limit, --build-disk-limit,
// --build-output-limit, --build-jobs and --build-cache (whose default `cache_default` says).
void add_build_options(CLI::App* cmd, BuildFlags& flags, const std::string& cache_default);

// ~/.cache/awb/builds (XDG_CACHE_HOME when set).
std::string user_build_cache();

}  // namespace awb::cli

#endif  // AWB_CLI_BUILD_OPTIONS_HPP_
