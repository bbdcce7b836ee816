// runner_limits.hpp: the limits a runner works under, and their defaults: the one place an
// exercise's limits fall back to when its file sets none.
#ifndef AWB_CORE_RUNNER_CLIENT_RUNNER_LIMITS_HPP_
#define AWB_CORE_RUNNER_CLIENT_RUNNER_LIMITS_HPP_

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace awb::core {

struct RunnerLimits {
  double cpu_seconds = 10;   // CPU time of one request (the host samples it)
  double wall_seconds = 30;  // wall-clock time of one request, and of start-up
  int64_t memory_mb = 1024;  // address space of the runner process
  int64_t file_mb = 16;      // largest file it may write (in its scratch folder)
  int64_t open_files = 64;
  size_t output_keep = 64 << 10;  // bytes of stdout and of stderr kept for feedback
  size_t output_limit = 1 << 20;  // stdout + stderr beyond this stops the runner
};

// The CPU rlimit of a whole runner session. Only a backstop: each request's CPU time is enforced
// by the host, so this is generous enough that a session of many requests never meets it.
inline double session_cpu_seconds(const RunnerLimits& limits) {
  return std::max(60.0, 20 * limits.cpu_seconds);
}

// Whether this build runs under AddressSanitizer: its runtime needs room the limits would deny
// (shadow memory), and it reports running out of memory instead of throwing.
constexpr bool kSanitizedBuild =
#if defined(__SANITIZE_ADDRESS__)
    true;
#else
    false;
#endif

}  // namespace awb::core

#endif  // AWB_CORE_RUNNER_CLIENT_RUNNER_LIMITS_HPP_
