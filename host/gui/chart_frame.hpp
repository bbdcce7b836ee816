// chart_frame.hpp: what every painted chart of the workbench starts with: the window background
// and a title line across the top.
#ifndef AWB_GUI_CHART_FRAME_HPP_
#define AWB_GUI_CHART_FRAME_HPP_

#include <QPainter>
#include <QString>
#include <QWidget>
#include <algorithm>

namespace awb::gui {

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

}  // namespace awb::gui

#endif  // AWB_GUI_CHART_FRAME_HPP_
