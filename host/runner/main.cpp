// main.cpp: awb-runner, the process that hosts ONE untrusted plugin for the host. It opens the
// plugin file, locks itself down, only then loads the plugin (static constructors run inside
// dlopen), answers forward and backward requests on fd 3 with exactly one result frame each on
// fd 4, and exits. fd 0 is /dev/null; fds 1 and 2 are the host's capped output pipes. Started as
// `awb-runner --zygote FD --parent PID` it is instead the zygote that starts the others
// (zygote.hpp), each of them then going through run_runner() as a spawned one does.
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <string_view>

#include "runner/command_line.hpp"
#include "runner/lockdown.hpp"
#include "runner/option_number.hpp"
#include "runner/protocol.hpp"
#include "runner/serve.hpp"
#include "runner/zygote.hpp"
#include "runner/zygote_wire.hpp"

namespace {

using awb::runner::kRequestFd;
using awb::runner::kResultFd;
using awb::runner::kSharedFd;
namespace option = awb::runner::option;
static_assert(kRequestFd == 3 && kResultFd == 4 && kSharedFd == 5,
              "the usage text and messages name fds 3, 4 and 5");

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "awb-runner: %s\n"
               "usage: awb-runner --plugin FILE --scratch DIR [--level process|limited|confined]\n"
               "                  [--min-level LEVEL] [--parent PID] [--uid UID]\n"
               "                  [--cpu-seconds S] [--memory-mb N]\n"
               "                  [--file-mb N] [--open-files N]\n"
               "       awb-runner --zygote FD --parent PID\n"
               "Started by awb with its request pipe on fd 3, its result pipe on fd 4 and,\n"
               "optionally, a sealed memory region for large frames on fd 5 (or, as the\n"
               "zygote, its request socket on FD); not meant to be run by hand.\n",
               why);
  std::_Exit(2);
}

template <class T>
T number(std::string_view flag, const char* s) {
  const std::optional<T> v = awb::runner::option_number<T>(s);
  if (!v) usage((std::string(flag) + " needs a number").c_str());
  return *v;
}

}  // namespace

#if defined(AWB_SANITIZED)
// A sanitized runner keeps the sandbox as it is; the sanitizer runtimes are told to do without
// what it forbids. Options in ASAN_OPTIONS / UBSAN_OPTIONS (which awb passes on) still win.
// - symbolize=0: a report would start llvm-symbolizer with fork() and execve(); it prints
//   addresses instead.
// - handle_segv=0, handle_sigbus=0: a plugin's crash stays the signal the host reports
//   ("crashed: SIGSEGV"), not a sanitizer report that ends in abort().
extern "C" const char* __asan_default_options() {
  return "symbolize=0:handle_segv=0:handle_sigbus=0";
}
extern "C" const char* __ubsan_default_options() { return "symbolize=0"; }
// LeakSanitizer's check at exit stops the threads from a tracer started with clone() without
// CLONE_THREAD, then ptrace(): both forbidden (a plugin must not fork or trace), so the check
// would end every runner that exits through exit() with "forbidden system call: clone". This
// hook wins over detect_leaks=1 in the environment; the runner's leaks go unchecked.
extern "C" int __lsan_is_turned_off() { return 1; }
#endif

