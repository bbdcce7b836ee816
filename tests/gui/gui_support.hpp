// gui_support.hpp: shared helpers of the GUI tests: one session on the bundled plugins, mutants
// and exercises; waiting for views; reading pixels.
#ifndef AWB_TESTS_GUI_GUI_SUPPORT_HPP_
#define AWB_TESTS_GUI_GUI_SUPPORT_HPP_

#include <QImage>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <functional>
#include <vector>

#include "gui/app/main_window.hpp"
#include "gui/session/session.hpp"

namespace awb::test {

gui::Session& gui_session();
// The same, with the divide-by-sum mutant loaded too.
gui::Session& mutant_session();
// Waits, processing events, until `done` holds; false after `timeout_ms`.
bool wait_for(const std::function<bool()>& done, int timeout_ms = 30000);
// The widget as it is drawn (device pixels), and the pixel at a logical point of it.
QImage grab(QWidget* widget);
QRgb pixel_at(const QImage& image, QPointF logical);
// The point `p` of `widget` in `ancestor`'s coordinates.
QPointF map_to(QWidget* widget, QWidget* ancestor, QPointF p);
std::string rgb_text(QRgb c);

// One `awb-gui` process on the offscreen platform, with `env` ("NAME=value") added: how it
// ended and what it printed.
struct GuiRun {
  bool finished = false;
  int exit_code = -1;
  QString out, err;
};
GuiRun run_gui(const QStringList& args, const QStringList& env = {}, int timeout_ms = 120000);

// The window on one exercise and variant, its first run done: the explore tests' fixture.
struct ExploreWindow {
  gui::MainWindow window{gui_session()};
  gui::ExploreView* view = window.explore();
  ExploreWindow(const QString& exercise, const QString& variant);
  std::vector<double> weights() const;  // the weight bars shown
  void settle();                        // waits until the runs a change started are done
};

}  // namespace awb::test

#endif  // AWB_TESTS_GUI_GUI_SUPPORT_HPP_
