// headless.cpp: window preparation for screenshots and tests; the repaint benchmark.
#include "gui/app/headless.hpp"

#include <QApplication>
#include <QElapsedTimer>
#include <QThread>
#include <algorithm>
#include <cmath>
#include <random>

#include "gui/app/view_registry.hpp"
#include "gui/charts/heatmap_widget.hpp"

namespace awb::gui {

bool wait_idle(MainWindow& window, int timeout_ms) {
  QElapsedTimer timer;
  timer.start();
  do {
    QApplication::processEvents(QEventLoop::AllEvents, 20);
    QThread::msleep(2);  // the plugin runs on a worker: leave it the core
    if (!window.busy()) {
      QApplication::processEvents();  // deliver the last results' repaints
      if (!window.busy()) return true;
    }
  } while (timer.elapsed() < timeout_ms);
  return false;
}

bool prepare_window(MainWindow& window, const ViewOptions& o, QString* error, int timeout_ms) {
  // Offscreen there is no screen: the size asked stands for it (its type scale, presentation's
  // full screen). On a display, the window is laid out for the screen it is on.
  if (QGuiApplication::platformName() == QLatin1String("offscreen")) window.planForScreen(o.size);
  window.resize(o.size);
  window.show();
  // As the window does: the zoom first, then presentation raises it to at least 150 %.
  if (o.zoom != 100) window.setZoom(o.zoom);
  if (o.presentation) window.setPresentation(true);
  if (!window.setView(o.view)) {
    *error = QStringLiteral("unknown view '%1' (%2)").arg(o.view, view_names_text(false));
    return false;
  }
  if (!window.selectExercise(o.exercise, error)) return false;
  if (!o.case_id.isEmpty() && !window.selectCase(o.case_id, error)) return false;
  if (!o.plugins.isEmpty() && !window.selectVariants(o.plugins, error)) return false;
  if (o.grade_scope != 0 && !window.grade()->setScope(o.grade_scope)) {
    *error = QStringLiteral(
                 "no grade scope %1 (0 the exercise, 1 every exercise, 2.. an "
                 "assignment)")
                 .arg(o.grade_scope);
    return false;
  }
  if (o.sharpness > 0) window.explore()->setSharpness(o.sharpness);
  if (!wait_idle(window, timeout_ms)) {
    *error = QStringLiteral("the plugin runs did not finish in %1 ms").arg(timeout_ms);
    return false;
  }
  if (o.query >= 0) window.explore()->setQuery(o.query);
  if (o.head > 0) {
    window.explore()->setHead(o.head);
    window.compare()->setHead(o.head);
  }
  window.currentView()->finishForScreenshot();
  if (!o.question.isEmpty()) {
    if (!window.explore()->askQuestion(o.question)) {
      *error = QStringLiteral("exercise '%1' has no question '%2'").arg(o.exercise, o.question);
      return false;
    }
    if (o.answer >= 0) window.explore()->answerQuestion(o.answer);
  }
  return wait_idle(window, timeout_ms);
}

void relayout(MainWindow& window, QSize screen, int zoom, bool presentation) {
  window.setPresentation(false);
  if (QGuiApplication::platformName() == QLatin1String("offscreen")) window.planForScreen(screen);
  window.resize(screen);
  window.setZoom(zoom);
  window.setPresentation(presentation);
  // Layout requests are posted: a few rounds let nested layouts (scroll areas, flows) settle.
  for (int i = 0; i < 4; ++i) {
    QApplication::sendPostedEvents(nullptr, QEvent::LayoutRequest);
    QApplication::processEvents();
  }
}

RepaintTiming bench_repaint(int tokens, int repeats) {
  // Softmax rows of random scores at a sweep of sharpness values: what a slider drag shows.
  std::mt19937_64 rng(7);
  std::normal_distribution<double> normal;
  Matrix scores(tokens, tokens);
  for (double& v : scores.data) v = normal(rng);
  const int kFrames = 8;
  std::vector<Matrix> frames;
  for (int f = 0; f < kFrames; ++f) {
    const double sharpness = std::pow(10.0, -1.0 + 2.0 * f / (kFrames - 1));
    Matrix a(tokens, tokens);
    for (int r = 0; r < tokens; ++r) {
      double mx = -INFINITY, sum = 0;
      for (int c = 0; c < tokens; ++c) mx = std::max(mx, sharpness * scores(r, c));
      for (int c = 0; c < tokens; ++c) sum += a(r, c) = std::exp(sharpness * scores(r, c) - mx);
      for (int c = 0; c < tokens; ++c) a(r, c) /= sum;
    }
    frames.push_back(std::move(a));
  }
  HeatmapWidget map;
  map.resize(800, 700);
  map.setHighlightRow(tokens / 2);
  map.show();
  QApplication::processEvents();
  std::vector<double> times;
  QElapsedTimer timer;
  for (int i = 0; i < repeats; ++i) {
    timer.start();
    map.setMatrix(frames[static_cast<size_t>(i % kFrames)], 0, 1, i % 2 == 1);
    map.repaint();
    times.push_back(static_cast<double>(timer.nsecsElapsed()) / 1e6);
  }
  std::sort(times.begin(), times.end());
  return {times[times.size() / 2], times.back(), repeats};
}

}  // namespace awb::gui
