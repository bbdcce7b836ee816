// bar_chart.cpp: bars in whole device-independent pixels from one zero line.
#include "gui/bar_chart.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>

#include "gui/chart_frame.hpp"

namespace awb::gui {
namespace {

constexpr int kTitle = 18, kLabels = 18, kCaption = 18, kMargin = 6;

bool has_negative(const std::vector<double>& v, const std::vector<bool>& masked) {
  for (size_t i = 0; i < v.size(); ++i)
    if (!masked[i] && v[i] < 0) return true;
  return false;
}

}  // namespace

BarChart::BarChart(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setMinimumHeight(120);
}

void BarChart::setValues(const std::vector<double>& values, const std::vector<bool>& masked,
                         const QStringList& labels, double fixed_max) {
  values_ = values;
  masked_ = masked;
  masked_.resize(values_.size(), false);
  labels_ = labels;
  fixed_max_ = fixed_max;
  update();
}

QRectF BarChart::plotRect() const {
  return QRectF(kMargin + 40, kTitle, width() - 2 * kMargin - 40,
                height() - kTitle - kLabels - kCaption);
}

double BarChart::scaleMax() const {
  if (fixed_max_ > 0) return fixed_max_;
  double m = 0;
  for (size_t i = 0; i < values_.size(); ++i)
    if (!masked_[i] && std::isfinite(values_[i])) m = std::max(m, std::abs(values_[i]));
  return m > 0 ? m : 1;
}

double BarChart::zeroLine() const {
  const QRectF p = plotRect();
  // Fixed scales and all-positive rows sit on the bottom; signed rows centre the zero line.
  if (fixed_max_ > 0 || !has_negative(values_, masked_)) return std::floor(p.bottom());
  return std::floor(p.center().y());
}

double BarChart::pixelsPerUnit() const {
  const QRectF p = plotRect();
  const double room = zeroLine() - p.top();
  return std::floor(room) / scaleMax();
}

QRectF BarChart::barRect(int i) const {
  const QRectF p = plotRect();
  const double slot = p.width() / std::max<size_t>(values_.size(), 1);
  const double w = std::max(2.0, std::floor(slot * 0.7));
  const double x = std::floor(p.left() + slot * i + (slot - w) / 2);
  const double v = masked_[static_cast<size_t>(i)] ? 0 : values_[static_cast<size_t>(i)];
  const double h = std::round(std::abs(v) * pixelsPerUnit());
  const double zero = zeroLine();
  return v >= 0 ? QRectF(x, zero - h, w, h) : QRectF(x, zero, w, h);
}

void BarChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paint_chart_frame(painter, *this, title_, kMargin, kTitle);
  const QColor text = palette().windowText().color();
  const QRectF p = plotRect();
  if (values_.empty() || p.height() < 10) return;
  const double zero = zeroLine();
  const double top_value = scaleMax();
  painter.drawText(QRectF(0, p.top() - 6, 42, 14), Qt::AlignRight,
                   QString::number(top_value, 'g', 3));
  painter.drawText(QRectF(0, zero - 7, 42, 14), Qt::AlignRight, QStringLiteral("0"));
  const double slot = p.width() / static_cast<double>(values_.size());
  for (size_t i = 0; i < values_.size(); ++i) {
    const QRectF b = barRect(static_cast<int>(i));
    if (masked_[i]) {
      // A masked entry is exactly 0 by the mask, not a small weight: a hatched stub and ×.
      const QRectF stub(b.left(), zero - 10, b.width(), 10);
      painter.fillRect(stub, QBrush(QColor(110, 110, 110), Qt::BDiagPattern));
      painter.drawText(stub.adjusted(0, -14, 0, -10), Qt::AlignCenter, QStringLiteral("×"));
    } else {
      QColor c = barColor();
      if (values_[i] < 0) c = QColor(0xc0, 0x7a, 0x20);  // negative scores: another colour too
      painter.fillRect(b, c);
      if (static_cast<int>(i) == highlight_) {
        painter.setPen(QPen(text, 1, Qt::DashLine));
        painter.drawRect(b.adjusted(-2, -2, 1, 1));
        painter.setPen(text);
      }
    }
    const QString label =
        i < static_cast<size_t>(labels_.size()) ? labels_[static_cast<int>(i)] : QString::number(i);
    const QRectF lr(p.left() + slot * static_cast<double>(i), p.bottom() + 2, slot, kLabels);
    painter.drawText(
        lr, Qt::AlignHCenter | Qt::AlignTop,
        painter.fontMetrics().elidedText(label, Qt::ElideRight, static_cast<int>(slot)));
  }
  painter.setPen(QPen(text, 1));
  painter.drawLine(QPointF(p.left(), zero + 0.5), QPointF(p.right(), zero + 0.5));
  painter.drawText(QRectF(kMargin, height() - kCaption, width() - 2 * kMargin, kCaption),
                   Qt::AlignLeft | Qt::AlignVCenter, caption_);
}

}  // namespace awb::gui
