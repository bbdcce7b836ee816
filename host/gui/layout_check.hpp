// layout_check.hpp: finds text a window shows cut off: labels, buttons, combo boxes, tabs,
// header sections, table and tree cells and line edits whose text needs more room than the
// widget gives it, and painted widgets whose drawn text leaves them. The elision test and
// `awb-gui --check-layout` (on a real window too) run it.
#ifndef AWB_GUI_LAYOUT_CHECK_HPP_
#define AWB_GUI_LAYOUT_CHECK_HPP_

#include <QRectF>
#include <QString>
#include <QWidget>
#include <vector>

namespace awb::gui {

// A widget that paints its own text says where: the checker holds each rectangle to the
// widget's bounds and to the width its text needs in the widget's font.
class DrawnTextSource {
 public:
  struct Text {
    QString text;
    QRectF rect;           // widget coordinates, before any rotation of the text
    bool rotated = false;  // drawn turned by 90° or so: `rect` is where it lands
    bool wrapped = false;  // word-wrapped into `rect`: its height must hold every line
  };
  virtual ~DrawnTextSource() = default;
  virtual std::vector<Text> drawnTexts() const = 0;
};

struct ClippedText {
  QString widget;  // class and object name, or the path of classes to it
  QString text;
  int needed = 0;     // logical pixels the text needs
  int available = 0;  // and what it has
  QString describe() const;
};

// Every cut-off text in the visible widgets under `root` (itself included).
std::vector<ClippedText> find_clipped_text(QWidget* root);
// How many widgets the last call looked at (for the report line).
int last_checked_widget_count();

}  // namespace awb::gui

#endif  // AWB_GUI_LAYOUT_CHECK_HPP_
