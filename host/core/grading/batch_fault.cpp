// batch_fault.cpp: parses AWB_TEST_FAULT once and counts report steps against it.
#include "core/grading/batch_fault.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <iostream>
#include <string>

namespace awb::core {
namespace {

enum class FaultMode { kNone, kKill, kEnospc };

struct InjectedFault {
  FaultMode mode = FaultMode::kNone;
  long n = 0;
};

const InjectedFault& injected_fault() {
  static const InjectedFault parsed = [] {
    InjectedFault f;
    const char* env = std::getenv("AWB_TEST_FAULT");
    if (env == nullptr || *env == '\0') return f;
    const std::string text = env;
    const auto colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    char* end = nullptr;
    const long n = colon == std::string::npos ? 0 : std::strtol(text.c_str() + colon + 1, &end, 10);
    const bool number = end != nullptr && *end == '\0' && n >= 1;
    if (number && kind == "kill-after-report") f = {FaultMode::kKill, n};
    if (number && kind == "enospc-at-report") f = {FaultMode::kEnospc, n};
    if (f.mode == FaultMode::kNone)
      std::cerr << "awb: AWB_TEST_FAULT='" << text
                << "' is not kill-after-report:N or enospc-at-report:N (N >= 1); ignored\n";
    return f;
  }();
  return parsed;
}

// Steps are counted per mode: kill counts every step, ENOSPC only those that need space.
std::atomic<long> steps{0};

}  // namespace

bool report_step_fails(ReportStep step) {
  const InjectedFault& f = injected_fault();
  if (f.mode != FaultMode::kEnospc || step != ReportStep::kAllocates) return false;
  if (++steps != f.n) return false;
  errno = ENOSPC;
  return true;
}

void report_step_done() {
  const InjectedFault& f = injected_fault();
  if (f.mode != FaultMode::kKill || ++steps != f.n) return;
  ::kill(::getpid(), SIGKILL);
  ::pause();  // SIGKILL cannot be caught; this only waits for it to land
}

}  // namespace awb::core
