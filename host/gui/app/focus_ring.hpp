// focus_ring.hpp: a ring drawn around whatever has the keyboard focus in a window, thick and in
// the highlight colour, so a keyboard user on a projector sees where they are: the styles' own
// focus marks are a faint dotted line or a slightly bluer frame, and some controls draw none.
#ifndef AWB_GUI_FOCUS_RING_HPP_
#define AWB_GUI_FOCUS_RING_HPP_

#include <QPointer>
#include <QWidget>
#include <vector>

namespace awb::gui {

class FocusRing : public QWidget {
  Q_OBJECT
 public:
  // Draws over `window`'s children (a child of it, transparent to the mouse).
  explicit FocusRing(QWidget* window);
  // The widget ringed now (null when the focus is outside the window or on nothing visible).
  QWidget* target() const { return target_; }
  static int thickness() { return 3; }

 protected:
  void paintEvent(QPaintEvent*) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void follow(QWidget* focus);
  void place();

  QPointer<QWidget> target_;
  std::vector<QPointer<QWidget>> watched_;  // the target and its ancestors: their moves move it
};

}  // namespace awb::gui

#endif  // AWB_GUI_FOCUS_RING_HPP_
