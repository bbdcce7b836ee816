// runner_process.cpp: spawning awb-runner with posix_spawn, the host's poll loop (frames in,
// requests out, capped output, wall and CPU limits) and the classification of every fault.
#include "core/runner_client/runner_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
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
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "core/base/install_paths.hpp"
#include "graders/model/error.hpp"

extern char** environ;

namespace awb::core {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

std::mutex g_live_mutex;
std::set<pid_t> g_live;  // runners this process started and has not reaped yet

// Orphans of a runner's descendants come to us rather than to init, so they can be ended.
void become_subreaper() {
  static std::once_flag once;
  std::call_once(once, [] {
    ::prctl(PR_SET_CHILD_SUBREAPER, 1);
    ::signal(SIGPIPE, SIG_IGN);  // a runner that died must not kill the host mid-write
  });
}

// One uid per runner, outside any range a distribution hands out.
uid_t next_sandbox_uid() {
  static std::atomic<uint32_t> counter{0};
  return 1'500'000 + static_cast<uid_t>(::getpid() % 5000) * 100 + counter++ % 100;
}

// Ends processes that were reparented to us (a runner's escaped descendants) and reaps them.
void reap_orphans() {
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

std::string signal_name(int sig) {
  const char* abbrev = ::sigabbrev_np(sig);
  const char* descr = ::sigdescr_np(sig);
  return std::string("SIG") + (abbrev ? abbrev : std::to_string(sig)) + " (" +
         (descr ? descr : "unknown signal") + ")";
}

int move_high(int fd) {
  const int high = ::fcntl(fd, F_DUPFD_CLOEXEC, 10);
  ::close(fd);
  return high;
}

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

std::string format_seconds(double s) {
  std::ostringstream os;
  os << s << " s";
  return os.str();
}

bool sanitized_build() {
#if defined(__SANITIZE_ADDRESS__)
  return true;
#else
  return false;
#endif
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
  }
  return "runner.unknown";
}

fs::path runner_executable() {
  return shipped_path(fs::path(AWB_BUILD_TREE_BIN_DIR) / "awb-runner", "bin/awb-runner");
}

RunnerProcess::RunnerProcess(const fs::path& plugin, const RunnerOptions& options)
    : options_(options) {
  become_subreaper();
  const RunnerLimits& lim = options_.limits;
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(plugin, ec), ec);
  std::string scratch = (fs::temp_directory_path(ec) / "awb-runner-XXXXXX").string();
  if (!::mkdtemp(scratch.data()))
    throw Error(error_id(Fault::kSpawnFailed),
                std::string("scratch folder: ") + std::strerror(errno));
  scratch_ = scratch;

  int req[2], res[2], out[2], err[2];
  if (::pipe2(req, O_CLOEXEC) || ::pipe2(res, O_CLOEXEC) || ::pipe2(out, O_CLOEXEC) ||
      ::pipe2(err, O_CLOEXEC)) {
    fs::remove_all(scratch_, ec);
    throw Error(error_id(Fault::kSpawnFailed), std::string("pipe: ") + std::strerror(errno));
  }
  // The child's ends are moved above the protocol's numbers so no dup2 overwrites another.
  const int child_req = move_high(req[0]), child_res = move_high(res[1]);
  const int child_out = move_high(out[1]), child_err = move_high(err[1]);
  request_fd_ = req[1];
  result_fd_ = res[0];
  out_.fd = out[0];
  err_.fd = err[0];

