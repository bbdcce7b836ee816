// zygote.cpp: the zygote's request loop and the child's way from a request to a runner's start.
#include "runner/zygote.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

// Copy-on-write paid ahead: the private writable pages a spare shares with the zygote (the
// libraries' data, its stack, its heap) are copied while nobody waits, instead of one fault at a
// time once its request came. A cold start took some sixty of those faults, each with a TLB
// shootdown: about 25 µs apiece on a small VM. The copying (MADV_POPULATE_WRITE, Linux 5.14; a
// kernel without it refuses, and the faults come as before) goes a chunk at a time and stops when
// the request arrives: all of it took about as long as the host's usual wait for a spare in a
// run of cold starts, and must not add to it. The zygote's mappings are a few hundred KiB in all;
// one larger than kMaxPrefault is left to fault on demand.
void prefault_private_memory(int request_socket) {
  constexpr unsigned long kMaxPrefault = 4ul << 20, kChunk = 64ul << 10;
  struct Range {
    unsigned long start, end;
    int order;  // libraries' data and small anonymous mappings, then the stack, then the heap
  };
  std::vector<Range> ranges;
  if (std::FILE* maps = std::fopen("/proc/self/maps", "re")) {
    char line[4096];
    bool line_start = true;  // a line longer than the buffer comes in pieces: only its first counts
    while (std::fgets(line, sizeof line, maps)) {
      const bool first_piece = line_start;
      line_start = std::strchr(line, '\n') != nullptr;
      unsigned long start = 0, end = 0;
      char perms[5] = {};
      if (!first_piece || std::sscanf(line, "%lx-%lx %4s", &start, &end, perms) != 3) continue;
      if (std::strcmp(perms, "rw-p") != 0 || end <= start || end - start > kMaxPrefault) continue;
      ranges.push_back({start, end,
                        std::strstr(line, "[heap]")    ? 2
                        : std::strstr(line, "[stack]") ? 1
                                                       : 0});
    }
    std::fclose(maps);
  }
  std::stable_sort(ranges.begin(), ranges.end(),
                   [](const Range& a, const Range& b) { return a.order < b.order; });
  for (const Range& r : ranges)
    for (unsigned long at = r.start; at < r.end; at += kChunk) {
      pollfd request{request_socket, POLLIN, 0};
      if (::poll(&request, 1, 0) != 0) return;  // the request (or the end) is here
      ::madvise(reinterpret_cast<void*>(at), std::min(kChunk, r.end - at), MADV_POPULATE_WRITE);
    }
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
    prefault_private_memory(sv[1]);
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
