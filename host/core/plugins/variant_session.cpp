// variant_session.cpp: the in-process and the runner-backed session.
#include "core/plugins/variant_session.hpp"

#include <algorithm>

#include "graders/model/error.hpp"

namespace awb::core {
namespace {

class InProcessSession : public VariantSession {
 public:
  explicit InProcessSession(const VariantRef& ref)
      : VariantSession(ref), instance_(ref.plugin->library, *ref.variant) {}
  void forward(const awb_problem& p, awb_results& r) override { instance_.forward(p, r); }
  runner::Isolation isolation() const override { return runner::Isolation::kInProcess; }
  std::optional<std::string> cannot_backward() const override {
    if (instance_.has_backward()) return std::nullopt;
    return runner::kNotTrainable;
  }
  void backward(const awb_problem& p, const awb_results& f, const awb_tensor& dz,
                const awb_tensor* da, awb_gradients& g) override {
    instance_.backward(p, f, dz, da, g);
  }
  std::optional<awb_cost> cost(const awb_problem& p, bool writes_weights) override {
    return instance_.cost(p, writes_weights);
  }

 private:
  VariantInstance instance_;
};

// A runner that crashed is restarted for the next run (a crash may depend on the input), a
// few times at most; after a timeout later runs fail at once instead of waiting again: a
// second chance cost a limit met twice over (a 30 s wall-clock limit took a minute to grade).
class RunnerSession : public VariantSession {
 public:
  RunnerSession(const VariantRef& ref, const SessionOptions& options)
      : VariantSession(ref),
        path_(ref.plugin->path),
        index_(ref.variant->index),
        options_(options) {
    options_.runner.minimum = std::max(options_.runner.minimum, options_.minimum);
    start();
  }
  ~RunnerSession() override = default;

  void forward(const awb_problem& p, awb_results& r) override {
    guarded([&](RunnerProcess& runner) { runner.forward(index_, p, r); });
  }
  runner::Isolation isolation() const override { return level_; }
  // The runner's hello says whether the variant exports the backward extension.
  std::optional<std::string> cannot_backward() const override {
    if (trainable_) return std::nullopt;
    return runner::kNotTrainable;
  }
  void backward(const awb_problem& p, const awb_results& f, const awb_tensor& dz,
                const awb_tensor* da, awb_gradients& g) override {
    if (!trainable_) throw Error("plugin.no_backward", runner::kNotTrainable);
    guarded([&](RunnerProcess& runner) { runner.backward(index_, p, f, dz, da, g); });
  }
  std::optional<awb_cost> cost(const awb_problem& p, bool writes_weights) override {
    if (!has_cost_) return std::nullopt;
    awb_cost c{};
    guarded([&](RunnerProcess& runner) { c = runner.cost(index_, p, writes_weights); });
    return c;
  }
  void set_limits(double cpu_seconds, double wall_seconds) override {
    options_.runner.limits.cpu_seconds = cpu_seconds;
    options_.runner.limits.wall_seconds = wall_seconds;
    if (process_) process_->set_request_limits(cpu_seconds, wall_seconds);
  }
  void finish() override {
    if (!process_) return;
    const auto process = std::move(process_);
    output_ += process->stdout_text() + process->stderr_text();
    process->close();
  }
  std::string output() const override {
    return process_ ? output_ + process_->stdout_text() + process_->stderr_text() : output_;
  }

 private:
  static constexpr int kMaxStarts = 4;

  // One call on a live runner (restarted when the last one died), counting timeouts.
  template <class Call>
  void guarded(Call&& call) {
    if (given_up_) throw *given_up_;
    if (options_.runner.cancel && options_.runner.cancel->load())
      throw Error("runner.cancelled", "cancelled: not run, the session was stopped");
    if (!process_ || !process_->alive()) {
      if (starts_ >= kMaxStarts)
        throw Error("runner.given_up", "not run: the plugin's runner failed " +
                                           std::to_string(starts_) + " times in this session");
      start();
    }
    try {
      call(*process_);
    } catch (const Error& e) {
      if (e.id() == "runner.wall_limit" || e.id() == "runner.cpu_limit")
        given_up_ = Error(e.id(), e.message() + " (later runs in this session are not tried)");
      throw;
    }
  }

  void start() {
    if (process_) output_ += process_->stdout_text() + process_->stderr_text();
    process_ = std::make_unique<RunnerProcess>(path_, options_.runner);
    ++starts_;
    const auto& f = process_->load_failure();
    if (f && f->stage == "isolation")  // refused before loading anything
      throw Error("runner.isolation",
                  f->message + (f->system_error.empty() ? "" : " (" + f->system_error + ")"));
    if (f)
      throw Error("plugin.load_failed",
                  f->stage + ": " + f->message +
                      (f->system_error.empty() ? "" : " (" + f->system_error + ")"));
    level_ = process_->level();
    const auto& variants = process_->hello()->descriptor.variants;
    trainable_ = index_ < variants.size() && variants[index_].has_backward;
    has_cost_ = index_ < variants.size() && variants[index_].has_cost;
    if (level_ < options_.minimum)
      throw Error("runner.isolation", std::string("the runner reached isolation '") +
                                          runner::to_string(level_) + "', below the required '" +
                                          runner::to_string(options_.minimum) + "' (" +
                                          process_->hello()->notes + ")");
  }

  std::filesystem::path path_;
  uint32_t index_;
  SessionOptions options_;
  std::unique_ptr<RunnerProcess> process_;
  runner::Isolation level_ = runner::Isolation::kProcess;
  bool trainable_ = false;
  bool has_cost_ = false;
  int starts_ = 0;
  std::optional<Error> given_up_;
  std::string output_;
};

}  // namespace

std::unique_ptr<VariantSession> open_session(const VariantRef& ref, const SessionOptions& options) {
  if (ref.plugin->library) return std::make_unique<InProcessSession>(ref);
  return std::make_unique<RunnerSession>(ref, options);
}

}  // namespace awb::core
