// thread_team.hpp: the bundled kernels' worker threads. A team belongs to one plugin instance and
// lives as long as it: threads started for one call wait for the next, so their stacks and heap
// arenas (Eigen's packing buffers) stay mapped instead of costing fresh page faults every call.
// Between jobs, and while the caller waits for the last worker, a thread polls for a short while
// (kSpin) before it sleeps: waking a sleeping thread takes tens of microseconds on a virtual
// machine, and one forward call runs up to three jobs back to back.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_THREAD_TEAM_HPP_
#define AWB_PLUGINS_COMMON_THREAD_TEAM_HPP_

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace awb::kernels {

class ThreadTeam {
 public:
  // One task: its index and the slot (0 .. threads−1) of the thread running it, for per-thread
  // scratch space.
  using Task = std::function<void(std::ptrdiff_t task, int slot)>;

  ThreadTeam() = default;
  ThreadTeam(const ThreadTeam&) = delete;
  ThreadTeam& operator=(const ThreadTeam&) = delete;
  ~ThreadTeam();

  // Runs fn(task, slot) for every task in [0, tasks) on up to `threads` threads; the caller is
  // slot 0 and the others come from the team, started on first need. An exception in a task
  // stops the hand-out of new tasks and is rethrown here once every thread is done with the job.
  // If the system refuses a new thread, the job runs on the threads the team has.
  void run(std::ptrdiff_t tasks, int threads, const Task& fn);

  // Threads the team holds, besides the caller.
  int size() const;

 private:
  void worker(int slot);
  void serve(int slot);
  // Polls `done` for up to kSpin; true if it came true.
  template <class Done>
  static bool spin_until(Done&& done);

  static constexpr std::chrono::microseconds kSpin{200};

  mutable std::mutex mutex_;
  std::condition_variable wake_, done_;
  std::vector<std::thread> workers_;  // worker i has slot i + 1
  const Task* job_ = nullptr;
  std::ptrdiff_t tasks_ = 0;
  std::atomic<std::ptrdiff_t> next_{0};
  int joined_ = 0;            // workers taking part in the current job: slots 1 .. joined_
  std::atomic<int> busy_{0};  // of those, the ones still working on it
  std::atomic<std::uint64_t> generation_{0};  // counts jobs; written under mutex_
  bool stopping_ = false;
  std::exception_ptr failure_;
};

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_THREAD_TEAM_HPP_
