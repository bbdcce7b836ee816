// main.cpp: awb-builder, the process that configures and builds ONE submission's CMake project
// against the installed SDK, locked down: rlimits, an unprivileged uid of its own (as root),
// namespaces of its own (user, PID, network, IPC), Landlock (the system and the SDK read-only, its
// build folder the only one it may write) and a seccomp filter without network sockets. The
// build's processes live in the PID namespace, so they all end when the builder does.
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "builder/command_line.hpp"
#include "runner/landlock.hpp"
#include "runner/option_number.hpp"

namespace {

namespace fs = std::filesystem;
namespace option = awb::builder::option;

// What the build folder is called in the plugin it builds (debug line tables, __FILE__).
constexpr const char* kBuildRoot = "/awb-build";

struct Config {
  std::string source, build, sdk;
  pid_t parent = 0;
  uid_t uid = 0;
  double cpu_seconds = 300;
  int64_t memory_mb = 4096;
  int64_t file_mb = 1024;
  int64_t processes = 256;
  int jobs = 2;
};

void say(const std::string& line) {
  const std::string text = "awb-builder: " + line + "\n";
  (void)!::write(STDOUT_FILENO, text.data(), text.size());
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(
      stderr,
      "awb-builder: %s\n"
      "usage: awb-builder --source DIR --build DIR --sdk PREFIX [--parent PID] [--uid UID]\n"
      "                   [--cpu-seconds S] [--memory-mb N] [--file-mb N]\n"
      "                   [--processes N] [--jobs N]\n"
      "Started by awb to build a source submission; not meant to be run by hand.\n",
      why.c_str());
  std::_Exit(awb::builder::kUsage);
}

[[noreturn]] void sandbox_failed(const std::string& what) {
  say("the build sandbox could not be set up: " + what + ": " + std::strerror(errno));
  std::_Exit(awb::builder::kSandboxFailed);
}

template <class T>
T number(std::string_view flag, const char* s) {
  const std::optional<T> v = awb::runner::option_number<T>(s);
  if (!v) usage(std::string(flag) + " needs a number");
  return *v;
}

Config parse(int argc, char** argv) {
  Config c;
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) usage("missing value after " + std::string(flag));
    const char* value = argv[++i];
    if (flag == option::kSource)
      c.source = value;
    else if (flag == option::kBuild)
      c.build = value;
    else if (flag == option::kSdk)
      c.sdk = value;
    else if (flag == option::kParent)
      c.parent = number<pid_t>(flag, value);
    else if (flag == option::kUid)
      c.uid = number<uid_t>(flag, value);
    else if (flag == option::kCpuSeconds)
      c.cpu_seconds = number<double>(flag, value);
    else if (flag == option::kMemoryMb)
      c.memory_mb = number<int64_t>(flag, value);
    else if (flag == option::kFileMb)
      c.file_mb = number<int64_t>(flag, value);
    else if (flag == option::kProcesses)
      c.processes = number<int64_t>(flag, value);
    else if (flag == option::kJobs)
      c.jobs = number<int>(flag, value);
    else
      usage("unknown option " + std::string(flag));
  }
  if (c.source.empty() || c.build.empty() || c.sdk.empty())
    usage("--source, --build and --sdk are required");
  return c;
}

bool set_limit(int resource, rlim_t soft, rlim_t hard) {
  const rlimit rl{soft, hard};
  return ::setrlimit(resource, &rl) == 0;
}

