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

// Ends a child of ours that is not serving anything (the zygote, a spare) and forgets it.
void end_child(pid_t child) {
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
  forget_runner(child);
}

struct Zygote {
  std::mutex mutex;  // one request at a time, and the zygote's start and end
  UniqueFd socket;
  pid_t pid = -1;
  // The spare: a child the zygote forked ahead (ours as well, registered), waiting on this
  // socket for the next runner's request.
  pid_t spare = -1;
  UniqueFd spare_socket;
  bool spare_requested = false;  // a spare request was sent and its answer not read yet

  void set_spare(pid_t p, UniqueFd s) {
    spare = p;
    spare_socket = std::move(s);
  }
  void drop_spare() {
    if (spare > 0) end_child(spare);
    set_spare(-1, UniqueFd());
  }

  void discard() {
    if (pid > 0) end_child(pid);  // first: a hung zygote then answers at once, with EOF
    pid = -1;
    g_zygote_pid = -1;
    if (spare_requested) {  // the spare it may have forked is ours to end too
      const Answer a = read_answer();
      if (a.error == 0 && a.spare > 0) end_child(a.spare);
    }
    spare_requested = false;
    socket.reset();
    drop_spare();
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

  // What the zygote answered: `error` 0, or an errno (`sent` tells whether it has the request: a
  // SOCK_SEQPACKET message arrives whole or not at all).
  struct Answer {
    int error = 0;
    bool sent = false;
    pid_t runner = -1;  // the runner it forked, for a runner's request
    pid_t spare = -1;   // the spare it forked for the next request, with its socket
    UniqueFd spare_socket;
  };

  // Sends the request (a runner's, or kSpareRequest) and reads the answer.
  Answer ask(const std::vector<uint8_t>& request, const std::vector<int>& fds) {
    if (!runner::send_with_descriptors(socket.get(), request, fds)) {
      Answer a;
      a.error = errno;
      return a;
    }
    Answer a = read_answer();
    a.sent = true;
    return a;
  }

  Answer read_answer() {
    Answer a;
    auto failed = [&a](int error) {
      a.error = error;
      return std::move(a);
    };
    pollfd p{socket.get(), POLLIN, 0};
    int ready = 0;
    do {
      ready = ::poll(&p, 1, kAnswerTimeoutMs);
    } while (ready < 0 && errno == EINTR);
    if (ready <= 0) return failed(ready == 0 ? ETIMEDOUT : errno);
    std::vector<uint8_t> bytes;
    std::vector<int> received;
    const ssize_t n = runner::receive_with_descriptors(socket.get(), bytes, received);
    UniqueFd spare_socket(received.empty() ? -1 : received[0]);
    for (size_t i = 1; i < received.size(); ++i) ::close(received[i]);
    runner::ZygoteAnswer answer;
    if (n != static_cast<ssize_t>(sizeof answer)) return failed(n < 0 ? errno : EPROTO);
    std::memcpy(&answer, bytes.data(), sizeof answer);
    if (answer.runner < 0) return failed(-answer.runner);
    if (answer.spare > 0 && spare_socket.valid()) {
      a.spare = answer.spare;
      a.spare_socket = std::move(spare_socket);
    }
    a.runner = answer.runner;
    return a;
  }

  // A runner's request and its answer, or the answer to the spare request sent last (`message`
  // null), each child it names registered under the registry's lock, as a spawned runner is:
  // it is our child from its first instant, and an orphan scan must not take it for an escaped
  // descendant.
  Answer registered(const std::vector<uint8_t>* message, const std::vector<int>& passed) {
    Answer a;
    pid_t child = -1;  // the runner, or the spare for a spare request
    a.error = start_registered(
        [&](pid_t& started) {
          a = message ? ask(*message, passed) : read_answer();
          started = message ? a.runner : a.spare;
          return a.error != 0 ? a.error : started > 0 ? 0 : EPROTO;
        },
        child);
    return a;
  }

  // The answer to the spare request sent last, if one is awaited: the spare it names becomes
  // ours. A zygote that does not give one is replaced.
  void collect_spare() {
    if (!spare_requested) return;
    spare_requested = false;
    Answer a = registered(nullptr, {});
    if (a.error == 0)
      set_spare(a.spare, std::move(a.spare_socket));
    else
      discard();
  }

  // Asks for the next spare without waiting: the zygote forks it while the host goes on, and the
  // answer is read when it is needed (collect_spare).
  void request_spare() {
    static const std::vector<uint8_t> kSpare(std::begin(runner::kSpareRequest),
                                             std::end(runner::kSpareRequest));
    if (runner::send_with_descriptors(socket.get(), kSpare, {}))
      spare_requested = true;
    else
      discard();
  }
};

Zygote& the_zygote() {
  static Zygote* const z = new Zygote;  // never destroyed: runners may start until the very end
  return *z;
}

}  // namespace

pid_t zygote_pid() { return g_zygote_pid; }

pid_t zygote_spare_pid() {
  Zygote& z = the_zygote();
  std::lock_guard lock(z.mutex);
  z.collect_spare();
  return z.spare;
}

void with_zygote_children_registered(const std::function<void()>& scan) {
  Zygote& z = the_zygote();
  std::lock_guard lock(z.mutex);
  z.collect_spare();
  scan();
}

void request_zygote_spare() {
  Zygote& z = the_zygote();
  // Never waits on the call path: while another thread starts a runner (which may wait for a
  // slow zygote), the spare is left for a later runner's answer to ask for.
  std::unique_lock lock(z.mutex, std::try_to_lock);
  // Only when none is held or on its way: a runner took the last one, or was forked without one.
  if (!lock.owns_lock() || !z.socket.valid() || z.spare > 0 || z.spare_requested) return;
  z.request_spare();
}

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
  z.collect_spare();
  if (!z.socket.valid()) {
    if (const int rc = z.start(); rc != 0) return {rc, true};
  }
  // The spare takes the request as it is: one hop, and no fork while we wait. The next spare is
  // asked for once this runner has answered (request_zygote_spare).
  if (z.spare > 0) {
    if (runner::send_with_descriptors(z.spare_socket.get(), *bytes, fds)) {
      pid = z.spare;
      z.set_spare(-1, UniqueFd());
      return {0, false};
    }
    z.drop_spare();  // it died: the zygote forks this runner
  }
  Zygote::Answer a = z.registered(&*bytes, fds);
  if (a.error != 0) {
    z.discard();  // dead, hung or confused: the next runner gets a new one
    return {a.error, !a.sent};
  }
  pid = a.runner;
  return {0, false};
}

}  // namespace awb::core
