// zygote.cpp: the zygote's request loop and the child's way from a request to a runner's start.
#include "runner/zygote.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <vector>

#include "runner/zygote_wire.hpp"

namespace awb::runner {
namespace {

// Received descriptors are moved at or above this before the fork, clear of every number a
// request may name, so the child's dup2s cannot overwrite one it still has to place.
constexpr int kReceivedFdFloor = 64;

bool reply(int socket, const ZygoteAnswer& answer, int spare_socket) {
  const auto* p = reinterpret_cast<const uint8_t*>(&answer);
  return send_with_descriptors(
      socket, std::vector<uint8_t>(p, p + sizeof answer),
      spare_socket >= 0 ? std::vector<int>{spare_socket} : std::vector<int>{});
}

// A request read from `socket`, its descriptors moved up to kReceivedFdFloor (the caller's to
// close). Without a request, `error` says why as a negative errno: no message (`message` false;
// `error` 0 when `socket` closed), or one that was cut short, malformed or whose descriptors
// could not be moved.
struct Received {
  bool message = false;
  bool spare_request = false;  // kSpareRequest: no runner, only the next spare
  std::vector<uint8_t> bytes;
  std::vector<int> fds;
  std::optional<ZygoteRequest> request;
  int32_t error = 0;
};
Received receive(int socket) {
  Received r;
  std::vector<int> received;
  const ssize_t n = receive_with_descriptors(socket, r.bytes, received);
  if (n <= 0) {
    r.error = n == 0 ? 0 : -errno;
    r.message = n < 0 && errno == EMSGSIZE;  // a message, cut short
    return r;
  }
  r.message = true;
  if (received.empty() && r.bytes.size() == sizeof kSpareRequest &&
      std::equal(r.bytes.begin(), r.bytes.end(), kSpareRequest)) {
    r.spare_request = true;
    return r;
  }
  bool placed = true;
  for (int fd : received) {
    r.fds.push_back(::fcntl(fd, F_DUPFD_CLOEXEC, kReceivedFdFloor));
    placed = placed && r.fds.back() >= 0;
    ::close(fd);
  }
  r.request = decode_zygote_request(r.bytes.data(), r.bytes.size());
  if (!placed) {
    r.error = -EMFILE;
    r.request.reset();
  } else if (!r.request || r.request->targets.size() != r.fds.size()) {
    r.error = -EINVAL;
    r.request.reset();
  }
  return r;
}

void close_all(const std::vector<int>& fds) {
  for (int fd : fds)
    if (fd >= 0) ::close(fd);
}

[[noreturn]] void become_runner(const ZygoteRequest& request, const std::vector<int>& fds,
                                RunnerMain run) {
  ::setsid();  // a spare has its session already: then this fails, harmlessly
  // As a freshly exec'd runner is (the zygote made only itself unreadable); lockdown's change
  // of uid, where there is one, takes it away again.
  ::prctl(PR_SET_DUMPABLE, 1);
  for (size_t i = 0; i < fds.size(); ++i)
    if (::dup2(fds[i], request.targets[i]) < 0) ::_exit(127);
  const int null = ::open("/dev/null", O_RDONLY);
  if (null < 0 || ::dup2(null, 0) < 0) ::_exit(127);
  sigset_t none;
  sigemptyset(&none);
  ::sigprocmask(SIG_SETMASK, &none, nullptr);
  ::signal(SIGPIPE, SIG_DFL);  // the one disposition the zygote changed (spawned, all default)
  ::clearenv();
  for (const auto& e : request.env) ::putenv(const_cast<char*>(e.c_str()));
  std::vector<char*> argv;
  for (const auto& a : request.args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  // The runner closes every descriptor above its own (the zygote's socket and these copies).
  std::exit(run(static_cast<int>(request.args.size()), argv.data()));
}

// The host's child: CLONE_PARENT with SIGCHLD as the exit signal, as fork() otherwise.
long clone_for_host() {
  return ::syscall(SYS_clone, CLONE_PARENT | SIGCHLD, nullptr, nullptr, nullptr, 0);
}

// A child made ahead of its request, so that the fork (about a millisecond and a half of a cold
// start on a small VM, the child's first page faults included) and the zygote's hop are not
// paid while the host waits: the host gets the spare's socket with an answer and sends the
// next runner's request to the spare itself. It starts its session and waits for one request;
// it leaves when the socket closes without one.
struct Spare {
  pid_t pid = -1;
  int socket = -1;  // the end that goes to the host
};

Spare make_spare(int host_socket, pid_t host, RunnerMain run) {
  int sv[2];
  if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) != 0) return {};
  const long pid = clone_for_host();
  if (pid == 0) {
    ::close(sv[0]);
    ::close(host_socket);
    ::setsid();
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // not inherited: the zygote's own ends with the fork
    if (::getppid() != host) ::_exit(125);
    Received r = receive(sv[1]);
    if (!r.request) ::_exit(r.error == 0 ? 0 : 127);
    ::close(sv[1]);
    become_runner(*r.request, r.fds, run);
  }
  ::close(sv[1]);
  if (pid < 0) {
    ::close(sv[0]);
    return {};
  }
  return {static_cast<pid_t>(pid), sv[0]};
}

}  // namespace

int serve_zygote(int socket, pid_t host, RunnerMain run) {
  // Die with the host; a host that died already is not our parent any more.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != host) return 125;
  // Nothing of the host's uid may read or write this process through /proc or ptrace.
  ::prctl(PR_SET_DUMPABLE, 0);
  ::signal(SIGPIPE, SIG_IGN);
  for (;;) {
    Received r = receive(socket);
    if (!r.message) return r.error == 0 ? 0 : 1;  // the host closed the socket, or it broke
    ZygoteAnswer answer{r.error, -1};
    Spare spare;
    if (r.request) {
      const long pid = clone_for_host();
      if (pid == 0) become_runner(*r.request, r.fds, run);
      answer.runner = pid > 0 ? static_cast<int32_t>(pid) : -errno;
    } else if (r.spare_request) {
      answer.runner = 0;
      spare = make_spare(socket, host, run);
    }
    close_all(r.fds);
    answer.spare = spare.pid;
    const bool replied = reply(socket, answer, spare.socket);
    if (spare.socket >= 0) ::close(spare.socket);  // the host's now, or the spare's end of it
    if (!replied) return 1;
  }
}

}  // namespace awb::runner
