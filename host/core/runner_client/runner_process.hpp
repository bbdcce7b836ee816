// runner_process.hpp: the host side of awb-runner: spawning, limits the host enforces (wall
// clock, CPU per request, output), reading frames, and turning every fault into a verdict.
#ifndef AWB_CORE_RUNNER_CLIENT_RUNNER_PROCESS_HPP_
#define AWB_CORE_RUNNER_CLIENT_RUNNER_PROCESS_HPP_

#include <sys/types.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/runner_client/runner_fault.hpp"
#include "core/runner_client/runner_limits.hpp"
#include "core/runner_client/unique_fd.hpp"
#include "runner/protocol.hpp"
#include "runner/shared_region.hpp"

namespace awb::core {

struct RunnerPipes;

struct RunnerOptions {
  runner::Isolation level = runner::Isolation::kConfined;  // the level the runner aims for
  // Below this the runner loads nothing: it refuses with a load failure at stage "isolation"
  // before any of the plugin's code runs.
  runner::Isolation minimum = runner::Isolation::kProcess;
  RunnerLimits limits;
  // Set from another thread to stop the runner: the request in progress ends within 100 ms with
  // awb::Error("runner.cancelled") and the runner with everything it started is gone.
  std::shared_ptr<const std::atomic<bool>> cancel;
};

// Where awb-runner lives: next to the running awb, in the build tree or the install prefix.
std::filesystem::path runner_executable();

// One awb-runner process serving one plugin file. Construction spawns it and waits for its
// hello; the destructor ends it and everything it started. Faults throw awb::Error with the
// fault's id and a plain reason; after a fault the process is gone (alive() is false).
class RunnerProcess {
 public:
  RunnerProcess(const std::filesystem::path& plugin, const RunnerOptions& options);
  ~RunnerProcess();
  RunnerProcess(const RunnerProcess&) = delete;
  RunnerProcess& operator=(const RunnerProcess&) = delete;

  // Exactly one of the two is set after construction.
  const std::optional<runner::Hello>& hello() const { return hello_; }
  const std::optional<runner::LoadFailed>& load_failure() const { return load_failure_; }
  runner::Isolation level() const { return hello_ ? hello_->level : runner::Isolation::kProcess; }
  bool alive() const { return pid_ > 0; }

  // One forward call of variant #`variant` (descriptor order). `results` holds the host's
  // buffers; their shapes are what the runner must return.
  void forward(uint32_t variant, const awb_problem& problem, awb_results& results);
  // One backward call (AWB_EXT_BACKWARD) of variant #`variant`: the problem, its forward
  // results, dZ and dA (null when absent) travel to the runner; `grads` holds the host's
  // gradient buffers, whose shapes the result must match exactly (a missing, extra or mis-sized
  // gradient is a malformed result). NaN in a gradient is data: judging it is the check's job.
  void backward(uint32_t variant, const awb_problem& problem, const awb_results& forward,
                const awb_tensor& dz, const awb_tensor* da, awb_gradients& grads);
  // The cost extension (AWB_EXT_COST) of variant #`variant` for `problem`'s shapes and
  // parameters (its tensors' data is not sent). Throws awb::Error("plugin.cost_failed").
  awb_cost cost(uint32_t variant, const awb_problem& problem, bool writes_weights);

  // Ends the session: asks the runner to exit and checks that it sent nothing it was not asked
  // for. Throws awb::Error("runner.malformed_result") for a stray frame (a forged result).
  void close();

  // The start of what the plugin printed (at most output_keep bytes each).
  const std::string& stdout_text() const { return out_.kept; }
  const std::string& stderr_text() const { return err_.kept; }
  const RunnerLimits& limits() const { return options_.limits; }
  void set_request_limits(double cpu_seconds, double wall_seconds);

 private:
  // How long await_frame polls for an answer before it sleeps in poll (runner_session.cpp).
  static constexpr double kSpinSeconds = 50e-6;
  struct Output {
    UniqueFd fd;
    std::string kept;
    size_t total = 0;
  };
  struct Frame {
    wire::Header header;
    std::vector<uint8_t> payload;
  };
  // The steps of construction after the pipes and the scratch folder: start the runner on
  // `pipes` (taking the host's ends), then read its hello or its load report.
  void spawn(const std::filesystem::path& plugin, RunnerPipes& pipes);
  void await_first_frame();
  // Sends one request and returns the payload of the result frame that answers it (same id and
  // nonce); every other outcome is a fault.
  std::vector<uint8_t> call(wire::Type type, const std::vector<uint8_t>& payload,
                            size_t max_result);
  // A plugin status other than AWB_OK as awb::Error: the memory limit, a failed create(), or
  // `failed_id` with the plugin's message.
  void raise_for_status(const runner::ResultHead& head, const char* failed_id);
  [[noreturn]] void fail(Fault fault, const std::string& reason);
  [[noreturn]] void fail_from_exit();
  std::optional<Frame> await_frame(uint32_t max_payload, const std::vector<uint8_t>* request);
  bool pump(int timeout_ms, const std::vector<uint8_t>* pending, size_t& written);
  double cpu_seconds_used() const;
  void end_process();

  RunnerOptions options_;
  pid_t pid_ = -1;
  clockid_t cpu_clock_{};  // the runner's CPU clock, looked up once (a system call each time)
  bool has_cpu_clock_ = false;
  UniqueFd pidfd_;
  UniqueFd request_fd_, result_fd_;
  runner::SharedRegion shared_;  // large frames both ways (empty: all through the pipes)
  Output out_, err_;
  std::vector<uint8_t> inbox_;
  bool result_eof_ = false;
  std::optional<int> wait_status_;
  std::filesystem::path scratch_;
  std::optional<runner::Hello> hello_;
  std::optional<runner::LoadFailed> load_failure_;
  uint32_t next_request_ = 1;
};

}  // namespace awb::core

#endif  // AWB_CORE_RUNNER_CLIENT_RUNNER_PROCESS_HPP_
