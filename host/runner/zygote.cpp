// zygote.cpp: the zygote's request loop and the child's way from a request to a runner's start.
#include "runner/zygote.hpp"

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <vector>

#include "runner/zygote_wire.hpp"

namespace awb::runner {
namespace {

// Received descriptors are moved at or above this before the fork, clear of every number a
// request may name, so the child's dup2s cannot overwrite one it still has to place.
constexpr int kReceivedFdFloor = 64;

bool reply(int socket, int32_t value) {
  const std::vector<uint8_t> bytes(reinterpret_cast<const uint8_t*>(&value),
                                   reinterpret_cast<const uint8_t*>(&value) + sizeof value);
  return send_with_descriptors(socket, bytes, {});
}

[[noreturn]] void become_runner(const ZygoteRequest& request, const std::vector<int>& fds,
                                RunnerMain run) {
  ::setsid();
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

}  // namespace

int serve_zygote(int socket, pid_t host, RunnerMain run) {
  // Die with the host; a host that died already is not our parent any more.
  ::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != host) return 125;
  // Nothing of the host's uid may read or write this process through /proc or ptrace.
  ::prctl(PR_SET_DUMPABLE, 0);
  ::signal(SIGPIPE, SIG_IGN);
  std::vector<uint8_t> bytes;
  std::vector<int> received;
  for (;;) {
    const ssize_t n = receive_with_descriptors(socket, bytes, received);
    if (n == 0) return 0;
    if (n < 0) {
      if (errno == EMSGSIZE && reply(socket, -EMSGSIZE)) continue;
      return 1;
    }
    std::vector<int> fds;
    for (int fd : received) {
      fds.push_back(::fcntl(fd, F_DUPFD_CLOEXEC, kReceivedFdFloor));
      ::close(fd);
    }
    const auto request = decode_zygote_request(bytes.data(), bytes.size());
    int32_t answer = -EINVAL;
    bool placed = true;
    for (int fd : fds) placed = placed && fd >= 0;
    if (request && placed && request->targets.size() == fds.size()) {
      // The host's child: CLONE_PARENT with SIGCHLD as the exit signal, as fork() otherwise.
      const long pid = ::syscall(SYS_clone, CLONE_PARENT | SIGCHLD, nullptr, nullptr, nullptr, 0);
      if (pid == 0) become_runner(*request, fds, run);
      answer = pid > 0 ? static_cast<int32_t>(pid) : -errno;
    } else if (!placed) {
      answer = -EMFILE;
    }
    for (int fd : fds)
      if (fd >= 0) ::close(fd);
    if (!reply(socket, answer)) return 1;
  }
}

}  // namespace awb::runner