  posix_spawn_file_actions_t fa;
  ::posix_spawn_file_actions_init(&fa);
  ::posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  ::posix_spawn_file_actions_adddup2(&fa, child_out, 1);
  ::posix_spawn_file_actions_adddup2(&fa, child_err, 2);
  ::posix_spawn_file_actions_adddup2(&fa, child_req, 3);
  ::posix_spawn_file_actions_adddup2(&fa, child_res, 4);
  posix_spawnattr_t attr;
  ::posix_spawnattr_init(&attr);
  sigset_t none, all;
  sigemptyset(&none);
  sigfillset(&all);
  ::posix_spawnattr_setsigmask(&attr, &none);
  ::posix_spawnattr_setsigdefault(&attr, &all);
  // A session of its own: its own process group (killed as one), and no controlling terminal,
  // so even at `process` it cannot open /dev/tty and push keystrokes into ours (TIOCSTI).
  ::posix_spawnattr_setflags(
      &attr, POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  // A process of the same user may read and write another's memory and descriptors through
  // /proc unless it is marked non-dumpable: then only root can. Once awb runs untrusted code it
  // no longer lets anything of its own uid in (a runner below `limited` is such a process).
  static const bool sealed = ::prctl(PR_SET_DUMPABLE, 0) == 0;
  (void)sealed;

  const std::string exe = runner_executable().string();
  // The session's CPU rlimit is a backstop; each request's CPU time is enforced by the host.
  const double session_cpu = std::max(60.0, 20 * lim.cpu_seconds);
  std::vector<std::string> args = {exe,
                                   "--plugin",
                                   abs.string(),
                                   "--scratch",
                                   scratch_.string(),
                                   "--level",
                                   runner::to_string(options_.level),
                                   "--parent",
                                   std::to_string(::getpid()),
                                   "--cpu-seconds",
                                   std::to_string(session_cpu),
                                   "--memory-mb",
                                   std::to_string(sanitized_build() ? 0 : lim.memory_mb),
                                   "--file-mb",
                                   std::to_string(lim.file_mb),
                                   "--open-files",
                                   std::to_string(lim.open_files)};
  if (::geteuid() == 0) {
    args.push_back("--uid");
    args.push_back(std::to_string(next_sandbox_uid()));
  }
  std::vector<std::string> env = {"PATH=/usr/bin:/bin", "LC_ALL=C"};
  for (char** e = environ; *e; ++e) {
    const std::string_view v = *e;
    if (v.starts_with("ASAN_OPTIONS=") || v.starts_with("UBSAN_OPTIONS=") ||
        v.starts_with("LSAN_OPTIONS="))
      env.emplace_back(v);
  }
  std::vector<char*> argv, envp;
  for (auto& a : args) argv.push_back(a.data());
  for (auto& e : env) envp.push_back(e.data());
  argv.push_back(nullptr);
  envp.push_back(nullptr);

  pid_t pid = -1;
  const int rc = spawn_from_lasting_thread([&] {
    std::lock_guard lock(g_live_mutex);  // registered before any orphan scan can see it
    const int r = ::posix_spawn(&pid, exe.c_str(), &fa, &attr, argv.data(), envp.data());
    if (r == 0) g_live.insert(pid);
    return r;
  });
  ::posix_spawn_file_actions_destroy(&fa);
  ::posix_spawnattr_destroy(&attr);
  for (int fd : {child_req, child_res, child_out, child_err}) ::close(fd);
  if (rc != 0) {
    end_process();
    throw Error(error_id(Fault::kSpawnFailed), "cannot start " + exe + ": " + std::strerror(rc));
  }
  pid_ = pid;
  pidfd_ = static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0));
  for (int fd : {request_fd_, result_fd_, out_.fd, err_.fd}) set_nonblocking(fd);

  auto frame = await_frame(wire::kMaxControlPayload, nullptr);
  if (!frame) fail_from_exit();
  using wire::Type;
  if (frame->header.type == static_cast<uint16_t>(Type::kHello)) {
    hello_ = runner::decode_hello(frame->payload);
    if (!hello_) fail(Fault::kMalformedResult, "the runner's hello is malformed");
  } else if (frame->header.type == static_cast<uint16_t>(Type::kLoadFailed)) {
    load_failure_ = runner::decode_load_failed(frame->payload);
    if (!load_failure_) fail(Fault::kMalformedResult, "the runner's load report is malformed");
    end_process();
  } else {
    fail(Fault::kMalformedResult, "the runner's first frame is neither hello nor a load report");
  }
}

RunnerProcess::~RunnerProcess() { end_process(); }

void RunnerProcess::set_request_limits(double cpu_seconds, double wall_seconds) {
  options_.limits.cpu_seconds = cpu_seconds;
  options_.limits.wall_seconds = wall_seconds;
}

