// runner_fault.hpp: every way a runner can fail, and turning how one ended (its exit status, the
// signal that killed it, the limit it met) into the verdict text a student reads.
#ifndef AWB_CORE_RUNNER_CLIENT_RUNNER_FAULT_HPP_
#define AWB_CORE_RUNNER_CLIENT_RUNNER_FAULT_HPP_

#include <string>

#include "core/runner_client/runner_limits.hpp"

namespace awb::core {

// Every way a runner can fail; each has a stable error id "runner.<name>".
enum class Fault {
  kSpawnFailed,
  kCrashed,
  kCpuLimit,
  kWallLimit,
  kMemoryLimit,
  kOutputLimit,
  kFileLimit,
  kForbiddenSyscall,
  kNoResult,
  kMalformedResult,
  kCancelled,  // the host's user stopped it (the GUI's Cancel)
};
const char* error_id(Fault fault);

struct FaultVerdict {
  Fault fault = Fault::kNoResult;
  std::string reason;
};

// Why a runner that closed its result pipe ended: from its wait status, the CPU time it used,
// what it printed on stderr (the runner names a forbidden system call there; a C++ plugin that
// ran out of memory names std::bad_alloc) and the limits it ran under.
FaultVerdict classify_exit(int wait_status, double cpu_seconds, const std::string& stderr_text,
                           const RunnerLimits& limits);

// The last few lines of stderr (else stdout), without the runner's own verdict line, headed for
// the end of a verdict; empty when it printed nothing.
std::string output_excerpt(const std::string& stdout_text, const std::string& stderr_text);

// "2.5 s": seconds as verdicts spell them.
std::string format_seconds(double s);

}  // namespace awb::core

#endif  // AWB_CORE_RUNNER_CLIENT_RUNNER_FAULT_HPP_