bool write_file(const char* path, const std::string& text) {
  const int fd = ::open(path, O_WRONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  return ok;
}

// As root: the build folder (the host's copy of the sources, and where the build goes) becomes
// the uid's, then the process becomes that uid, with no groups and no way back.
void drop_to(uid_t uid, const std::string& build, int64_t processes) {
  std::error_code ec;
  (void)::lchown(build.c_str(), uid, uid);
  for (fs::recursive_directory_iterator it(build, ec), end; !ec && it != end; it.increment(ec))
    (void)::lchown(it->path().c_str(), uid, uid);
  if (::setgroups(0, nullptr) != 0 || ::setgid(uid) != 0 || ::setuid(uid) != 0)
    sandbox_failed("uid drop");
  if (::setuid(0) == 0) sandbox_failed("uid drop (root came back)");
  // The per-uid cap on processes is what stops a fork bomb: this uid is the build's alone.
  if (!set_limit(RLIMIT_NPROC, static_cast<rlim_t>(processes), static_cast<rlim_t>(processes)))
    sandbox_failed("process limit");
}

// A user namespace of its own (mapping only its own uid and gid), inside which it may take a
// PID namespace (for its children), an empty network namespace and private IPC. Best effort: the
// seccomp filter and Landlock still keep the network out where namespaces are not allowed.
void unshare_namespaces() {
  const uid_t uid = ::geteuid();
  const gid_t gid = ::getegid();
  // After a uid change the process is not dumpable, and /proc/self then belongs to root.
  ::prctl(PR_SET_DUMPABLE, 1);
  if (::unshare(CLONE_NEWUSER) != 0) {
    say(std::string("namespaces: none (user namespace: ") + std::strerror(errno) +
        "); the network stays closed by seccomp and Landlock");
    return;
  }
  if (!write_file("/proc/self/setgroups", "deny") ||
      !write_file("/proc/self/uid_map", std::to_string(uid) + " " + std::to_string(uid) + " 1") ||
      !write_file("/proc/self/gid_map", std::to_string(gid) + " " + std::to_string(gid) + " 1"))
    say(std::string("user namespace: id maps not written: ") + std::strerror(errno));
  if (::unshare(CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWIPC | CLONE_NEWUTS) != 0)
    say(std::string("PID/network namespaces: ") + std::strerror(errno));
}

// Inside its PID namespace: a /proc of its own (CMake runs `ps`), showing the build's processes
// and none of the host's, added to the Landlock rules read-only. Best effort: without it the
// build has no /proc at all.
void mount_own_proc(std::vector<awb::runner::PathRule>& rules) {
  if (::unshare(CLONE_NEWNS) != 0 ||
      ::mount(nullptr, "/", nullptr, MS_REC | MS_PRIVATE, nullptr) != 0 ||
      ::mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, nullptr) != 0)
    return;
  const int fd = ::open("/proc", O_PATH | O_CLOEXEC);
  if (fd >= 0) rules.push_back({fd, false, true});
}

// Everything is allowed but the network (IPv4, IPv6, raw packets, netlink), tracing, and the
// calls that would get around the rest (io_uring, bpf, the kernel keyring, perf events).
bool apply_filter(std::string& why) {
  scmp_filter_ctx ctx = ::seccomp_init(SCMP_ACT_ALLOW);
  if (ctx == nullptr) {
    why = "seccomp_init";
    return false;
  }
  int rc = 0;
  for (const int family : {AF_INET, AF_INET6, AF_PACKET, AF_NETLINK})
    rc |= ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 1,
                             SCMP_A0(SCMP_CMP_EQ, static_cast<scmp_datum_t>(family)));
  for (const char* name : {"io_uring_setup", "io_uring_enter", "io_uring_register", "ptrace",
                           "process_vm_readv", "process_vm_writev", "bpf", "keyctl", "add_key",
                           "request_key", "perf_event_open", "mount", "umount2", "pivot_root"}) {
    const int nr = ::seccomp_syscall_resolve_name(name);
    if (nr != __NR_SCMP_ERROR) rc |= ::seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), nr, 0);
  }
  if (rc == 0) rc = ::seccomp_load(ctx);
  ::seccomp_release(ctx);
  if (rc != 0) why = std::strerror(-rc);
  return rc == 0;
}

// How a step ended: its wait status, and the CPU time it took (with what it waited for).
struct StepEnd {
  int status = -1;
  double cpu_seconds = 0;
};

