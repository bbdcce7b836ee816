// latest_run.tests.cpp: requests that arrive while a view's job runs collapse into one rerun
// with the latest state, through the same run_async the views use.
#include "gui/session/latest_run.hpp"

#include <QObject>
#include <QSemaphore>
#include <QThreadPool>
#include <catch2/catch.hpp>
#include <vector>

#include "gui/session/session.hpp"
#include "gui_support.hpp"

using namespace awb;

namespace {

// A view as the explore, compare and grade views are: its state is one number, each job
// returns the number it started with, and what it shows is the result it kept.
struct FakeView {
  QObject context;
  gui::LatestRun runs;
  int parameter = 0;
  std::vector<int> started, shown;
  QSemaphore first_job_may_end;  // holds the first job running while requests arrive

  // A failed check must not leave a job blocked on, or returning into, a dead view.
  ~FakeView() {
    first_job_may_end.release();
    gui::job_pool().waitForDone();
  }

  void request(int p) {
    parameter = p;
    rerun();
  }
  void rerun() {
    if (!runs.begin()) return;
    const int p = parameter;
    const bool first = started.empty();
    started.push_back(p);
    gui::run_async<int>(
        &context,
        [this, p, first] {
          if (first) first_job_may_end.acquire();
          return p;
        },
        [this](gui::Outcome<int> r) {
          if (runs.end() == gui::RunEnd::kSuperseded) {
            rerun();
            return;
          }
          shown.push_back(*r.value);
        });
  }
};

}  // namespace

TEST_CASE("three requests during a run make exactly one rerun, with the latest parameters",
          "[gui][latest_run]") {
  FakeView view;
  view.request(1);
  REQUIRE(view.runs.busy());
  view.request(2);
  view.request(3);
  view.request(4);
  CHECK(view.started == std::vector<int>{1});  // nothing starts while the first job runs
  view.first_job_may_end.release();
  REQUIRE(test::wait_for([&] { return !view.runs.busy(); }));
  CHECK(view.started == std::vector<int>{1, 4});
  CHECK(view.shown == std::vector<int>{4});  // the first job's result was stale: never shown
}

TEST_CASE("a request with no job running starts at once, and its result is shown",
          "[gui][latest_run]") {
  FakeView view;
  view.first_job_may_end.release();
  view.request(7);
  REQUIRE(test::wait_for([&] { return !view.runs.busy(); }));
  view.request(8);
  REQUIRE(test::wait_for([&] { return !view.runs.busy(); }));
  CHECK(view.started == std::vector<int>{7, 8});
  CHECK(view.shown == std::vector<int>{7, 8});
}
