// thread_team.cpp: a fixed team of worker threads that sleep between jobs.
// SPDX-License-Identifier: MIT
#include "common/thread_team.hpp"

#include <algorithm>
#include <system_error>
#include <utility>

namespace awb::kernels {

template <class Done>
bool ThreadTeam::spin_until(Done&& done) {
  const auto until = std::chrono::steady_clock::now() + kSpin;
  for (int i = 0;; ++i) {
    if (done()) return true;
    if (i % 64 == 63) {
      if (std::chrono::steady_clock::now() > until) return false;
      std::this_thread::yield();
    }
  }
}

ThreadTeam::~ThreadTeam() {
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    stopping_ = true;
  }
  wake_.notify_all();
  for (std::thread& t : workers_) t.join();
}

int ThreadTeam::size() const {
  const std::lock_guard<std::mutex> lock(mutex_);
  return static_cast<int>(workers_.size());
}

void ThreadTeam::run(std::ptrdiff_t tasks, int threads, const Task& fn) {
  const int n = static_cast<int>(std::min<std::ptrdiff_t>(std::max(threads, 1), tasks));
  if (n <= 1) {
    for (std::ptrdiff_t i = 0; i < tasks; ++i) fn(i, 0);
    return;
  }
  int helpers = 0;
  {
    const std::lock_guard<std::mutex> lock(mutex_);
    try {
      while (static_cast<int>(workers_.size()) < n - 1) {
        const int slot = static_cast<int>(workers_.size()) + 1;
        workers_.emplace_back(&ThreadTeam::worker, this, slot);
      }
    } catch (const std::system_error&) {
      // No more threads: the job runs on the ones the team has.
    }
    helpers = std::min(n - 1, static_cast<int>(workers_.size()));
    job_ = &fn;
    tasks_ = tasks;
    next_ = 0;
    joined_ = helpers;
    busy_ = helpers;
    failure_ = nullptr;
    ++generation_;
  }
  if (helpers > 0) wake_.notify_all();
  serve(0);
  spin_until([&] { return busy_.load() == 0; });
  std::unique_lock<std::mutex> lock(mutex_);
  done_.wait(lock, [&] { return busy_.load() == 0; });
  job_ = nullptr;
  if (failure_) std::rethrow_exception(std::exchange(failure_, nullptr));
}

void ThreadTeam::serve(int slot) {
  try {
    for (std::ptrdiff_t i = next_++; i < tasks_; i = next_++) (*job_)(i, slot);
  } catch (...) {
    next_ = tasks_;
    const std::lock_guard<std::mutex> lock(mutex_);
    if (!failure_) failure_ = std::current_exception();
  }
}

void ThreadTeam::worker(int slot) {
  std::uint64_t seen = 0;
  for (;;) {
    spin_until([&] { return generation_.load() != seen; });
    std::unique_lock<std::mutex> lock(mutex_);
    wake_.wait(lock, [&] { return stopping_ || generation_.load() != seen; });
    if (stopping_) return;
    seen = generation_.load();
    if (slot > joined_) continue;  // this job needs fewer threads than the team has
    lock.unlock();
    serve(slot);
    lock.lock();
    if (--busy_ == 0) done_.notify_one();
  }
}

}  // namespace awb::kernels
