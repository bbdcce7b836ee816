// runner_spawn.cpp: starting awb-runner with posix_spawn from one lasting thread: pipes, scratch
// folder, argv and environment, and the registry of live runners the orphan reaper respects.
#include "core/runner_client/runner_spawn.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "core/base/install_paths.hpp"
#include "core/base/temp_folder.hpp"
#include "core/runner_client/runner_zygote.hpp"
#include "graders/model/error.hpp"
#include "runner/command_line.hpp"

extern char** environ;

namespace awb::core {

namespace fs = std::filesystem;

namespace {

std::mutex g_live_mutex;
std::set<pid_t> g_live;  // runners this process started and has not reaped yet

// The parent-death signal fires when the *thread* that spawned a runner exits, and runners may
// outlive the thread that asked for them (a GUI job, a batch worker). So every runner is spawned
// from one thread that lives as long as the process.
int spawn_from_lasting_thread(std::function<int()> spawn) {
  struct Queue {
    std::mutex mutex;
    std::condition_variable wake;
    std::deque<std::packaged_task<int()>> tasks;
  };
  // Never destroyed: the thread waits on it until the process ends.
  static Queue* const q = [] {
    auto* queue = new Queue;
    std::thread([queue] {
      for (;;) {
        std::unique_lock lock(queue->mutex);
        queue->wake.wait(lock, [queue] { return !queue->tasks.empty(); });
        auto task = std::move(queue->tasks.front());
        queue->tasks.pop_front();
        lock.unlock();
        task();
      }
    }).detach();
    return queue;
  }();
  std::packaged_task<int()> task(std::move(spawn));
  auto result = task.get_future();
  {
    std::lock_guard lock(q->mutex);
    q->tasks.push_back(std::move(task));
  }
  q->wake.notify_one();
  return result.get();
}

[[noreturn]] void spawn_failed(const std::string& what) {
  throw Error(error_id(Fault::kSpawnFailed), what + ": " + std::strerror(errno));
}

struct Pipe {
  UniqueFd read, write;
};

Pipe open_pipe() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) spawn_failed("pipe");
  return {UniqueFd(fds[0]), UniqueFd(fds[1])};
}

// The runner's ends of its pipes sit at or above runner::kFirstHighFd, still close-on-exec (dup2
// clears that flag on the copy the runner gets).
using runner::kFirstHighFd;

UniqueFd move_high(UniqueFd fd) {
  UniqueFd high(::fcntl(fd.get(), F_DUPFD_CLOEXEC, kFirstHighFd));
  if (!high.valid()) spawn_failed("pipe");
  return high;
}

}  // namespace

uid_t next_sandbox_uid() {
  static std::atomic<uint32_t> counter{0};
  return 1'500'000 + static_cast<uid_t>(::getpid() % 5000) * 100 + counter++ % 100;
}

fs::path runner_executable() {
  return shipped_path(fs::path(AWB_BUILD_TREE_BIN_DIR) / "awb-runner", "bin/awb-runner");
}

void become_subreaper() {
  static std::once_flag once;
  std::call_once(once, [] {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    ::signal(SIGPIPE, SIG_IGN);  // a runner that died must not kill the host mid-write
  });
}

RunnerPipes open_runner_pipes(int shared_region) {
  // Each pipe owns its ends from the moment it exists: when a later one fails, the earlier ones
  // close on the way out.
  Pipe req = open_pipe();
  Pipe res = open_pipe();
  Pipe out = open_pipe();
  Pipe err = open_pipe();
  RunnerPipes p;
  p.child_request = move_high(std::move(req.read));
  p.child_result = move_high(std::move(res.write));
  p.child_out = move_high(std::move(out.write));
  p.child_err = move_high(std::move(err.write));
  if (shared_region >= 0) {
    p.child_shared.reset(::fcntl(shared_region, F_DUPFD_CLOEXEC, kFirstHighFd));
    if (!p.child_shared.valid()) spawn_failed("shared region");
  }
  p.request = std::move(req.write);
  p.result = std::move(res.read);
  p.out = std::move(out.read);
  p.err = std::move(err.read);
  return p;
}

fs::path make_scratch_folder() {
  const auto scratch = make_temp_folder(kScratchPrefix);
  if (!scratch) spawn_failed("scratch folder");
  return *scratch;
}

std::vector<std::string> runner_arguments(const fs::path& plugin, const fs::path& scratch,
                                          const RunnerOptions& options) {
  namespace option = runner::option;
  const RunnerLimits& lim = options.limits;
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(plugin, ec), ec);
  std::vector<std::string> args = {runner_executable().string(),
                                   option::kPlugin,
                                   abs.string(),
                                   option::kScratch,
                                   scratch.string(),
                                   option::kLevel,
                                   runner::to_string(options.level),
                                   option::kMinLevel,
                                   runner::to_string(options.minimum),
                                   option::kParent,
                                   std::to_string(::getpid()),
                                   option::kCpuSeconds,
                                   std::to_string(session_cpu_seconds(lim)),
                                   option::kMemoryMb,
                                   std::to_string(kSanitizedBuild ? 0 : lim.memory_mb),
                                   option::kFileMb,
                                   std::to_string(lim.file_mb),
                                   option::kOpenFiles,
                                   std::to_string(lim.open_files)};
  if (::geteuid() == 0) {
    args.push_back(option::kUid);
    args.push_back(std::to_string(next_sandbox_uid()));
  }
  return args;
}

