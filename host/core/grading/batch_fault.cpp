// batch_fault.cpp: counts report steps against the AWB_TEST_FAULT asked for.
#include "core/grading/batch_fault.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>

#include "core/base/test_fault.hpp"

namespace awb::core {
namespace {

// Steps are counted per mode: kill counts every step, ENOSPC only those that need space.
std::atomic<long> steps{0};

}  // namespace

bool report_step_fails(ReportStep step) {
  const TestFault& f = test_fault();
  if (f.kind != "enospc-at-report" || step != ReportStep::kAllocates) return false;
  if (++steps != f.n) return false;
  errno = ENOSPC;
  return true;
}

void report_step_done() {
  const TestFault& f = test_fault();
  if (f.kind != "kill-after-report" || ++steps != f.n) return;
  ::kill(::getpid(), SIGKILL);
  ::pause();  // SIGKILL cannot be caught; this only waits for it to land
}

}  // namespace awb::core