// Runs one step and reaps every process that comes to us meanwhile (in its own PID namespace the
// builder's child is their init). The step, and every process it starts, has `memory_mb` of
// address space (none when 0).
StepEnd run_step(const std::vector<std::string>& args, const std::vector<std::string>& env,
                 int64_t memory_mb) {
  std::string line = "==";
  for (const auto& a : args) line += " " + a;
  say(line);
  std::vector<std::string> arg_copy = args, env_copy = env;
  std::vector<char*> argv, envp;
  for (auto& a : arg_copy) argv.push_back(a.data());
  for (auto& e : env_copy) envp.push_back(e.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid < 0) return {};
  if (pid == 0) {
    const auto bytes = static_cast<rlim_t>(memory_mb) << 20;
    if (memory_mb > 0 && !set_limit(RLIMIT_AS, bytes, bytes)) {
      say(std::string("cannot limit the step's memory: ") + std::strerror(errno));
      ::_exit(127);
    }
    ::execvpe(argv[0], argv.data(), envp.data());
    say(std::string("cannot start ") + argv[0] + ": " + std::strerror(errno));
    ::_exit(127);
  }
  for (;;) {
    StepEnd end;
    rusage used{};
    const pid_t done = ::wait4(-1, &end.status, 0, &used);
    if (done == pid) {
      end.cpu_seconds = static_cast<double>(used.ru_utime.tv_sec + used.ru_stime.tv_sec) +
                        static_cast<double>(used.ru_utime.tv_usec + used.ru_stime.tv_usec) * 1e-6;
      return end;
    }
    if (done < 0 && errno != EINTR) return {};
  }
}

// Why a step ended, in words. The CPU limit (RLIMIT_CPU, `cpu_limit` s) sends SIGXCPU, then
// SIGKILL a second later: a SIGKILL before the process had used that much CPU came from a
// process of the build itself (kill -9), not from a limit.
std::string describe(const StepEnd& end, double cpu_limit) {
  const int status = end.status;
  if (status < 0) return "could not be started";
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const std::string limit =
        "the CPU limit of a build process (" + std::to_string(std::lround(cpu_limit)) + " s)";
    if (sig == SIGXCPU) return "was stopped by " + limit;
    if (sig == SIGKILL && end.cpu_seconds >= std::floor(cpu_limit))
      return "was killed (SIGKILL) at " + limit;
    const char* name = sigabbrev_np(sig);
    return std::string("was killed by signal ") + std::to_string(sig) + " (SIG" +
           (name ? name : "?") + ")" +
           (sig == SIGKILL
                ? " sent by a process of the build (kill -9?) after " +
                      std::to_string(std::lround(end.cpu_seconds)) + " s of CPU: not a limit"
                : "");
  }
  return "ended oddly";
}

// The build itself: configure, then build, inside every lock.
[[noreturn]] void build(const Config& c) {
  const std::string binary = c.build + "/cmake";
  const std::string home = c.build + "/home";
  const std::string tmp = c.build + "/tmp";
  for (const std::string& dir : {binary, home, tmp}) ::mkdir(dir.c_str(), 0700);
  // Reproducible: the same sources and SDK make the same plugin bytes whatever folder the build
  // ran in. The build folder's random name would be in the line tables and in __FILE__: it is
  // written as kBuildRoot instead; __DATE__ and __TIME__ read SOURCE_DATE_EPOCH.
  const std::string prefix_map = "-ffile-prefix-map=" + c.build + "=" + kBuildRoot;
  const std::vector<std::string> env = {"PATH=/usr/bin:/bin", "HOME=" + home,
                                        "TMPDIR=" + tmp,      "LC_ALL=C",
                                        "TERM=dumb",          "SOURCE_DATE_EPOCH=0"};
  const std::vector<std::vector<std::string>> steps = {
      // RelWithDebInfo (the template's default) with line tables only: the same code, and a
      // plugin that is graded, never debugged, compiles in two thirds of the time without the
      // full debug information of Eigen's templates.
      {"cmake", "-S", c.source, "-B", binary, "-G", "Ninja", "-DCMAKE_PREFIX_PATH=" + c.sdk,
       "-DCMAKE_COLOR_DIAGNOSTICS=OFF", "-DCMAKE_CXX_FLAGS=" + prefix_map,
       "-DCMAKE_C_FLAGS=" + prefix_map, "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG",
       "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O2 -g1 -DNDEBUG"},
      {"cmake", "--build", binary, "--parallel", std::to_string(c.jobs)}};
  const char* names[] = {"configure", "build"};
  for (size_t i = 0; i < steps.size(); ++i) {
    const StepEnd end = run_step(steps[i], env, c.memory_mb);
    const int status = end.status;
    if (status < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      say(std::string("the ") + names[i] + " step failed (cmake " + describe(end, c.cpu_seconds) +
          ")");
      ::_exit(awb::builder::kStepFailed);
    }
  }
  say("built");
  ::_exit(awb::builder::kBuilt);
}

}  // namespace

