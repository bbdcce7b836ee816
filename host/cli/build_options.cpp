// build_options.cpp: the build sandbox's options, checked and documented once.
#include "cli/build_options.hpp"

#include <cstdlib>
#include <iostream>
#include <sstream>

#include "cli/validators.hpp"
#include "graders/report/format.hpp"

namespace awb::cli {

void add_build_options(CLI::App* cmd, BuildFlags& f, const std::string& cache_default) {
  core::BuildLimits& l = f.limits;
  const std::string group = "Building source submissions (a CMake project in the folder)";
  cmd->add_option("--build-wall-limit", l.wall_seconds, "Wall-clock seconds one build may take")
      ->check(InRange(1, 86400, "seconds"))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--build-cpu-limit", l.cpu_seconds, "CPU seconds of each process of a build")
      ->check(InRange(1, 86400, "seconds"))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--build-memory-limit", l.memory_mb,
                  "Address space of each process of a build, in MB")
      ->check(CLI::Range(int64_t{256}, int64_t{1} << 20))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--build-disk-limit", l.disk_mb,
                  "MiB a build's folder may take (sources, objects, plugins)")
      ->check(CLI::Range(int64_t{16}, int64_t{1} << 20))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--build-output-limit", l.output_kb, "KiB a build may print before it is stopped")
      ->check(CLI::Range(int64_t{16}, int64_t{1} << 20))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--build-jobs", l.jobs, "Parallel compile jobs of one build")
      ->check(CLI::Range(1, 256))
      ->capture_default_str()
      ->group(group);
  cmd->add_option("--build-cache", f.cache,
                  "Where built submissions are kept, by a hash of their sources and the SDK "
                  "version (default: " +
                      cache_default + ")")
      ->group(group);
}

std::string user_build_cache() {
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg != nullptr && *xdg == '/')
    return std::string(xdg) + "/awb/builds";
  const char* home = std::getenv("HOME");
  return std::string(home != nullptr && *home != '\0' ? home : "/tmp") + "/.cache/awb/builds";
}

core::BuildOutcome build_submission(const std::filesystem::path& folder, const BuildFlags& flags,
                                    bool echo) {
  const std::filesystem::path cache = flags.cache.empty() ? user_build_cache() : flags.cache;
  std::cerr << "building " << grade::terminal_text(folder.string())
            << " in the build sandbox ...\n";
  auto print = [&](const std::string& line) {
    if (echo) std::cerr << "  | " << grade::terminal_text(line) << '\n';
  };
  core::BuildOutcome out = core::build_source(folder, cache, flags.limits, print);
  if (!out.built) {
    std::cerr << grade::terminal_text(out.reason) << '\n';
    std::istringstream errors(out.errors);
    for (std::string line; std::getline(errors, line);)
      std::cerr << "  " << grade::terminal_text(line) << '\n';
    if (!out.log.empty()) std::cerr << "the whole log: " << out.log.string() << '\n';
  }
  return out;
}

}  // namespace awb::cli
