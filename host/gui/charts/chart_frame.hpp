// chart_frame.hpp: what every painted chart of the workbench starts with: the window background
// and a title line across the top.
#ifndef AWB_GUI_CHART_FRAME_HPP_
#define AWB_GUI_CHART_FRAME_HPP_

#include <QFontMetricsF>
#include <QPainter>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <algorithm>
#include <cmath>

namespace awb::gui {

// The charts' spacing in pixels: right margin, outer margin, tick length.
inline constexpr int kChartRight = 14, kChartMargin = 6, kChartTick = 5;

// Fills `widget` with its window colour and writes `title` left-aligned in the top `height`
// pixels, `margin` from either side, word-wrapped; leaves the pen at the text colour.
inline void paint_chart_frame(QPainter& painter, const QWidget& widget, const QString& title,
                              int margin, int height) {
  painter.fillRect(widget.rect(), widget.palette().window());
  painter.setPen(widget.palette().windowText().color());
  painter.drawText(QRectF(margin, 0, widget.width() - 2 * margin, height),
                   Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, title);
}

// The height a title needs in `widget`'s font at its width: one line, or more when it wraps.
inline int chart_title_height(const QWidget& widget, const QString& title, int margin) {
  const QFontMetrics fm(widget.font());
  const int width = std::max(1, widget.width() - 2 * margin);
  return std::max(fm.height(),
                  fm.boundingRect(QRect(0, 0, width, 1 << 20), Qt::TextWordWrap, title).height()) +
         4;
}

// The bands around a chart's plot, in pixels of `widget`'s font (they follow the zoom): the
// title (wrapped), the y tick labels' column (as wide as the widest of `y_labels`, then the tick),
// the x tick labels' line and the x axis title's line.
struct AxisBands {
  int title = 0, left = 0, tick_labels = 0, axis_title = 0;
};
inline AxisBands axis_bands(const QWidget& widget, const QString& title,
                            const QStringList& y_labels, int margin, int tick) {
  const QFontMetrics fm(widget.font());
  AxisBands b;
  b.title = chart_title_height(widget, title, margin);
  int widest = fm.horizontalAdvance(QStringLiteral("0.001"));
  for (const QString& l : y_labels) widest = std::max(widest, fm.horizontalAdvance(l));
  b.left = widest + tick + 6;
  b.tick_labels = fm.height() + 2;
  b.axis_title = fm.height() + 2;
  return b;
}

// The least room of a chart whose plot takes whatever its bands of text leave: the bands as the
// widget's size and font make them now, plus the plot's minimum. (The bands do not depend on
// the plot's size, so this holds at any size the layout gives.)
inline QSize chart_minimum(const QWidget& widget, const QRectF& plot, const QSizeF& plot_minimum) {
  return {static_cast<int>(std::ceil(widget.width() - plot.width() + plot_minimum.width())),
          static_cast<int>(std::ceil(widget.height() - plot.height() + plot_minimum.height()))};
}

// After a resize: tells the layout when the chart's least size moved (its title wraps onto
// another number of lines at the new width), so the layout does not squeeze it below.
inline void follow_minimum(QWidget& widget, QSize& last) {
  const QSize minimum = widget.minimumSizeHint();
  if (minimum == last) return;
  last = minimum;
  widget.updateGeometry();
}

// The widget's font's line height, whole pixels: the unit of every plot minimum.
inline double chart_line(const QWidget& widget) {
  return std::ceil(QFontMetricsF(widget.font()).height());
}

// The least plot a curve (loss, time against size) is read in: ten lines wide, five high.
inline QSizeF curve_plot_minimum(const QWidget& widget) {
  const double line = chart_line(widget);
  return {10 * line, 5 * line};
}

}  // namespace awb::gui

#endif  // AWB_GUI_CHART_FRAME_HPP_
