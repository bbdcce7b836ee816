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

// Builds the source submission `folder` in the build sandbox into the cache of `flags` (the
// user's cache when none is given), saying on stderr what it does and, when it did not build,
// why (the reason, the first compiler errors and where the log is). `echo` prints every line the
// build writes. The outcome; what is the grader's own fault throws (build_source's errors).
core::BuildOutcome build_submission(const std::filesystem::path& folder, const BuildFlags& flags,
                                    bool echo = false);

}  // namespace awb::cli

#endif  // AWB_CLI_BUILD_OPTIONS_HPP_
