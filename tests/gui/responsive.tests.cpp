// responsive.tests.cpp: a plugin that hangs is graded in its runner, off the GUI thread; the event
// loop keeps turning meanwhile, and the verdict names the wall-clock limit.
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTimer>
#include <catch2/catch.hpp>

#include "gui/views/grade/grade_view.hpp"
#include "gui_support.hpp"

using namespace awb;

TEST_CASE("the window stays responsive while a hanging plugin is graded", "[gui][isolation]") {
  // The journey exercise with a short wall-clock limit, so the hang ends in a verdict soon.
  QTemporaryDir dir;
  REQUIRE(dir.isValid());
  QFile in(QString(AWB_TEST_EXERCISE_DIR) + "/journey.yaml");
  REQUIRE(in.open(QIODevice::ReadOnly));
  QFile out(dir.filePath("journey.yaml"));
  REQUIRE(out.open(QIODevice::WriteOnly));
  out.write(in.readAll() + "\nlimits:\n  wall_seconds: 1\n  cpu_seconds: 1\n");
  out.close();

  gui::Session session({AWB_TEST_HOSTILE_SLEEP}, {dir.path()});
  gui::MainWindow w(session);
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("grade"));
  REQUIRE(w.selectExercise("journey"));

  // The longest gap between ticks of a 10 ms timer is the longest the event loop stalled.
  QElapsedTimer clock;
  qint64 last = 0, longest = 0;
  QTimer tick;
  tick.setInterval(10);
  QObject::connect(&tick, &QTimer::timeout, [&] {
    const qint64 now = clock.elapsed();
    longest = std::max(longest, now - last);
    last = now;
  });
  clock.start();
  tick.start();
  REQUIRE(w.selectVariants({"org.awb.hostile.sleep:hostile"}));
  const bool finished = test::wait_for([&] { return !w.grade()->busy(); }, 60000);
  const qint64 took = clock.elapsed();
  tick.stop();
  REQUIRE(finished);
  INFO("grading took " << took << " ms; longest event-loop stall " << longest << " ms");
  CHECK(took > 1000);  // the plugin really hung until the limit stopped it
  CHECK(longest < 250);
  const auto& report = w.grade()->report();
  REQUIRE(report);
  bool named = false;
  for (const auto& c : report->exercises.at(0).checks)
    named = named || c.summary.find("wall-clock limit of 1 s exceeded") != std::string::npos;
  CHECK(named);
  CHECK(report->exercises.at(0).provenance.lockdown != "in-process");
}