int spawn_runner(const std::vector<std::string>& args, const RunnerPipes& pipes, pid_t& pid,
                 bool through_zygote) {
  std::vector<std::pair<int, int>> descriptors = {{pipes.child_out.get(), runner::kStdoutFd},
                                                  {pipes.child_err.get(), runner::kStderrFd},
                                                  {pipes.child_request.get(), runner::kRequestFd},
                                                  {pipes.child_result.get(), runner::kResultFd}};
  if (pipes.child_shared.valid())
    descriptors.emplace_back(pipes.child_shared.get(), runner::kSharedFd);
  if (through_zygote && zygote_enabled()) {
    const ZygoteStart z = start_from_zygote(args, sandbox_environment(), descriptors, pid);
    if (z.error == 0) return 0;
    if (!z.spawn_instead) return kZygoteLostRequest;
  }
  return spawn_sandboxed(args, descriptors, pid);
}

std::vector<std::string> sandbox_environment() {
  std::vector<std::string> env = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
  for (char** e = environ; *e; ++e) {
    const std::string_view v = *e;
    if (v.starts_with("ASAN_OPTIONS=") || v.starts_with("UBSAN_OPTIONS=") ||
        v.starts_with("LSAN_OPTIONS=") || v.starts_with("AWB_KERNEL_ISA="))
      env.emplace_back(v);
  }
  return env;
}

int start_registered(const std::function<int(pid_t&)>& start, pid_t& pid) {
  std::lock_guard lock(g_live_mutex);
  const int r = start(pid);
  if (r == 0) g_live.insert(pid);
  return r;
}

int spawn_sandboxed(const std::vector<std::string>& args,
                    const std::vector<std::pair<int, int>>& descriptors, pid_t& pid) {
  posix_spawn_file_actions_t fa;
  ::posix_spawn_file_actions_init(&fa);
  ::posix_spawn_file_actions_addopen(&fa, runner::kStdinFd, "/dev/null", O_RDONLY, 0);
  for (const auto& [from, to] : descriptors) ::posix_spawn_file_actions_adddup2(&fa, from, to);
  posix_spawnattr_t attr;
  ::posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  ::posix_spawnattr_setsigmask(&attr, &none);
  ::posix_spawnattr_setsigdefault(&attr, &all);
  // A session of its own: its own process group (killed as one), and no controlling terminal,
  // so even at `process` it cannot open /dev/tty and push keystrokes into ours (TIOCSTI).
  ::posix_spawnattr_setflags(&attr,
                             POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  // A process of the same user may read and write another's memory and descriptors through
  // /proc unless it is marked non-dumpable: then only root can. Once awb runs untrusted code it
  // no longer lets anything of its own uid in (a runner below `limited` is such a process).
  static const bool sealed = ::prctl(PR_SET_DUMPABLE, 0) == 0;
  (void)sealed;

  std::vector<std::string> env = sandbox_environment();
  std::vector<std::string> arg_copy = args;
  std::vector<char*> argv, envp;
  for (auto& a : arg_copy) argv.push_back(a.data());
  for (auto& e : env) envp.push_back(e.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  const int rc = spawn_from_lasting_thread([&] {
    return start_registered(
        [&](pid_t& started) {
          return ::posix_spawn(&started, argv[0], &fa, &attr, argv.data(), envp.data());
        },
        pid);
  });
  ::posix_spawn_file_actions_destroy(&fa);
  ::posix_spawnattr_destroy(&attr);
  return rc;
}

void forget_runner(pid_t pid) {
  std::lock_guard lock(g_live_mutex);
  g_live.erase(pid);
}

namespace {

void reap_unregistered_children() {
  const pid_t self = ::getpid();
  // Until none remain: each round kills what was reparented to us, and their children are
  // reparented for the next (a chain of setsid'd processes, however deep). The clock bounds a
  // descendant that forks faster than it dies.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  while (std::chrono::steady_clock::now() < give_up) {
    std::vector<pid_t> orphans;
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator("/proc", ec)) {
      const std::string name = entry.path().filename();
      if (name.empty() || !std::all_of(name.begin(), name.end(), ::isdigit)) continue;
      std::ifstream stat(entry.path() / "stat");
      std::string line;
      if (!std::getline(stat, line)) continue;
      const auto close_paren = line.rfind(')');
      if (close_paren == std::string::npos) continue;
      std::istringstream rest(line.substr(close_paren + 2));
      char state = 0;
      pid_t ppid = 0;
      rest >> state >> ppid;
      const pid_t pid = std::stoi(name);
      if (ppid != self) continue;
      std::lock_guard lock(g_live_mutex);
      if (!g_live.count(pid)) orphans.push_back(pid);
    }
    // Our own non-runner children (none in awb itself) would be found too; the registry keeps
    // concurrent runners safe.
    if (orphans.empty()) return;
    for (pid_t p : orphans) {
      ::kill(p, SIGKILL);
      ::waitpid(p, nullptr, 0);
    }
  }
}

}  // namespace

// The zygote's spare is our child from its fork on, but is registered only once its answer is
// read: the scan runs while it is, and while no runner can be handed it.
void reap_orphans() { with_zygote_children_registered(reap_unregistered_children); }

}  // namespace awb::core
