// runner_process.cpp: a RunnerProcess's life: started in steps (pipes, scratch folder, spawn,
// the runner's first frame) and ended with everything it started.
#include "core/runner_client/runner_process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "core/runner_client/runner_spawn.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

namespace fs = std::filesystem;

namespace {

void set_nonblocking(int fd) { ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK); }

// AWB_RUNNER_REGION=off sends every frame through the pipes (to compare, or to rule it out).
bool shared_region_enabled() {
  const char* v = std::getenv("AWB_RUNNER_REGION");
  return !v || std::string_view(v) != "off";
}

}  // namespace

RunnerProcess::RunnerProcess(const fs::path& plugin, const RunnerOptions& options)
    : options_(options) {
  become_subreaper();
  // The pipes first: until spawn() takes them they close themselves on any failure, and the
  // scratch folder, once made, is removed by end_process().
  if (shared_region_enabled())
    shared_ = runner::SharedRegion::create(
        runner::shared_region_bytes(kSanitizedBuild ? 0 : options_.limits.memory_mb));
  RunnerPipes pipes = open_runner_pipes(shared_.descriptor());
  scratch_ = make_scratch_folder();
  spawn(plugin, pipes);
  await_first_frame();
}

void RunnerProcess::spawn(const fs::path& plugin, RunnerPipes& pipes) {
  const std::vector<std::string> args = runner_arguments(plugin, scratch_, options_);
  pid_t pid = -1;
  int rc = spawn_runner(args, pipes, pid);
  if (rc == kZygoteLostRequest) {
    // The old pipes close: a runner the zygote may have started gets EOF.
    pipes = open_runner_pipes(shared_.descriptor());
    rc = spawn_runner(args, pipes, pid, false);
  }
  if (rc != 0) {
    end_process();
    throw Error(error_id(Fault::kSpawnFailed),
                "cannot start " + args.front() + ": " + std::strerror(rc));
  }
  pid_ = pid;
  // The runner has its copies: ours would keep its output pipes from ever reaching EOF (a runner
  // that died while loading was then drained until a deadline instead of to its last byte).
  for (UniqueFd* fd : {&pipes.child_request, &pipes.child_result, &pipes.child_out,
                       &pipes.child_err, &pipes.child_shared})
    fd->reset();
  shared_.close_descriptor();  // the mapping stays
  has_cpu_clock_ = ::clock_getcpuclockid(pid_, &cpu_clock_) == 0;
  pidfd_.reset(static_cast<int>(::syscall(SYS_pidfd_open, pid_, 0)));
  request_fd_ = std::move(pipes.request);
  result_fd_ = std::move(pipes.result);
  out_.fd = std::move(pipes.out);
  err_.fd = std::move(pipes.err);
  for (const UniqueFd* fd : {&request_fd_, &result_fd_, &out_.fd, &err_.fd})
    set_nonblocking(fd->get());
}

void RunnerProcess::await_first_frame() {
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

void RunnerProcess::end_process() {
  if (pid_ > 0) {
    if (!wait_status_) {
      ::kill(-pid_, SIGKILL);  // the whole group: anything it started without leaving it
      ::kill(pid_, SIGKILL);
      int status = 0;
      ::waitpid(pid_, &status, 0);
      wait_status_ = status;
    }
    forget_runner(pid_);
    pid_ = -1;
    // Below `limited` a plugin can fork and its descendants can leave the group; they come to
    // us as the subreaper. Above it, seccomp forbids creating processes at all.
    if (level() < runner::Isolation::kLimited) reap_orphans();
  }
  for (UniqueFd* fd : {&pidfd_, &request_fd_, &result_fd_, &out_.fd, &err_.fd}) fd->reset();
  std::error_code ec;
  if (!scratch_.empty()) fs::remove_all(scratch_, ec);
  scratch_.clear();
}

}  // namespace awb::core
