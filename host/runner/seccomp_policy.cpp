// seccomp_policy.cpp: the system-call allowlist, installed last. What a plugin needs to compute
// and to start threads is allowed; process creation, exec, sockets, ptrace, signals to others,
// keyctl, bpf, io_uring and mount kill the process with a message naming the call; anything else
// fails with EPERM. libseccomp 2.5.4 cannot name calls newer than itself, which the default
// action covers.
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runner/lockdown.hpp"

namespace awb::runner {
namespace {

struct Forbidden {
  int nr;
  const char* name;
};
constexpr size_t kMaxForbidden = 64;
Forbidden g_forbidden[kMaxForbidden];
size_t g_n_forbidden = 0;

// Async-signal-safe: writes one line to stderr, then dies of SIGSYS so the host sees the signal.
void on_sigsys(int, siginfo_t* info, void*) {
  const char* name = "an unnamed call";
  for (size_t i = 0; i < g_n_forbidden; ++i)
    if (g_forbidden[i].nr == info->si_syscall) name = g_forbidden[i].name;
  char line[160] = "\nawb-runner: forbidden system call: ";
  std::strncat(line, name, sizeof line - std::strlen(line) - 2);
  std::strcat(line, "\n");
  (void)!::write(STDERR_FILENO, line, std::strlen(line));
  ::syscall(SYS_tgkill, ::getpid(), ::gettid(), SIGSYS);  // SA_RESETHAND: the default kills
  ::_exit(128 + SIGSYS);
}

constexpr const char* kAllowed[] = {"read",
                                    "write",
                                    "readv",
                                    "writev",
                                    "pread64",
                                    "pwrite64",
                                    "close",
                                    "fstat",
                                    "newfstatat",
                                    "statx",
                                    "stat",
                                    "lstat",
                                    "lseek",
                                    "mmap",
                                    "mprotect",
                                    "munmap",
                                    "mremap",
                                    "madvise",
                                    "brk",
                                    "msync",
                                    "mincore",
                                    "access",
                                    "faccessat",
                                    "faccessat2",
                                    "readlink",
                                    "readlinkat",
                                    "getdents64",
                                    "getcwd",
                                    "fcntl",
                                    "dup",
                                    "dup2",
                                    "dup3",
                                    "ftruncate",
                                    "fallocate",
                                    "fsync",
                                    "fdatasync",
                                    "futex",
                                    "set_robust_list",
                                    "get_robust_list",
                                    "rseq",
                                    "set_tid_address",
                                    "rt_sigprocmask",
                                    "rt_sigreturn",
                                    "sigaltstack",
                                    "exit",
                                    "exit_group",
                                    "getpid",
                                    "gettid",
                                    "getppid",
                                    "getuid",
                                    "geteuid",
                                    "getgid",
                                    "getegid",
                                    "sched_getaffinity",
                                    "sched_yield",
                                    "sched_getparam",
                                    "sched_getscheduler",
                                    "nanosleep",
                                    "pause",
                                    "rt_sigsuspend",
                                    "clock_nanosleep",
                                    "clock_gettime",
                                    "clock_getres",
                                    "gettimeofday",
                                    "time",
                                    "getrandom",
                                    "getrlimit",
                                    "getrusage",
                                    "uname",
                                    "sysinfo",
                                    "membarrier",
                                    "poll",
                                    "ppoll",
                                    "pselect6",
                                    "select",
                                    "restart_syscall",
                                    "umask",
                                    "times"};

constexpr const char* kForbiddenNames[] = {"fork",
                                           "vfork",
                                           "execve",
                                           "execveat",
                                           "socket",
                                           "socketpair",
                                           "connect",
                                           "bind",
                                           "listen",
                                           "accept",
                                           "accept4",
                                           "sendto",
                                           "recvfrom",
                                           "sendmsg",
                                           "recvmsg",
                                           "ptrace",
                                           "process_vm_readv",
                                           "process_vm_writev",
                                           "tkill",
                                           "rt_sigqueueinfo",
                                           "rt_tgsigqueueinfo",
                                           "keyctl",
                                           "add_key",
                                           "request_key",
                                           "bpf",
                                           "io_uring_setup",
                                           "io_uring_enter",
                                           "io_uring_register",
                                           "mount",
                                           "umount2",
                                           "pivot_root",
                                           "chroot",
                                           "unshare",
                                           "setns",
                                           "setuid",
                                           "setgid",
                                           "setreuid",
                                           "setregid",
                                           "setresuid",
                                           "setresgid",
                                           "setgroups",
                                           "perf_event_open",
                                           "userfaultfd",
                                           "kexec_load",
                                           "init_module",
                                           "finit_module",
                                           "delete_module",
                                           "reboot",
                                           "swapon",
                                           "swapoff",
                                           "pidfd_open",
                                           "pidfd_send_signal",
                                           "personality",
                                           "acct",
                                           "settimeofday",
                                           "setsid",
                                           "setpgid",
                                           "landlock_create_ruleset",
                                           "landlock_add_rule",
                                           "landlock_restrict_self",
                                           "seccomp"};

}  // namespace

bool apply_seccomp(std::string& why, bool writable_files) {
  struct sigaction sa {};
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  if (::sigaction(SIGSYS, &sa, nullptr) != 0) {
    why = std::string("sigaction: ") + std::strerror(errno);
    return false;
  }
  scmp_filter_ctx ctx = ::seccomp_init(SCMP_ACT_ERRNO(EPERM));
  if (!ctx) {
    why = "seccomp_init failed";
    return false;
  }
  int rc = 0;
  auto add = [&](uint32_t action, const char* name, unsigned n, const scmp_arg_cmp* cmp) {
    const int nr = ::seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR || nr < 0) return nr;  // not on this architecture
    const int r = ::seccomp_rule_add_array(ctx, action, nr, n, cmp);
    if (r != 0 && rc == 0) rc = r;
    return nr;
  };
  auto forbid = [&](const char* name, unsigned n, const scmp_arg_cmp* cmp) {
    const int nr = add(SCMP_ACT_TRAP, name, n, cmp);
    if (nr >= 0 && g_n_forbidden < kMaxForbidden) g_forbidden[g_n_forbidden++] = {nr, name};
  };
  for (const char* name : kAllowed) add(SCMP_ACT_ALLOW, name, 0, nullptr);
  // Files: read-only unless Landlock confines where writes may go (its scratch folder). Without
  // it a runner of the grader's own uid could append to the batch journal (a forged grade) or
  // write /proc/<awb>/mem; opening for writing, creating, renaming and removing then fail with
  // EPERM, the filter's default answer.
  constexpr const char* kFileChanges[] = {"unlink", "unlinkat", "mkdir",    "mkdirat",
                                          "rename", "renameat", "renameat2"};
  if (writable_files) {
    for (const char* name : {"open", "openat"}) add(SCMP_ACT_ALLOW, name, 0, nullptr);
    for (const char* name : kFileChanges) add(SCMP_ACT_ALLOW, name, 0, nullptr);
  } else {
    constexpr scmp_datum_t kWrites = O_WRONLY | O_RDWR | O_CREAT | O_TRUNC | O_APPEND;
    const scmp_arg_cmp open_read[] = {SCMP_A1(SCMP_CMP_MASKED_EQ, kWrites, 0)};
    const scmp_arg_cmp openat_read[] = {SCMP_A2(SCMP_CMP_MASKED_EQ, kWrites, 0)};
    add(SCMP_ACT_ALLOW, "open", 1, open_read);
    add(SCMP_ACT_ALLOW, "openat", 1, openat_read);
  }
  // openat2's flags live in memory a filter cannot read: ENOSYS, and the C library uses openat.
  add(SCMP_ACT_ERRNO(ENOSYS), "openat2", 0, nullptr);
  for (const char* name : kForbiddenNames) forbid(name, 0, nullptr);

