// latest_run.hpp: one job at a time for a view; requests that arrive while it runs collapse into
// one rerun when it ends, which reads the view's state as it is then: only the latest is shown.
#ifndef AWB_GUI_LATEST_RUN_HPP_
#define AWB_GUI_LATEST_RUN_HPP_

#include <utility>

namespace awb::gui {

// How a view takes a job's result: it shows what the view asks for now, or requests came
// while the job ran, so the view drops it and reruns.
enum class RunEnd { kCurrent, kSuperseded };

// A slider dragged across its range asks for dozens of runs while one is in flight; running each
// would show stale pictures for seconds after the drag stops.
class LatestRun {
 public:
  // As begin(), for a view that may be hidden: a hidden view starts no job (no plugin runs, no
  // runner starts, for nothing shown); take_stale() says, when it is shown, that it must run.
  bool begin(bool visible) {
    if (!visible) {
      stale_ = true;
      return false;
    }
    return begin();
  }
  bool take_stale() { return std::exchange(stale_, false); }

  // True when the caller starts its job now; false while one runs: the request is kept, and
  // however many arrive, the job's end asks for one rerun.
  bool begin() {
    if (running_) {
      pending_ = true;
      return false;
    }
    running_ = true;
    return true;
  }

  // The job ended (with a result or an error). On kSuperseded the caller reruns.
  RunEnd end() {
    running_ = false;
    const bool superseded = pending_;
    pending_ = false;
    return superseded ? RunEnd::kSuperseded : RunEnd::kCurrent;
  }

  // A job runs, or a request waits for it.
  bool busy() const { return running_ || pending_; }

 private:
  bool running_ = false, pending_ = false, stale_ = false;
};

}  // namespace awb::gui

#endif  // AWB_GUI_LATEST_RUN_HPP_
