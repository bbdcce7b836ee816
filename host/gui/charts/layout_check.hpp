// layout_check.hpp: finds what a window shows cut off or squeezed: labels, buttons, combo boxes,
// tabs, header sections, table and tree cells and line edits whose text needs more room than the
// widget gives it, painted widgets whose drawn text leaves them, plots (bars, heatmap cells,
// curves) and sliders below the least room they are read in, and a window that needs more than
// the screen. The layout tests and `awb-gui --check-layout` (on a real window too) run it.
#ifndef AWB_GUI_LAYOUT_CHECK_HPP_
#define AWB_GUI_LAYOUT_CHECK_HPP_

#include <QFont>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <optional>
#include <utility>
#include <vector>

namespace awb::gui {

// A widget that paints its own text says where: the checker holds each rectangle to the
// widget's bounds and to the width its text needs in the widget's font.
class DrawnTextSource {
 public:
  struct Text {
    Text() = default;
    Text(QString t, QRectF r, bool turned = false, bool wraps = false,
         std::optional<QFont> f = std::nullopt)
        : text(std::move(t)), rect(r), rotated(turned), wrapped(wraps), font(std::move(f)) {}
    QString text;
    QRectF rect;                // widget coordinates, before any rotation of the text
    bool rotated = false;       // drawn turned by 90° or so: `rect` is where it lands
    bool wrapped = false;       // word-wrapped into `rect`: its height must hold every line
    std::optional<QFont> font;  // drawn in this font, not the widget's
  };
  virtual ~DrawnTextSource() = default;
  virtual std::vector<Text> drawnTexts() const = 0;
};

// A painted chart says where it plots and the least room that plot is read in (bars tall enough
// to compare, cells large enough to tell apart): the checker holds each plot to its minimum.
// Minimums are in the widget's font's lines, so they grow with the zoom as the text does.
class PlotSource {
 public:
  struct Plot {
    QString what;    // "bars", "cells", "curves"
    QSizeF size;     // logical pixels the plot has
    QSizeF minimum;  // and the least it needs
  };
  virtual ~PlotSource() = default;
  virtual std::vector<Plot> plots() const = 0;
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

// Every plot under `root` smaller than its minimum (a PlotSource's), and every slider shorter
// than eight lines of its font (a drag over fewer pixels jumps between far-apart values).
std::vector<ClippedText> find_collapsed_plots(QWidget* root);

// The whole check of a window meant for a screen of `screen` logical pixels: text cut off, plots
// collapsed, and a window (its size, or its layout's minimum) larger than the screen.
struct LayoutReport {
  std::vector<ClippedText> clipped, collapsed, oversized;
  int checked = 0;  // widgets looked at
  bool ok() const { return clipped.empty() && collapsed.empty() && oversized.empty(); }
  // One line per finding ("clipped: …", "collapsed: …", "too large: …"), then the summary.
  QStringList lines() const;
  QString summary() const;
};
LayoutReport check_layout(QWidget* window, QSize screen);

}  // namespace awb::gui

#endif  // AWB_GUI_LAYOUT_CHECK_HPP_
