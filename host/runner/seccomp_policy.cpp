// seccomp_policy.cpp: the system-call allowlist, installed last. What a plugin needs to compute
// and to start threads is allowed; process creation, exec, sockets, ptrace, signals to others
// (kill, and fcntl's signal-driven I/O, which has the kernel send them), keyctl, bpf, io_uring
// and mount kill the process with a message naming the call; anything else fails with EPERM.
// libseccomp 2.5.4 cannot name calls newer than itself, which the default action covers.
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <utility>
#include <vector>

#include "runner/lockdown.hpp"

namespace awb::runner {
namespace {

struct Forbidden {
  int nr;
  long arg1;  // the second argument's value this entry names, or -1: any
  const char* name;
};
constexpr size_t kMaxForbidden = 96;
Forbidden g_forbidden[kMaxForbidden];
size_t g_n_forbidden = 0;

// The trapped call's second argument, from the registers it was made with; -1 where unknown.
long second_argument(const void* context) {
  const auto* uc = static_cast<const ucontext_t*>(context);
#if defined(__x86_64__)
  return static_cast<long>(uc->uc_mcontext.gregs[REG_RSI]);
#elif defined(__aarch64__)
  return static_cast<long>(uc->uc_mcontext.regs[1]);
#else
  (void)uc;
  return -1;
#endif
}

// Async-signal-safe: writes one line to stderr, then dies of SIGSYS so the host sees the signal.
void on_sigsys(int, siginfo_t* info, void* context) {
  const char* name = nullptr;
  const long arg1 = second_argument(context);
  for (size_t i = 0; i < g_n_forbidden; ++i) {
    const Forbidden& f = g_forbidden[i];
    if (f.nr != info->si_syscall) continue;
    if (f.arg1 == arg1) {
      name = f.name;
      break;
    }
    if (!name) name = f.name;  // the call's name at least
  }
  if (!name) name = "an unnamed call";
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

// Long for a reason: the allowlist is one table, read whole when a call is added or removed.
// The allowlist for a process whose pid is `self` (signals go to itself only), or null with
// `why`. Fills the table of forbidden calls' names afresh.
scmp_filter_ctx build_filter(bool writable_files, pid_t self, std::string& why) {
  g_n_forbidden = 0;
  scmp_filter_ctx ctx = ::seccomp_init(SCMP_ACT_ERRNO(EPERM));
  if (!ctx) {
    why = "seccomp_init failed";
    return nullptr;
  }
  int rc = 0;
  auto add = [&](uint32_t action, const char* name, unsigned n, const scmp_arg_cmp* cmp) {
    const int nr = ::seccomp_syscall_resolve_name(name);
    if (nr == __NR_SCMP_ERROR || nr < 0) return nr;  // not on this architecture
    const int r = ::seccomp_rule_add_array(ctx, action, nr, n, cmp);
    if (r != 0 && rc == 0) rc = r;
    return nr;
  };
  // `shown` is what the message names (one call's several forbidden uses are told apart by the
  // first argument's value, which the SIGSYS handler reads from the registers).
  auto forbid_as = [&](const char* name, const char* shown, unsigned n, const scmp_arg_cmp* cmp) {
    const int nr = add(SCMP_ACT_TRAP, name, n, cmp);
    const long arg = n > 0 && cmp[0].arg == 1 ? static_cast<long>(cmp[0].datum_a) : -1;
    if (nr >= 0 && g_n_forbidden < kMaxForbidden) g_forbidden[g_n_forbidden++] = {nr, arg, shown};
  };
  auto forbid = [&](const char* name, unsigned n, const scmp_arg_cmp* cmp) {
    forbid_as(name, name, n, cmp);
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
  // fcntl, but never signal-driven I/O: with F_SETOWN (or F_SETOWN_EX) naming awb, F_SETSIG
  // choosing SIGKILL or SIGSTOP and O_ASYNC on a protocol pipe, the kernel itself would signal
  // awb on its next read, no kill() needed. The commands a program uses otherwise are allowed
  // (the cmd is compared in full, so one with high bits set matches none: EPERM); F_SETFL only
  // without O_ASYNC. ioctl's FIOSETOWN, SIOCSPGRP and FIOASYNC do the same; ioctl is answered
  // ENOTTY whatever it asks, below.
  for (const int cmd : {F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL, F_GETLK, F_SETLK,
                        F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_GETOWN, F_GETOWN_EX,
                        F_GETSIG, F_GETPIPE_SZ, F_SETPIPE_SZ, F_ADD_SEALS, F_GET_SEALS}) {
    const scmp_arg_cmp is_cmd[] = {SCMP_A1(SCMP_CMP_EQ, static_cast<scmp_datum_t>(cmd))};
    add(SCMP_ACT_ALLOW, "fcntl", 1, is_cmd);
  }
  const scmp_arg_cmp set_flags[] = {SCMP_A1(SCMP_CMP_EQ, F_SETFL),
                                    SCMP_A2(SCMP_CMP_MASKED_EQ, O_ASYNC, 0)};
  add(SCMP_ACT_ALLOW, "fcntl", 2, set_flags);
  const scmp_arg_cmp set_async[] = {SCMP_A1(SCMP_CMP_EQ, F_SETFL),
                                    SCMP_A2(SCMP_CMP_MASKED_EQ, O_ASYNC, O_ASYNC)};
  forbid_as("fcntl", "fcntl F_SETFL O_ASYNC (signal-driven I/O)", 2, set_async);
  for (const auto& [cmd, name] : {std::pair{F_SETOWN, "fcntl F_SETOWN (a signal's target)"},
                                  std::pair{F_SETOWN_EX, "fcntl F_SETOWN_EX (a signal's target)"},
                                  std::pair{F_SETSIG, "fcntl F_SETSIG (signal-driven I/O)"}}) {
    const scmp_arg_cmp is_cmd[] = {SCMP_A1(SCMP_CMP_EQ, static_cast<scmp_datum_t>(cmd))};
    forbid_as("fcntl", name, 1, is_cmd);
  }
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
    return nullptr;
  }
  return ctx;
}

// The filter as the kernel takes it, or empty.
std::vector<sock_filter> export_program(scmp_filter_ctx ctx) {
  std::vector<sock_filter> program;
  const int fd = ::memfd_create("awb-seccomp", MFD_CLOEXEC);
  if (fd < 0) return program;
  struct stat st {};
  if (::seccomp_export_bpf(ctx, fd) == 0 && ::fstat(fd, &st) == 0 &&
      st.st_size % static_cast<off_t>(sizeof(sock_filter)) == 0) {
    program.resize(static_cast<size_t>(st.st_size) / sizeof(sock_filter));
    if (::pread(fd, program.data(), static_cast<size_t>(st.st_size), 0) != st.st_size)
      program.clear();
  }
  ::close(fd);
  return program;
}

// A filter compiled once (in the zygote) for every runner it starts: the program and the places
// that hold the pid, which each runner writes its own into.
struct Prepared {
  std::vector<sock_filter> program;
  std::vector<size_t> pid_slots;
};
std::optional<Prepared> g_prepared[2];  // [writable_files]

std::vector<sock_filter> compile_for(bool writable_files, pid_t self) {
  std::string why;
  scmp_filter_ctx ctx = build_filter(writable_files, self, why);
  if (!ctx) return {};
  std::vector<sock_filter> program = export_program(ctx);
  ::seccomp_release(ctx);
  return program;
}

}  // namespace

void prepare_seccomp() {
  // Two pids no process has (above the kernel's pid_max limit of 2^22): compiled with each, the
  // programs must differ in exactly the constants that hold them, or nothing is prepared.
  constexpr pid_t kFirst = 0x7fff1234, kSecond = 0x7ffe4321;
  for (bool writable : {false, true}) {
    const std::vector<sock_filter> a = compile_for(writable, kFirst);
    const std::vector<sock_filter> b = compile_for(writable, kSecond);
    if (a.empty() || a.size() != b.size()) continue;
    Prepared p{a, {}};
    bool same_shape = true;
    for (size_t i = 0; i < a.size() && same_shape; ++i) {
      const bool pid_here =
          a[i].k == static_cast<uint32_t>(kFirst) && b[i].k == static_cast<uint32_t>(kSecond);
      same_shape = a[i].code == b[i].code && a[i].jt == b[i].jt && a[i].jf == b[i].jf &&
                   (a[i].k == b[i].k || pid_here);
      if (pid_here) p.pid_slots.push_back(i);
    }
    if (same_shape && !p.pid_slots.empty()) g_prepared[writable] = std::move(p);
  }
}

bool apply_seccomp(std::string& why, bool writable_files) {
  struct sigaction sa {};
  sa.sa_sigaction = on_sigsys;
  sa.sa_flags = SA_SIGINFO | SA_RESETHAND | SA_NODEFER;
  sigemptyset(&sa.sa_mask);
  if (::sigaction(SIGSYS, &sa, nullptr) != 0) {
    why = std::string("sigaction: ") + std::strerror(errno);
    return false;
  }
  const pid_t self = ::getpid();
  if (const auto& prepared = g_prepared[writable_files]) {
    std::vector<sock_filter> program = prepared->program;
    for (size_t i : prepared->pid_slots) program[i].k = static_cast<uint32_t>(self);
    const sock_fprog prog{static_cast<unsigned short>(program.size()), program.data()};
    if (::syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) == 0) return true;
    why = std::string("load: ") + std::strerror(errno);
    return false;
  }
  scmp_filter_ctx ctx = build_filter(writable_files, self, why);
  if (!ctx) return false;
  const int rc = ::seccomp_load(ctx);
  ::seccomp_release(ctx);
  if (rc != 0) {
    why = std::string("load: ") + std::strerror(-rc);
    return false;
  }
  return true;
}

}  // namespace awb::runner