  const pid_t self = ::getpid();
  // Threads yes, processes no: clone must carry CLONE_THREAD; clone3's flags live in memory a
  // filter cannot read, so it is answered ENOSYS and the C library falls back to clone.
  const scmp_arg_cmp thread[] = {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD)};
  const scmp_arg_cmp process[] = {SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0)};
  add(SCMP_ACT_ALLOW, "clone", 1, thread);
  forbid("clone", 1, process);
  add(SCMP_ACT_ERRNO(ENOSYS), "clone3", 0, nullptr);
  // Signals to itself only (abort() raises SIGABRT with tgkill).
  const scmp_arg_cmp to_self[] = {SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(self))};
  const scmp_arg_cmp to_other[] = {SCMP_A0(SCMP_CMP_NE, static_cast<scmp_datum_t>(self))};
  add(SCMP_ACT_ALLOW, "tgkill", 1, to_self);
  forbid("tgkill", 1, to_other);
  add(SCMP_ACT_ALLOW, "kill", 1, to_self);
  forbid("kill", 1, to_other);
  // Handlers for anything but SIGSYS, which stays ours.
  const scmp_arg_cmp not_sigsys[] = {SCMP_A0(SCMP_CMP_NE, SIGSYS)};
  add(SCMP_ACT_ALLOW, "rt_sigaction", 1, not_sigsys);
  // Reading limits, never raising them; naming threads.
  const scmp_arg_cmp no_new_limit[] = {SCMP_A2(SCMP_CMP_EQ, 0)};
  add(SCMP_ACT_ALLOW, "prlimit64", 1, no_new_limit);
  for (int option : {PR_SET_NAME, PR_GET_NAME}) {
    const scmp_arg_cmp opt[] = {SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(option))};
    add(SCMP_ACT_ALLOW, "prctl", 1, opt);
  }
#if defined(AWB_SANITIZED)
  // The sanitizer runtimes test whether memory is readable by writing it into a pipe of their
  // own (IsAccessibleMemoryRange): without one UBSan's vptr check calls every object's vtable
  // invalid. A pipe reaches nothing outside the process.
  for (const char* name : {"pipe", "pipe2"}) add(SCMP_ACT_ALLOW, name, 0, nullptr);
#endif
  // isatty() and friends get "not a terminal".
  add(SCMP_ACT_ERRNO(ENOTTY), "ioctl", 0, nullptr);
  if (rc != 0) {
    why = std::string("rule: ") + std::strerror(-rc);
    ::seccomp_release(ctx);
    return false;
  }
  rc = ::seccomp_load(ctx);
  ::seccomp_release(ctx);
  if (rc != 0) {
    why = std::string("load: ") + std::strerror(-rc);
    return false;
  }
  return true;
}

}  // namespace awb::runner
