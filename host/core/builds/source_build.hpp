// source_build.hpp: building a source submission (a CMake project) into plugins, in the build
// sandbox (awb-builder), once per source tree: the outcome is cached by the tree's digest and the
// SDK's version, so a resumed batch or a second grading does not build again.
#ifndef AWB_CORE_BUILDS_SOURCE_BUILD_HPP_
#define AWB_CORE_BUILDS_SOURCE_BUILD_HPP_

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

namespace awb::core {

// What one build may take. The wall clock, the output and the disk are the host's to watch; the
// rest are rlimits of every process of the build.
struct BuildLimits {
  double wall_seconds = 600;
  double cpu_seconds = 300;  // per process
  int64_t memory_mb = 4096;  // address space per process
  int64_t disk_mb = 1024;    // the build folder, sources included
  int64_t output_kb = 4096;  // what the build prints
  int64_t processes = 256;   // at once
  int64_t source_mb = 64;    // the submission's files
  int jobs = 2;              // parallel compile jobs
};

struct BuildOutcome {
  bool built = false;
  std::string reason;  // why not: "build failed: the build step failed", "build stopped: ..."
  std::string errors;  // the first compiler errors, paths inside the submission
  std::filesystem::path plugins;  // the built *.so files (a folder of the cache)
  std::filesystem::path log;      // the build's output, capped
  std::string key;                // the cache entry's name
  bool cached = false;            // taken from the cache, not built now
  double seconds = 0;             // of this call
};

// The version of the SDK builds are made against, part of every cache key.
std::string sdk_version_text();

// The cache key of the tree at `source`. Throws what source_tree_digest throws.
std::string build_key(const std::filesystem::path& source, const BuildLimits& limits);

// Builds `source` into `cache`/<key>/ (plugins/, build.log, outcome) unless that entry exists.
// A failure of the student's project is an outcome (built false, with the reason and errors);
// what is the grader's own fault throws awb::Error: "build.sandbox_failed" (awb-builder could not
// lock down or start; nothing is cached), "io.write", "build.source_too_large" (not cached:
// cheap to tell again). `progress` hears each line the build prints.
BuildOutcome build_source(const std::filesystem::path& source, const std::filesystem::path& cache,
                          const BuildLimits& limits,
                          const std::function<void(const std::string&)>& progress = {});

// The one-paragraph text of a failed outcome for feedback: the reason, then the errors.
std::string build_failure_text(const BuildOutcome& outcome);

}  // namespace awb::core

#endif  // AWB_CORE_BUILDS_SOURCE_BUILD_HPP_
