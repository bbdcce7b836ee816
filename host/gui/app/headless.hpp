// headless.hpp: what `awb-gui --screenshot` and the tests share: set a window up from options,
// wait for its plugin runs, render it; and the repaint benchmark.
#ifndef AWB_GUI_HEADLESS_HPP_
#define AWB_GUI_HEADLESS_HPP_

#include <QImage>
#include <QSize>
#include <QString>
#include <QStringList>
#include <vector>

#include "gui/app/main_window.hpp"
#include "gui/app/view_registry.hpp"

namespace awb::gui {

struct ViewOptions {
  QString exercise;
  QString case_id;
  QStringList plugins;  // variant specs; compare takes them all, explore and grade the first
  QString view = QString::fromUtf8(view_registry().front().name);  // the first tab
  int query = -1;        // token index; -1: the exercise's default
  int head = 0;          // 0-based
  double sharpness = 0;  // 0: the exercise's
  QString question;      // a question id to ask in explore; empty: none
  int answer = -1;       // its answer (a token index or a head); -1: left unanswered
  QSize size{1280, 800};
  int zoom = 100;             // percent (MainWindow::setZoom)
  bool presentation = false;  // F5's presentation mode
  int grade_scope = 0;        // GradeView::setScope: 0 the exercise, 1 all, 2.. an assignment
};

// Applies `options` to `window` (sized and shown) and waits until its runs are done. Returns
// false with `error` set on an unknown name or when the runs take longer than `timeout_ms`.
bool prepare_window(MainWindow& window, const ViewOptions& options, QString* error,
                    int timeout_ms = 60000);
// Lays the prepared window out again for a screen (offscreen: the size stands for the screen),
// a zoom and presentation mode on or off, and lets the layouts settle.
void relayout(MainWindow& window, QSize screen, int zoom, bool presentation);
// Waits (processing events) until nothing runs; false on timeout.
bool wait_idle(MainWindow& window, int timeout_ms);

// Median time of one heatmap repaint after new data, T × T, over `repeats` frames (each frame
// a different matrix, as during a slider drag). Milliseconds.
struct RepaintTiming {
  double median_ms = 0;
  double max_ms = 0;
  int frames = 0;
};
RepaintTiming bench_repaint(int tokens, int repeats);

}  // namespace awb::gui

#endif  // AWB_GUI_HEADLESS_HPP_
