// color_bar.cpp: the ramp is the heatmaps' own colour map (gui/colormap.hpp), its numbers in the
// charts' one number format (gui/labels.hpp).
#include "figure/color_bar.hpp"

#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "gui/charts/colormap.hpp"
#include "gui/charts/labels.hpp"

namespace awb::figure {

ColorBar::ColorBar(const QString& title, double low, double high, QWidget* parent)
    : QWidget(parent), title_(title), low_(low), high_(high) {
  setSizePolicy(QSizePolicy::Fixed, QSizePolicy::Expanding);
}

QSize ColorBar::sizeHint() const {
  const QFontMetricsF fm(font());
  const double line = std::ceil(fm.height());
  const double numbers = gui::widest(
      font(), {gui::value_text(low_), gui::value_text(high_), gui::value_text((low_ + high_) / 2)});
  const double w = std::max(line + line / 2 + numbers, gui::text_width(font(), title_)) + line;
  return {static_cast<int>(std::ceil(w)), static_cast<int>(6 * line)};
}

void ColorBar::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const QColor ink = palette().windowText().color();
  painter.setPen(ink);
  const double line = std::ceil(QFontMetricsF(font()).height());
  const double margin = std::ceil(line / 4);
  painter.drawText(QRectF(0, margin, width(), line), Qt::AlignLeft | Qt::AlignVCenter, title_);
  // The bar from below the title to the bottom, a line wide; half a line at each end for the
  // numbers that sit on its ends.
  const QRectF bar(0, margin + 1.5 * line, line, height() - 2 * margin - 2 * line);
  if (bar.height() < line) return;
  QImage ramp(1, gui::ColorMap::kSize, QImage::Format_RGB32);
  for (int i = 0; i < gui::ColorMap::kSize; ++i)
    ramp.setPixel(0, gui::ColorMap::kSize - 1 - i, gui::ColorMap::instance().entry(i));
  painter.setRenderHint(QPainter::SmoothPixmapTransform, true);
  painter.drawImage(bar, ramp);
  painter.setPen(QPen(ink, 1));
  painter.drawRect(bar);
  const double tx = bar.right() + line / 2, tw = width() - tx;
  const auto number = [&](double y, double value) {
    painter.drawLine(QPointF(bar.right(), y), QPointF(bar.right() + line / 4, y));
    painter.drawText(QRectF(tx, y - line / 2, tw, line), Qt::AlignLeft | Qt::AlignVCenter,
                     gui::value_text(value));
  };
  number(bar.top(), high_);
  number(bar.center().y(), (low_ + high_) / 2);
  number(bar.bottom(), low_);
}

}  // namespace awb::figure
