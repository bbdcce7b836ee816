// runner_session.cpp: a running runner's session: the host's poll loop (frames in, requests out,
// capped output, wall and CPU limits per request) and the calls made over it.
#include <poll.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <random>
#include <thread>

#include "core/runner_client/runner_process.hpp"
#include "core/runner_client/runner_zygote.hpp"
#include "graders/model/error.hpp"
#include "graders/model/plugin_status.hpp"

namespace awb::core {

using Clock = std::chrono::steady_clock;

void RunnerProcess::set_request_limits(double cpu_seconds, double wall_seconds) {
  options_.limits.cpu_seconds = cpu_seconds;
  options_.limits.wall_seconds = wall_seconds;
}

double RunnerProcess::cpu_seconds_used() const {
  // The process's CPU clock: one system call, all its threads, no /proc parsing.
  timespec ts{};
  if (!has_cpu_clock_ || ::clock_gettime(cpu_clock_, &ts) != 0) return 0;
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

bool RunnerProcess::pump(int timeout_ms, const std::vector<uint8_t>* pending, size_t& written) {
  pollfd fds[5];
  int n = 0;
  const int i_res = result_eof_ ? -1 : n;
  if (!result_eof_) fds[n++] = {result_fd_.get(), POLLIN, 0};
  const int i_out = out_.fd.valid() ? n : -1;
  if (out_.fd.valid()) fds[n++] = {out_.fd.get(), POLLIN, 0};
  const int i_err = err_.fd.valid() ? n : -1;
  if (err_.fd.valid()) fds[n++] = {err_.fd.get(), POLLIN, 0};
  const bool writing = pending && written < pending->size();
  const int i_req = writing ? n : -1;
  if (writing) fds[n++] = {request_fd_.get(), POLLOUT, 0};
  const int i_pid = pidfd_.valid() ? n : -1;
  if (pidfd_.valid()) fds[n++] = {pidfd_.get(), POLLIN, 0};
  if (::poll(fds, static_cast<nfds_t>(n), timeout_ms) < 0 && errno != EINTR) return false;

  char buf[65536];
  auto drain_output = [&](Output& o) {
    for (;;) {
      const ssize_t r = ::read(o.fd.get(), buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) o.fd.reset();
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
      const ssize_t r = ::read(result_fd_.get(), buf, sizeof buf);
      if (r < 0 && errno == EINTR) continue;
      if (r == 0) result_eof_ = true;
      if (r <= 0) return;
      inbox_.insert(inbox_.end(), buf, buf + r);
      if (inbox_.size() > (size_t{1} << 32))
        fail(Fault::kMalformedResult, "the runner sent more than any request allows");
      // A short read emptied the pipe for now: the next poll says when there is more, without
      // a read that would only answer EAGAIN.
      if (static_cast<size_t>(r) < sizeof buf) return;
    }
  };
  if (i_out >= 0 && fds[i_out].revents) drain_output(out_);
  if (i_err >= 0 && fds[i_err].revents) drain_output(err_);
  if (i_res >= 0 && fds[i_res].revents) drain_results();
  if (i_req >= 0 && fds[i_req].revents) {
    if (fds[i_req].revents & (POLLERR | POLLHUP)) {
      written = pending->size();  // the runner stopped reading; its exit tells why
    } else {
      const ssize_t w =
          ::write(request_fd_.get(), pending->data() + written, pending->size() - written);
      if (w > 0) written += static_cast<size_t>(w);
    }
  }
  if (i_pid >= 0 && fds[i_pid].revents) {
    // The runner is gone: what it wrote is all there is.
    if (out_.fd.valid()) drain_output(out_);
    if (err_.fd.valid()) drain_output(err_);
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
  size_t written = 0;
  // The request goes out at once where the pipe takes it (all of a small one): no poll first.
  if (request && !request->empty()) {
    const ssize_t w = ::write(request_fd_.get(), request->data(), request->size());
    if (w > 0) written = static_cast<size_t>(w);
  }
  const RunnerLimits& lim = options_.limits;
  for (;;) {
    if (inbox_.size() >= sizeof(Header)) {
      Header h;
      std::memcpy(&h, inbox_.data(), sizeof h);
      // Only a result may come through the shared region, and only as far as it reaches.
      const bool in_region = runner::SharedRegion::staged(h);
      h.type &= static_cast<uint16_t>(~kInSharedRegion);
      const bool known = h.type == static_cast<uint16_t>(Type::kHello) ||
                         h.type == static_cast<uint16_t>(Type::kLoadFailed) ||
                         h.type == static_cast<uint16_t>(Type::kResult);
      if (h.magic != kMagic || h.version != kVersion || !known ||
          (in_region && h.type != static_cast<uint16_t>(Type::kResult)))
        fail(Fault::kMalformedResult, "the runner sent a frame with a bad header");
      if (in_region && !shared_.holds(h.payload_size))
        fail(Fault::kMalformedResult,
             "the runner sent a frame whose payload would lie past the shared region (" +
                 std::to_string(h.payload_size) + " bytes, the region holds " +
                 std::to_string(shared_.size()) + ")");
      if (h.payload_size > max_payload)
        fail(Fault::kMalformedResult, "the runner sent a frame of " +
                                          std::to_string(h.payload_size) + " bytes, more than " +
                                          std::to_string(max_payload) + " allowed here");
      if (in_region) {
        // Copied out before it is decoded: the runner may write the region at any moment.
        const auto shared = shared_.payload(h.payload_size);
        inbox_.erase(inbox_.begin(), inbox_.begin() + sizeof h);
        return Frame{h, std::vector<uint8_t>(shared.begin(), shared.end())};
      }
      if (inbox_.size() >= sizeof h + h.payload_size) {
        Frame f{h, std::vector<uint8_t>(inbox_.begin() + sizeof h,
                                        inbox_.begin() + sizeof h + h.payload_size)};
        inbox_.erase(inbox_.begin(), inbox_.begin() + sizeof h + h.payload_size);
        return f;
      }
    }
    if (result_eof_) return std::nullopt;
    if (options_.cancel && options_.cancel->load())
      fail(Fault::kCancelled, "cancelled: the run was stopped before it finished");
    const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
    if (elapsed > lim.wall_seconds)
      fail(Fault::kWallLimit, "wall-clock limit of " + format_seconds(lim.wall_seconds) +
                                  " exceeded (still running when stopped)");
    if (cpu_seconds_used() - cpu_start > lim.cpu_seconds)
      fail(Fault::kCpuLimit, "CPU limit of " + format_seconds(lim.cpu_seconds) + " exceeded");
    const double left_ms = (lim.wall_seconds - elapsed) * 1000;
    // For the first kSpinSeconds the answer is polled for without sleeping (waking a sleeping
    // host takes an interrupt from the runner's CPU, which on a virtual machine costs more than a
    // small warm call), yielding between polls so that the spin holds off nothing else that
    // would run on this CPU (the runner itself, or a spare runner copying its pages).
    const bool spin = elapsed < kSpinSeconds;
    if (spin) std::this_thread::yield();
    pump(spin ? 0 : static_cast<int>(std::clamp(left_ms, 1.0, 100.0)), request, written);
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
  // A large payload goes through the shared region, and the pipe carries its header alone.
  const wire::Header h = shared_.stage(type, id, nonce, payload);
  // Sized once and filled: GCC 12 sees a false out-of-bounds copy in growing it by insert().
  const bool inline_payload = !runner::SharedRegion::staged(h);
  std::vector<uint8_t> request(sizeof h + (inline_payload ? payload.size() : 0));
  std::memcpy(request.data(), &h, sizeof h);
  if (inline_payload) std::copy(payload.begin(), payload.end(), request.begin() + sizeof h);

  auto frame =
      await_frame(static_cast<uint32_t>(std::min<size_t>(max_result, UINT32_MAX)), &request);
  // After its first answer the runner has loaded and served: the zygote's next fork no longer
  // competes with it.
  if (id == 1) request_zygote_spare();
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
                plugin_status_message(head.status, head.message));
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

awb_cost RunnerProcess::cost(uint32_t variant, const awb_problem& problem, bool writes_weights) {
  const auto payload =
      call(wire::Type::kCost, runner::encode_cost(variant, problem, writes_weights), 4096 + 64);
  awb_cost cost{sizeof(awb_cost), 0, 0};
  auto head = runner::decode_cost_result(payload, cost);
  if (!head) fail(Fault::kMalformedResult, "the cost result frame is malformed");
  raise_for_status(*head, "plugin.cost_failed");
  return cost;
}

void RunnerProcess::close() {
  if (!alive()) return;
  using namespace wire;
  Header h;
  h.type = static_cast<uint16_t>(Type::kBye);
  write_all(request_fd_.get(), &h, sizeof h);  // EPIPE when it already left: fine
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

}  // namespace awb::core
