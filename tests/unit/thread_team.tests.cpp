// thread_team.tests.cpp: the bundled kernels' worker team runs every task once, on the slots it
// promises, keeps its threads between jobs and hands a task's exception to the caller.
#include "common/thread_team.hpp"

#include <atomic>
#include <catch2/catch.hpp>
#include <chrono>
#include <mutex>
#include <set>
#include <stdexcept>
#include <thread>
#include <vector>

using awb::kernels::ThreadTeam;

TEST_CASE("a thread team runs every task exactly once", "[kernels][threads]") {
  ThreadTeam team;
  for (int threads : {1, 2, 3, 8}) {
    for (std::ptrdiff_t tasks : {0, 1, 2, 7, 100}) {
      std::vector<std::atomic<int>> runs(static_cast<size_t>(tasks));
      std::atomic<int> bad_slot{0};
      team.run(tasks, threads, [&](std::ptrdiff_t i, int slot) {
        runs[static_cast<size_t>(i)]++;
        if (slot < 0 || slot >= threads) bad_slot++;
      });
      INFO("threads " << threads << ", tasks " << tasks);
      for (auto& r : runs) CHECK(r.load() == 1);
      CHECK(bad_slot.load() == 0);
    }
  }
}

TEST_CASE("a thread team keeps its threads from one job to the next", "[kernels][threads]") {
  ThreadTeam team;
  std::mutex m;
  std::set<std::thread::id> first, later;
  auto record = [&](std::set<std::thread::id>& ids) {
    return [&ids, &m](std::ptrdiff_t, int) {
      std::this_thread::sleep_for(std::chrono::milliseconds(2));  // let every thread take some
      const std::lock_guard<std::mutex> lock(m);
      ids.insert(std::this_thread::get_id());
    };
  };
  team.run(16, 3, record(first));
  CHECK(team.size() == 2);
  for (int job = 0; job < 5; ++job) team.run(16, 3, record(later));
  CHECK(team.size() == 2);
  // Whatever ran the later jobs was the caller or one of the first job's threads.
  for (const auto& id : later) CHECK((first.count(id) == 1 || id == std::this_thread::get_id()));
}

TEST_CASE("a task's exception reaches the caller and the team stays usable", "[kernels][threads]") {
  ThreadTeam team;
  std::atomic<int> ran{0};
  CHECK_THROWS_WITH(team.run(64, 2,
                             [&](std::ptrdiff_t i, int) {
                               ran++;
                               if (i == 5) throw std::runtime_error("task 5 failed");
                               std::this_thread::sleep_for(std::chrono::milliseconds(1));
                             }),
                    "task 5 failed");
  CHECK(ran.load() < 64);  // the hand-out stopped
  std::atomic<int> after{0};
  team.run(10, 2, [&](std::ptrdiff_t, int) { after++; });
  CHECK(after.load() == 10);
}