#if defined(AWB_SANITIZED)
// As in awb-runner: LeakSanitizer's check at exit stops the threads with ptrace(), which this
// sandbox's seccomp filter forbids, so every build would end in "LeakSanitizer has encountered a
// fatal error" and count as failed. The builder's leaks go unchecked.
extern "C" int __lsan_is_turned_off() { return 1; }
#endif

int main(int argc, char** argv) {
  ::close_range(3, ~0U, 0);
  ::signal(SIGPIPE, SIG_DFL);
  Config c = parse(argc, argv);
  if (::chdir(c.build.c_str()) != 0) sandbox_failed("cannot enter the build folder");

  // 1. Limits of every process of the build (each compiler has its own CPU budget; the host
  // holds the wall clock, the total output and the disk the build folder takes).
  // The address-space limit is set on each step as it starts (run_step()): a sanitized builder
  // (AddressSanitizer reserved terabytes of shadow address space before main()) could not live
  // under it, and the compilers it starts are not sanitized.
  const auto cpu = static_cast<rlim_t>(std::ceil(c.cpu_seconds));
  const auto file = static_cast<rlim_t>(c.file_mb) << 20;
  if (!set_limit(RLIMIT_CPU, cpu, cpu + 1) || !set_limit(RLIMIT_CORE, 0, 0) ||
      !set_limit(RLIMIT_FSIZE, file, file))
    sandbox_failed("setrlimit");

  // 2. Landlock's folders are opened while they can still be reached: the system (compilers,
  // headers, CMake) and /etc read-only, the SDK read-only, the build folder (which holds
  // the copy of the sources) read-write. Nothing else: not the host's home, not the results.
  std::vector<awb::runner::PathRule> rules = awb::runner::open_path_rules(
      {"/etc", "/dev/urandom", c.sdk, c.source}, {c.build, "/dev/null"});

  // 3. As root, a uid of its own; 4. die with the host.
  if (::geteuid() == 0) {
    if (c.uid == 0) usage("--uid is required when started as root");
    drop_to(c.uid, c.build, c.processes);
  }
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (c.parent != 0 && ::getppid() != c.parent) ::_exit(awb::builder::kSandboxFailed);

  // 5. Namespaces; the child is the first process of the new PID namespace.
  unshare_namespaces();
  const pid_t child = ::fork();
  if (child < 0) sandbox_failed("fork");
  if (child == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // the builder gone: the whole namespace goes
    mount_own_proc(rules);
    if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) sandbox_failed("no-new-privs");
    std::string why;
    const int abi = awb::runner::apply_landlock(rules, why);
    if (abi <= 0) {
      errno = 0;
      say("landlock: " + why);
      ::_exit(awb::builder::kSandboxFailed);
    }
    if (!apply_filter(why)) {
      say("seccomp: " + why);
      ::_exit(awb::builder::kSandboxFailed);
    }
    build(c);
  }
  for (const auto& r : rules) ::close(r.fd);
  int status = 0;
  while (::waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  say("the build " + describe({status, 0}, c.cpu_seconds));
  return awb::builder::kStepFailed;
}
