// gui_support.cpp: the helpers of gui_support.hpp.
#include "gui_support.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QProcess>
#include <QThread>
#include <catch2/catch.hpp>
#include <cstdio>

#include "gui/charts/export.hpp"

namespace awb::test {

gui::Session& gui_session() {
  static gui::Session session({AWB_TEST_PLUGIN_DIR}, {AWB_TEST_EXERCISE_DIR},
                              gui::Session::Memory::kThisRunOnly);
  return session;
}

gui::Session& mutant_session() {
  static gui::Session session({AWB_TEST_PLUGIN_DIR, AWB_TEST_MUTANT}, {AWB_TEST_EXERCISE_DIR},
                              gui::Session::Memory::kThisRunOnly);
  return session;
}

bool wait_for(const std::function<bool()>& done, int timeout_ms) {
  QElapsedTimer timer;
  timer.start();
  while (timer.elapsed() < timeout_ms) {
    QApplication::processEvents(QEventLoop::AllEvents, 10);
    QThread::msleep(2);
    if (done()) {
      QApplication::processEvents();
      return true;
    }
  }
  return false;
}

QImage grab(QWidget* widget) { return gui::render_widget(widget); }

QRgb pixel_at(const QImage& image, QPointF logical) {
  const double dpr = image.devicePixelRatio();
  return image.pixel(static_cast<int>(logical.x() * dpr), static_cast<int>(logical.y() * dpr)) |
         0xff000000u;
}

QPointF map_to(QWidget* widget, QWidget* ancestor, QPointF p) {
  const QPoint offset = widget->mapTo(ancestor, QPoint(0, 0));
  return p + QPointF(offset);
}

std::string rgb_text(QRgb c) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", qRed(c), qGreen(c), qBlue(c));
  return buf;
}

GuiRun run_gui(const QStringList& args, const QStringList& env, int timeout_ms) {
  QProcess gui;
  auto e = QProcessEnvironment::systemEnvironment();
  e.insert("QT_QPA_PLATFORM", "offscreen");
  for (const QString& kv : env) e.insert(kv.section('=', 0, 0), kv.section('=', 1));
  gui.setProcessEnvironment(e);
  gui.start(AWB_TEST_GUI_EXE, args);
  GuiRun run;
  run.finished = gui.waitForFinished(timeout_ms);
  run.exit_code = gui.exitCode();
  run.out = QString::fromUtf8(gui.readAllStandardOutput());
  run.err = QString::fromUtf8(gui.readAllStandardError());
  return run;
}

ExploreWindow::ExploreWindow(const QString& exercise, const QString& variant) {
  window.resize(1280, 800);
  window.show();
  REQUIRE(window.selectExercise(exercise));
  REQUIRE(window.selectVariants({variant}));
  REQUIRE(wait_for([&] { return !window.busy(); }));
  REQUIRE_FALSE(view->output().layers.empty());
}

std::vector<double> ExploreWindow::weights() const { return view->weightsChart()->values(); }

void ExploreWindow::settle() {
  REQUIRE(wait_for([&] { return !window.busy(); }));
}

}  // namespace awb::test
