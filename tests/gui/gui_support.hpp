// gui_support.hpp: shared helpers of the GUI tests: one session on the bundled plugins, mutants
// and exercises; waiting for views; reading pixels.
#ifndef AWB_TESTS_GUI_GUI_SUPPORT_HPP_
#define AWB_TESTS_GUI_GUI_SUPPORT_HPP_

#include <QImage>
#include <QWidget>
#include <functional>

#include "gui/main_window.hpp"
#include "gui/session.hpp"

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

}  // namespace awb::test

#endif  // AWB_TESTS_GUI_GUI_SUPPORT_HPP_