double RunnerProcess::cpu_seconds_used() const {
  // The process's CPU clock: one system call, all its threads, no /proc parsing.
  clockid_t clock{};
  timespec ts{};
  if (::clock_getcpuclockid(pid_, &clock) != 0 || ::clock_gettime(clock, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

bool RunnerProcess::pump(int timeout_ms, std::vector<uint8_t>* pending, size_t& written) {
  pollfd fds[5];
  int n = 0;
  const int i_res = result_eof_ ? -1 : n;
  if (!result_eof_) fds[n++] = {result_fd_, POLLIN, 0};
  const int i_out = out_.fd >= 0 ? n : -1;
  if (out_.fd >= 0) fds[n++] = {out_.fd, POLLIN, 0};
  const int i_err = err_.fd >= 0 ? n : -1;
  if (err_.fd >= 0) fds[n++] = {err_.fd, POLLIN, 0};
  const bool writing = pending && written < pending->size();
  const int i_req = writing ? n : -1;
  if (writing) fds[n++] = {request_fd_, POLLOUT, 0};
  const int i_pid = pidfd_ >= 0 ? n : -1;
  if (pidfd_ >= 0) fds[n++] = {pidfd_, POLLIN, 0};
  if (::poll(fds, static_cast<nfds_t>(n), timeout_ms) < 0 && errno != EINTR) return false;

  char buf[65536];
  auto drain_output = [&](Output& o) {
    for (;;) {
      const ssize_t r = ::read(o.fd, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) {
        ::close(o.fd);
        o.fd = -1;
      }
      if (r <= 0) return;
      const size_t keep = std::min(
          static_cast<size_t>(r),
          options_.limits.output_keep - std::min(options_.limits.output_keep, o.kept.size()));
      o.kept.append(buf, keep);
      o.total += static_cast<size_t>(r);
      if (out_.total + err_.total > options_.limits.output_limit)
        fail(Fault::kOutputLimit, "printed more than " +
                                      std::to_string(options_.limits.output_limit >> 10) +
                                      " KiB (stdout and stderr together)");
    }
  };
  auto drain_results = [&] {
    for (;;) {
      const ssize_t r = ::read(result_fd_, buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) result_eof_ = true;
      if (r <= 0) return;
      inbox_.insert(inbox_.end(), buf, buf + r);
      if (inbox_.size() > (size_t{1} << 32))
        fail(Fault::kMalformedResult, "the runner sent more than any request allows");
    }
  };
  if (i_out >= 0 && fds[i_out].revents) drain_output(out_);
  if (i_err >= 0 && fds[i_err].revents) drain_output(err_);
  if (i_res >= 0 && fds[i_res].revents) drain_results();
  if (i_req >= 0 && fds[i_req].revents) {
    if (fds[i_req].revents & (POLLERR | POLLHUP)) {
      written = pending->size();  // the runner stopped reading; its exit tells why
    } else {
      const ssize_t w = ::write(request_fd_, pending->data() + written, pending->size() - written);
      if (w > 0) written += static_cast<size_t>(w);
    }
  }
  if (i_pid >= 0 && fds[i_pid].revents) {
    // The runner is gone: what it wrote is all there is.
    if (out_.fd >= 0) drain_output(out_);
    if (err_.fd >= 0) drain_output(err_);
    if (!result_eof_) drain_results();
    result_eof_ = true;
  }
  return true;
}

std::optional<RunnerProcess::Frame> RunnerProcess::await_frame(
    uint32_t max_payload, const std::vector<uint8_t>* request) {
  using namespace wire;
  const auto start = Clock::now();
  const double cpu_start = cpu_seconds_used();
  std::vector<uint8_t> pending = request ? *request : std::vector<uint8_t>{};
  size_t written = 0;
  const RunnerLimits& lim = options_.limits;
  for (;;) {
    if (inbox_.size() >= sizeof(Header)) {
      Header h;
      std::memcpy(&h, inbox_.data(), sizeof h);
      const bool known = h.type == static_cast<uint16_t>(Type::kHello) ||
                         h.type == static_cast<uint16_t>(Type::kLoadFailed) ||
                         h.type == static_cast<uint16_t>(Type::kResult);
      if (h.magic != kMagic || h.version != kVersion || !known)
        fail(Fault::kMalformedResult, "the runner sent a frame with a bad header");
      if (h.payload_size > max_payload)
        fail(Fault::kMalformedResult, "the runner sent a frame of " +
                                          std::to_string(h.payload_size) + " bytes, more than " +
                                          std::to_string(max_payload) + " allowed here");
      if (inbox_.size() >= sizeof h + h.payload_size) {
        Frame f{h, std::vector<uint8_t>(inbox_.begin() + sizeof h,
                                        inbox_.begin() + sizeof h + h.payload_size)};
        inbox_.erase(inbox_.begin(), inbox_.begin() + sizeof h + h.payload_size);
        return f;
      }
    }
    if (result_eof_) return std::nullopt;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed > lim.wall_seconds)
      fail(Fault::kWallLimit, "wall-clock limit of " + format_seconds(lim.wall_seconds) +
                                  " exceeded (still running when stopped)");
    if (cpu_seconds_used() - cpu_start > lim.cpu_seconds)
      fail(Fault::kCpuLimit, "CPU limit of " + format_seconds(lim.cpu_seconds) + " exceeded");
    const double left_ms = (lim.wall_seconds - elapsed) * 1000;
    pump(static_cast<int>(std::clamp(left_ms, 1.0, 100.0)), &pending, written);
  }
}

std::vector<uint8_t> RunnerProcess::call(wire::Type type, const std::vector<uint8_t>& payload,
                                         size_t max_result) {
  if (!alive()) throw Error(error_id(Fault::kNoResult), "the runner is not running");
  if (!inbox_.empty())
    fail(Fault::kMalformedResult, "the runner sent a frame nobody asked for (a forged result?)");
  const uint32_t id = next_request_++;
  static thread_local std::mt19937_64 rng{std::random_device{}()};
  const uint64_t nonce = rng();
  wire::Header h;
  h.type = static_cast<uint16_t>(type);
  h.request_id = id;
  h.nonce = nonce;
  h.payload_size = static_cast<uint32_t>(payload.size());
  std::vector<uint8_t> request(sizeof h);
  std::memcpy(request.data(), &h, sizeof h);
  request.insert(request.end(), payload.begin(), payload.end());

  auto frame =
      await_frame(static_cast<uint32_t>(std::min<size_t>(max_result, UINT32_MAX)), &request);
  if (!frame) fail_from_exit();
  if (frame->header.type != static_cast<uint16_t>(wire::Type::kResult) ||
      frame->header.request_id != id || frame->header.nonce != nonce)
    fail(Fault::kMalformedResult,
         "a result frame did not answer the request (wrong type, id or nonce: a forged frame?)");
  return std::move(frame->payload);
}

void RunnerProcess::raise_for_status(const runner::ResultHead& head, const char* failed_id) {
  if (head.allocation_failed || head.status == AWB_ERR_OUT_OF_MEMORY)
    throw Error(error_id(Fault::kMemoryLimit),
                "ran out of memory: the address-space limit is " +
                    std::to_string(options_.limits.memory_mb) + " MB" +
                    (head.message.empty() ? "" : " (" + head.message + ")"));
  if (head.status != AWB_OK)
    throw Error(head.message.starts_with("create() failed") ? "plugin.create_failed" : failed_id,
                std::string("status ") + std::to_string(head.status) + ": " + head.message);
}

void RunnerProcess::forward(uint32_t variant, const awb_problem& problem, awb_results& results) {
  const auto payload = call(wire::Type::kForward, runner::encode_forward(variant, problem, results),
                            runner::max_result_size(results, problem.scalar));
  auto head = runner::decode_result(payload, problem.scalar, results);
  if (!head) fail(Fault::kMalformedResult, "the result frame's layout does not match the request");
  raise_for_status(*head, "plugin.forward_failed");
}

void RunnerProcess::backward(uint32_t variant, const awb_problem& problem,
                             const awb_results& forward, const awb_tensor& dz, const awb_tensor* da,
                             awb_gradients& grads) {
  const auto payload =
      call(wire::Type::kBackward, runner::encode_backward(variant, problem, forward, dz, da, grads),
           runner::max_backward_result_size(grads, problem.scalar));
  std::string why;
  auto head = runner::decode_backward_result(payload, problem.scalar, grads, why);
  if (!head) fail(Fault::kMalformedResult, "the backward result is malformed: " + why);
  raise_for_status(*head, "plugin.backward_failed");
}

void RunnerProcess::close() {
  if (!alive()) return;
  using namespace wire;
  Header h;
  h.type = static_cast<uint16_t>(Type::kBye);
  write_all(request_fd_, &h, sizeof h);  // EPIPE when it already left: fine
  const auto deadline = Clock::now() + std::chrono::seconds(2);
  std::vector<uint8_t> none;
  size_t written = 0;
  while (!result_eof_ && Clock::now() < deadline) pump(50, &none, written);
  const bool stray = !inbox_.empty();
  end_process();
  if (stray)
    throw Error(error_id(Fault::kMalformedResult),
                "the runner sent a frame nobody asked for (a forged result?)");
}

std::string RunnerProcess::output_excerpt() const {
  // The last few lines of stderr (else stdout), without the runner's own verdict line.
  std::string text = !err_.kept.empty() ? err_.kept : out_.kept;
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
  throw Error(error_id(fault), reason + output_excerpt());
}

void RunnerProcess::fail_from_exit() {
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
  const auto drain_until = Clock::now() + std::chrono::seconds(1);
  while ((out_.fd >= 0 || err_.fd >= 0) && Clock::now() < drain_until)
    pump(20, &none, written);  // whatever it printed last
  const double cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec +
                     (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
  Fault fault = Fault::kNoResult;
  std::string reason;
  if (WIFSIGNALED(status)) {
    const int sig = WTERMSIG(status);
    const std::string& err = err_.kept;
    const auto forbidden = err.find("forbidden system call: ");
    if (sig == SIGSYS) {
      fault = Fault::kForbiddenSyscall;
      reason = forbidden == std::string::npos
                   ? "used a forbidden system call"
                   : "used a " + err.substr(forbidden, err.find('\n', forbidden) - forbidden);
    } else if (sig == SIGXCPU ||
               (sig == SIGKILL && cpu >= std::max(60.0, 20 * options_.limits.cpu_seconds))) {
      fault = Fault::kCpuLimit;
      reason = "CPU limit of the session exceeded (" + format_seconds(cpu) + ")";
    } else if (sig == SIGXFSZ) {
      fault = Fault::kFileLimit;
      reason = "wrote a file larger than " + std::to_string(options_.limits.file_mb) + " MB";
    } else if (err.find("std::bad_alloc") != std::string::npos ||
               // ASan's operator new reports running out of memory and aborts; it never throws.
               (sanitized_build() &&
                (err.find("SUMMARY: AddressSanitizer: out-of-memory") != std::string::npos ||
                 err.find("SUMMARY: AddressSanitizer: allocation-size-too-big") !=
                     std::string::npos))) {
      fault = Fault::kMemoryLimit;
      reason = "ran out of memory (" + std::to_string(options_.limits.memory_mb) +
               " MB address space) and died of " + signal_name(sig);
    } else {
      fault = Fault::kCrashed;
      reason = "crashed: " + signal_name(sig);
    }
  } else {
    reason =
        "exited with status " + std::to_string(WEXITSTATUS(status)) + " without sending a result";
  }
  fail(fault, reason);
}

void RunnerProcess::end_process() {
  if (pid_ > 0) {
    if (!wait_status_) {
      ::kill(-pid_, SIGKILL);  // the whole group: anything it started without leaving it
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
      wait_status_ = status;
    }
    {
      std::lock_guard lock(g_live_mutex);
      g_live.erase(pid_);
    }
    pid_ = -1;
    // Below `limited` a plugin can fork and its descendants can leave the group; they come to
    // us as the subreaper. Above it, seccomp forbids creating processes at all.
    if (level() < runner::Isolation::kLimited) reap_orphans();
  }
  for (int* fd : {&pidfd_, &request_fd_, &result_fd_, &out_.fd, &err_.fd})
    if (*fd >= 0) {
      ::close(*fd);
      *fd = -1;
    }
  std::error_code ec;
  if (!scratch_.empty()) fs::remove_all(scratch_, ec);
  scratch_.clear();
}

}  // namespace awb::core
