// lockdown.cpp: rlimits, privilege drop, parent-death signal, namespaces and no-new-privs, then
// the Landlock and seccomp steps, in the order the design fixes.
#include "runner/lockdown.hpp"

#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

namespace awb::runner {
namespace {

bool set_limit(int resource, rlim_t soft, rlim_t hard) {
  const rlimit rl{soft, hard};
  return ::setrlimit(resource, &rl) == 0;
}

std::string errno_text(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

// Step 1 of lock_down(): the resource limits. CPU: the soft limit sends SIGXCPU, the hard one a
// second later SIGKILL. False (with the reason noted) when one cannot be set.
bool set_resource_limits(const LockdownConfig& c, std::vector<std::string>& notes) {
  const auto cpu = static_cast<rlim_t>(std::ceil(c.cpu_seconds));
  bool limits_ok = set_limit(RLIMIT_CPU, cpu, cpu + 1) && set_limit(RLIMIT_CORE, 0, 0) &&
                   set_limit(RLIMIT_NOFILE, static_cast<rlim_t>(c.open_files),
                             static_cast<rlim_t>(c.open_files)) &&
                   set_limit(RLIMIT_FSIZE, static_cast<rlim_t>(c.file_mb) << 20,
                             static_cast<rlim_t>(c.file_mb) << 20);
  if (c.memory_mb > 0)
    limits_ok = limits_ok && set_limit(RLIMIT_AS, static_cast<rlim_t>(c.memory_mb) << 20,
                                       static_cast<rlim_t>(c.memory_mb) << 20);
  else
    notes.push_back("address-space limit: off (sanitizer build)");
  if (!limits_ok) notes.push_back(errno_text("setrlimit"));
  return limits_ok;
}

}  // namespace

// The steps are numbered in the order they must run: each relies on the one before.
LockdownReport lock_down(const LockdownConfig& c) {
  LockdownReport report;
  auto note = [&](std::string s) { report.notes.push_back(std::move(s)); };

  // 1. Resource limits: without them even `process` does not hold; the host refuses below it.
  if (!set_resource_limits(c, report.notes)) return report;

  // Landlock's paths are opened now: the uid we drop to may not be able to reach them.
  const std::vector<PathRule> rules = c.target == Isolation::kConfined
                                          ? open_path_rules({c.plugin_dir}, {c.scratch_dir})
                                          : std::vector<PathRule>{};

  // 2. As root, become an unprivileged uid of our own (groups first, while we still may).
  bool confined_ok = true;
  if (::geteuid() == 0) {
    if (c.uid != 0 && !c.scratch_dir.empty() && ::chown(c.scratch_dir.c_str(), c.uid, c.uid) != 0)
      note(errno_text("chown scratch"));
    const bool dropped = c.uid != 0 && ::setgroups(0, nullptr) == 0 && ::setgid(c.uid) == 0 &&
                         ::setuid(c.uid) == 0 && ::setuid(0) != 0;
    if (dropped) {
      // One uid per runner: a per-uid process cap stops a fork bomb even at level `process`.
      set_limit(RLIMIT_NPROC, 64, 64);
    } else {
      note(c.uid == 0 ? "uid drop: no uid given" : errno_text("uid drop"));
      confined_ok = false;
    }
  }

  // 3. Die with the host; a host that already died would not be our parent any more. (A change
  // of credentials clears the parent-death signal, hence after step 2.)
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (c.parent != 0 && ::getppid() != c.parent) ::_exit(125);

  // 4. At `process`, namespaces, best effort: with a user namespace of its own the runner also
  // takes an empty network namespace and a private IPC namespace. Above it seccomp's allowlist
  // has no call that makes a socket or touches System V or POSIX message IPC, nor unshare: the
  // namespaces would add nothing, and cost a start time (about 0.7 ms for the network one, 0.2 ms
  // for IPC) and a kernel worker's teardown work per runner.
  report.reached = Isolation::kProcess;
  if (c.target == Isolation::kProcess) {
    if (::unshare(CLONE_NEWUSER) != 0)
      note(errno_text("user namespace"));
    else if (::unshare(CLONE_NEWNET | CLONE_NEWIPC) != 0)
      note(errno_text("network/IPC namespace"));
    return report;
  }

  // 5. No new privileges: required by both Landlock and unprivileged seccomp.
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) {
    note(errno_text("no-new-privs"));
    return report;
  }

  // 6. Landlock, before seccomp (it needs its own system calls).
  bool landlocked = false;
  if (c.target == Isolation::kConfined) {
    std::string why;
    const int abi = apply_landlock(rules, why);
    landlocked = abi > 0;
    if (!landlocked)
      note("landlock: " + why);
    else if (!why.empty())
      note("landlock ABI " + std::to_string(abi) + ": " + why);
  }

  // 7. seccomp last.
  std::string why;
  if (!apply_seccomp(why, landlocked)) {
    note("seccomp: " + why);
    return report;
  }
  report.reached = Isolation::kLimited;
  if (landlocked && confined_ok) report.reached = Isolation::kConfined;
  return report;
}

}  // namespace awb::runner