namespace {

// The runner's options (command_line.hpp names them) into `config` and `plugin`; usage() on any
// that is unknown or malformed.
void read_options(int argc, char** argv, awb::runner::LockdownConfig& config, std::string& plugin) {
  for (int i = 1; i < argc; ++i) {
    const std::string_view flag = argv[i];
    if (i + 1 >= argc) usage(("missing value after " + std::string(flag)).c_str());
    const char* value = argv[++i];
    if (flag == option::kPlugin) {
      plugin = value;
    } else if (flag == option::kScratch) {
      config.scratch_dir = value;
    } else if (flag == option::kLevel) {
      const auto level = awb::runner::parse_isolation(value);
      if (!level || *level == awb::runner::Isolation::kInProcess) usage("unknown --level");
      config.target = *level;
    } else if (flag == option::kMinLevel) {
      const auto level = awb::runner::parse_isolation(value);
      if (!level || *level == awb::runner::Isolation::kInProcess) usage("unknown --min-level");
      config.minimum = *level;
    } else if (flag == option::kParent) {
      config.parent = number<pid_t>(flag, value);
    } else if (flag == option::kUid) {
      config.uid = number<uid_t>(flag, value);
    } else if (flag == option::kCpuSeconds) {
      config.cpu_seconds = number<double>(flag, value);
    } else if (flag == option::kMemoryMb) {
      config.memory_mb = number<int64_t>(flag, value);
    } else if (flag == option::kFileMb) {
      config.file_mb = number<int64_t>(flag, value);
    } else if (flag == option::kOpenFiles) {
      config.open_files = number<int64_t>(flag, value);
    } else {
      usage(("unknown option " + std::string(flag)).c_str());
    }
  }
}

int run_runner(int argc, char** argv) {
  // Only the descriptors the protocol names survive, whatever the parent leaked.
  ::close_range(kSharedFd + 1, ~0U, 0);
  ::signal(SIGPIPE, SIG_IGN);

  awb::runner::LockdownConfig config;
  std::string plugin;
  read_options(argc, argv, config, plugin);
  if (plugin.empty() || config.scratch_dir.empty()) usage("--plugin and --scratch are required");
#if defined(AWB_SANITIZED)
  // AddressSanitizer reserved terabytes of shadow address space before main(): any address-space
  // limit would make every later mapping fail, so a sanitized runner has none, whatever its host
  // asked (the host leaves it off too when it is sanitized itself).
  config.memory_mb = 0;
#endif
  if (::fcntl(kRequestFd, F_GETFD) < 0 || ::fcntl(kResultFd, F_GETFD) < 0)
    usage("fds 3 and 4 must be the request and result pipes");

  // Opened before privileges drop: the uid we become may not be able to reach the file.
  const int plugin_fd = ::open(plugin.c_str(), O_RDONLY | O_CLOEXEC);
  const int open_errno = errno;
  config.plugin_dir = plugin.substr(0, plugin.find_last_of('/') + 1);
  if (config.plugin_dir.empty()) config.plugin_dir = ".";
  if (::chdir(config.scratch_dir.c_str()) != 0) usage("cannot enter the scratch folder");

  // Large blocks from the heap, kept when freed: each request's tensors then reuse pages the
  // previous one faulted in, instead of a fresh mmap (and a page fault per 4 KiB) every call.
  ::mallopt(M_MMAP_THRESHOLD, 256 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 512 << 20);
  // Mapped before lockdown and its descriptor closed: the plugin finds no descriptor to it.
  const awb::runner::SharedRegion region = awb::runner::SharedRegion::adopt(kSharedFd);
  const awb::runner::LockdownReport report = awb::runner::lock_down(config);
  // The level is fixed here, before any plugin code runs (its static constructors run inside
  // dlopen): below the minimum the plugin is never loaded, and the host hears why.
  if (report.reached < config.minimum) {
    std::string notes;
    for (const auto& n : report.notes) notes += (notes.empty() ? "" : "; ") + n;
    awb::runner::LoadFailed refused{
        "isolation",
        std::string("the runner reached isolation '") + awb::runner::to_string(report.reached) +
            "', below the required '" + awb::runner::to_string(config.minimum) +
            "': the plugin was not loaded",
        notes};
    awb::wire::send_frame(kResultFd, awb::wire::Type::kLoadFailed, 0, 0,
                          awb::runner::encode(refused));
    return 0;
  }
  if (plugin_fd < 0) {
    awb::runner::LoadFailed failure{"open", "cannot open the plugin file",
                                    std::strerror(open_errno)};
    awb::wire::send_frame(kResultFd, awb::wire::Type::kLoadFailed, 0, 0,
                          awb::runner::encode(failure));
    return 0;
  }
  return awb::runner::serve(plugin_fd, report, kRequestFd, kResultFd, region);
}

// awb-runner --zygote FD --parent PID: only that descriptor survives besides 0-2.
int run_zygote(int argc, char** argv) {
  if (argc != 5 || std::string_view(argv[3]) != option::kParent)
    usage("--zygote needs FD and --parent PID");
  const int socket = number<int>(option::kZygote, argv[2]);
  const pid_t parent = number<pid_t>(option::kParent, argv[4]);
  if (socket <= 2 || ::fcntl(socket, F_GETFD) < 0) usage("--zygote FD is not an open socket");
  ::close_range(static_cast<unsigned>(socket) + 1, ~0U, 0);
  if (socket > 3) ::close_range(3, static_cast<unsigned>(socket) - 1, 0);
  awb::runner::prepare_seccomp();
  return awb::runner::serve_zygote(socket, parent, run_runner);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1 && std::string_view(argv[1]) == option::kZygote) return run_zygote(argc, argv);
  return run_runner(argc, argv);
}
