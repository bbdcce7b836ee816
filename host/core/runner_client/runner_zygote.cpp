// runner_zygote.cpp: the zygote's life in this process (started on first use, replaced when it
// dies) and the request that asks it for one runner.
#include "core/runner_client/runner_zygote.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <string_view>

#include "core/runner_client/runner_spawn.hpp"
#include "core/runner_client/unique_fd.hpp"
#include "runner/command_line.hpp"
#include "runner/zygote_wire.hpp"

namespace awb::core {
namespace {

// A zygote that has not answered in this long is taken for hung and replaced.
constexpr int kAnswerTimeoutMs = 10'000;
// The zygote's end of its socket sits at or above runner::kFirstHighFd while it is spawned (as a
// runner's pipes do).

std::atomic<pid_t> g_zygote_pid{-1};

struct Zygote {
  std::mutex mutex;  // one request at a time, and the zygote's start and end
  UniqueFd socket;
  pid_t pid = -1;

  void discard() {
    socket.reset();
    if (pid > 0) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, nullptr, 0);
      forget_runner(pid);
    }
    pid = -1;
    g_zygote_pid = -1;
  }

  int start() {
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) return errno;
    UniqueFd mine(sv[0]), theirs(::fcntl(sv[1], F_DUPFD_CLOEXEC, runner::kFirstHighFd));
    ::close(sv[1]);
    UniqueFd null(::open("/dev/null", O_WRONLY | O_CLOEXEC));
    if (!theirs.valid() || !null.valid()) return errno;
    UniqueFd high_null(::fcntl(null.get(), F_DUPFD_CLOEXEC, runner::kFirstHighFd));
    if (!high_null.valid()) return errno;
    constexpr int kSocketFd = 3;
    const std::vector<std::string> args = {runner_executable().string(), runner::option::kZygote,
                                           std::to_string(kSocketFd), runner::option::kParent,
                                           std::to_string(::getpid())};
    const int rc = spawn_sandboxed(args,
                                   {{high_null.get(), runner::kStdoutFd},
                                    {high_null.get(), runner::kStderrFd},
                                    {theirs.get(), kSocketFd}},
                                   pid);
    if (rc != 0) {
      pid = -1;
      return rc;
    }
    socket = std::move(mine);
    g_zygote_pid = pid;
    return 0;
  }

  // Sends the request and reads the answer: 0 with `out` set, or an errno; `sent` tells whether
  // the zygote has the request (a SOCK_SEQPACKET message arrives whole or not at all).
  int ask(const std::vector<uint8_t>& request, const std::vector<int>& fds, pid_t& out,
          bool& sent) {
    sent = runner::send_with_descriptors(socket.get(), request, fds);
    if (!sent) return errno;
    pollfd p{socket.get(), POLLIN, 0};
    int ready = 0;
    do {
      ready = ::poll(&p, 1, kAnswerTimeoutMs);
    } while (ready < 0 && errno == EINTR);
    if (ready <= 0) return ready == 0 ? ETIMEDOUT : errno;
    int32_t answer = 0;
    ssize_t n = 0;
    do {
      n = ::recv(socket.get(), &answer, sizeof answer, 0);
    } while (n < 0 && errno == EINTR);
    if (n != static_cast<ssize_t>(sizeof answer)) return n < 0 ? errno : EPROTO;
    if (answer <= 0) return answer < 0 ? -answer : EPROTO;
    out = answer;
    return 0;
  }
};

Zygote& the_zygote() {
  static Zygote* const z = new Zygote;  // never destroyed: runners may start until the very end
  return *z;
}

}  // namespace

pid_t zygote_pid() { return g_zygote_pid; }

bool zygote_enabled() {
  const char* v = std::getenv("AWB_RUNNER_ZYGOTE");
  return !v || std::string_view(v) != "off";
}

ZygoteStart start_from_zygote(const std::vector<std::string>& args,
                              const std::vector<std::string>& env,
                              const std::vector<std::pair<int, int>>& descriptors, pid_t& pid) {
  runner::ZygoteRequest request{args, env, {}};
  std::vector<int> fds;
  for (const auto& [from, to] : descriptors) {
    fds.push_back(from);
    request.targets.push_back(to);
  }
  const auto bytes = runner::encode(request);
  if (!bytes) return {E2BIG, true};
  Zygote& z = the_zygote();
  std::lock_guard lock(z.mutex);
  if (!z.socket.valid()) {
    if (const int rc = z.start(); rc != 0) return {rc, true};
  }
  // Registered under the registry's lock, as a spawned runner is: the runner is our child from
  // its first instant, and an orphan scan must not take it for an escaped descendant.
  bool sent = false;
  const int rc =
      start_registered([&](pid_t& started) { return z.ask(*bytes, fds, started, sent); }, pid);
  if (rc != 0) z.discard();  // dead, hung or confused: the next runner gets a new one
  return {rc, rc != 0 && !sent};
}

}  // namespace awb::core
