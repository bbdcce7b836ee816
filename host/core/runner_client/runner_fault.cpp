// runner_fault.cpp: classifying how a runner ended into a verdict, and the RunnerProcess steps
// that end a faulty runner and throw that verdict.
#include "core/runner_client/runner_fault.hpp"

#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <cctype>
#include <chrono>
#include <sstream>
#include <vector>

#include "core/runner_client/runner_process.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

namespace {

std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  const char* descr = ::sigdescr_np(sig);
  return std::string("SIG") + (abbrev ? abbrev : std::to_string(sig)) + " (" +
         (descr ? descr : "unknown signal") + ")";
}

}  // namespace

const char* error_id(Fault fault) {
  switch (fault) {
    case Fault::kSpawnFailed:
      return "runner.spawn_failed";
    case Fault::kCrashed:
      return "runner.crashed";
    case Fault::kCpuLimit:
      return "runner.cpu_limit";
    case Fault::kWallLimit:
      return "runner.wall_limit";
    case Fault::kMemoryLimit:
      return "runner.memory_limit";
    case Fault::kOutputLimit:
      return "runner.output_limit";
    case Fault::kFileLimit:
      return "runner.file_limit";
    case Fault::kForbiddenSyscall:
      return "runner.forbidden_syscall";
    case Fault::kNoResult:
      return "runner.no_result";
    case Fault::kMalformedResult:
      return "runner.malformed_result";
    case Fault::kCancelled:
      return "runner.cancelled";
  }
  return "runner.unknown";
}

std::string format_seconds(double s) {
  std::ostringstream os;
  os << s << " s";
  return os.str();
}

FaultVerdict classify_exit(int wait_status, double cpu_seconds, const std::string& stderr_text,
                           const RunnerLimits& limits) {
  if (!WIFSIGNALED(wait_status))
    return {Fault::kNoResult, "exited with status " + std::to_string(WEXITSTATUS(wait_status)) +
                                  " without sending a result"};
  const int sig = WTERMSIG(wait_status);
  const std::string& err = stderr_text;
  if (sig == SIGSYS) {
    const auto forbidden = err.find("forbidden system call: ");
    return {Fault::kForbiddenSyscall,
            forbidden == std::string::npos
                ? "used a forbidden system call"
                : "used a " + err.substr(forbidden, err.find('\n', forbidden) - forbidden)};
  }
  // The kernel sends SIGXCPU at the soft CPU rlimit and SIGKILL at the hard one.
  if (sig == SIGXCPU || (sig == SIGKILL && cpu_seconds >= session_cpu_seconds(limits)))
    return {Fault::kCpuLimit,
            "CPU limit of the session exceeded (" + format_seconds(cpu_seconds) + ")"};
  if (sig == SIGXFSZ)
    return {Fault::kFileLimit,
            "wrote a file larger than " + std::to_string(limits.file_mb) + " MB"};
  const bool out_of_memory =
      err.find("std::bad_alloc") != std::string::npos ||
      // ASan's operator new reports running out of memory and aborts; it never throws.
      (kSanitizedBuild &&
       (err.find("SUMMARY: AddressSanitizer: out-of-memory") != std::string::npos ||
        err.find("SUMMARY: AddressSanitizer: allocation-size-too-big") != std::string::npos));
  if (out_of_memory)
    return {Fault::kMemoryLimit, "ran out of memory (" + std::to_string(limits.memory_mb) +
                                     " MB address space) and died of " + signal_name(sig)};
  return {Fault::kCrashed, "crashed: " + signal_name(sig)};
}

std::string output_excerpt(const std::string& stdout_text, const std::string& stderr_text) {
  std::string text = !stderr_text.empty() ? stderr_text : stdout_text;
  if (const auto at = text.find("\nawb-runner: forbidden system call"); at != std::string::npos)
    text.erase(at);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  if (text.empty()) return "";
  size_t start = text.size() > 240 ? text.size() - 240 : 0;
  for (int lines = 0, i = static_cast<int>(text.size()) - 1; i >= static_cast<int>(start); --i)
    if (text[static_cast<size_t>(i)] == '\n' && ++lines == 3) {
      start = static_cast<size_t>(i) + 1;
      break;
    }
  return "\n--- the end of its output ---\n" + std::string(start > 0 ? "..." : "") +
         text.substr(start);
}

void RunnerProcess::fail(Fault fault, const std::string& reason) {
  end_process();
  throw Error(error_id(fault), reason + output_excerpt(out_.kept, err_.kept));
}

void RunnerProcess::fail_from_exit() {
  using Clock = std::chrono::steady_clock;
  // The result pipe closed: wait (within the wall limit) for the process to end, then read why.
  const auto deadline = Clock::now() + std::chrono::duration<double>(options_.limits.wall_seconds);
  std::vector<uint8_t> none;
  size_t written = 0;
  auto exited = [&] {  // peeks without reaping, so the group id stays ours to signal
    siginfo_t info{};
    return ::waitid(P_PID, static_cast<id_t>(pid_), &info, WEXITED | WNOHANG | WNOWAIT) == 0 &&
           info.si_pid == pid_;
  };
  while (!exited() && Clock::now() < deadline) pump(20, &none, written);
  if (!exited()) fail(Fault::kWallLimit, "closed its result pipe and kept running");
  ::kill(-pid_, SIGKILL);  // descendants in its group cannot keep the output pipes open
  int status = 0;
  rusage usage{};
  ::wait4(pid_, &status, 0, &usage);
  wait_status_ = status;
  pidfd_.reset();  // a reaped process's pidfd polls ready for ever: the drain would spin
  const auto drain_until = Clock::now() + std::chrono::seconds(1);
  while ((out_.fd.valid() || err_.fd.valid()) && Clock::now() < drain_until)
    pump(20, &none, written);  // whatever it printed last
  const double cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                     (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  const FaultVerdict verdict = classify_exit(status, cpu, err_.kept, options_.limits);
  fail(verdict.fault, verdict.reason);
}

}  // namespace awb::core
