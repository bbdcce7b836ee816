// loss_chart.cpp: steps map linearly to pixels and log10 of the loss too, so the fast early fall
// and the slow tail of a training run both stay readable.
#include "gui/loss_chart.hpp"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "gui/chart_frame.hpp"
#include "gui/loglog_chart.hpp"

namespace awb::gui {
namespace {

constexpr int kTitle = 20, kLeft = 64, kRight = 14, kTickLabels = 18, kAxisTitle = 18, kMargin = 6,
              kTick = 5, kMarker = 3;

bool drawable(QPointF p) { return std::isfinite(p.x()) && std::isfinite(p.y()) && p.y() > 0; }

// A round step between x ticks (1, 2 or 5 times a power of ten) giving at most about 8 ticks.
int tick_step(int steps) {
  const double raw = std::max(1.0, steps / 8.0);
  const double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * magnitude >= raw) return static_cast<int>(m * magnitude);
  return static_cast<int>(10 * magnitude);
}

}  // namespace

LossChart::LossChart(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
  setMinimumSize(320, 200);
}

void LossChart::setPoints(std::vector<QPointF> points) {
  points_ = std::move(points);
  update();
}

void LossChart::setStepRange(int steps) {
  steps_ = std::max(1, steps);
  update();
}

void LossChart::setThreshold(std::optional<double> loss) {
  threshold_ = loss;
  update();
}

std::pair<int, int> LossChart::decades() const {
  double lo = INFINITY, hi = -INFINITY;
  auto take = [&](double y) {
    lo = std::min(lo, std::log10(y));
    hi = std::max(hi, std::log10(y));
  };
  for (QPointF p : points_)
    if (drawable(p)) take(p.y());
  if (threshold_ && *threshold_ > 0) take(*threshold_);
  if (!std::isfinite(lo)) return {-2, 1};  // nothing yet: a frame where a loss is likely to start
  std::pair<int, int> d{static_cast<int>(std::floor(lo)), static_cast<int>(std::ceil(hi))};
  if (d.second <= d.first) d.second = d.first + 1;
  return d;
}

QRectF LossChart::plotRect() const {
  return QRectF(kLeft, kTitle + kMargin, width() - kLeft - kRight,
                height() - kTitle - 2 * kMargin - kTickLabels - kAxisTitle);
}

QPointF LossChart::toPixel(QPointF data) const {
  const QRectF p = plotRect();
  const auto [lo, hi] = decades();
  const double fx = data.x() / steps_;
  const double fy = (std::log10(data.y()) - lo) / (hi - lo);
  return {p.left() + fx * p.width(), p.bottom() - fy * p.height()};
}

void LossChart::drawAxes(QPainter& painter, const QRectF& plot) const {
  const QColor text = palette().windowText().color();
  QColor grid = text;
  grid.setAlphaF(0.15);
  const auto [lo, hi] = decades();
  const double y0 = std::pow(10.0, lo);
  const int dx = tick_step(steps_);
  for (int s = 0; s <= steps_; s += dx) {
    const double px = toPixel({double(s), y0}).x();
    painter.setPen(grid);
    painter.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
    painter.setPen(text);
    painter.drawLine(QPointF(px, plot.bottom()), QPointF(px, plot.bottom() + kTick));
    painter.drawText(QRectF(px - 40, plot.bottom() + kTick, 80, kTickLabels - 2),
                     Qt::AlignHCenter | Qt::AlignTop, QString::number(s));
  }
  for (int e = lo; e <= hi; ++e) {
    const double py = toPixel({0, std::pow(10.0, e)}).y();
    painter.setPen(grid);
    painter.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
    painter.setPen(text);
    painter.drawLine(QPointF(plot.left() - kTick, py), QPointF(plot.left(), py));
    painter.drawText(QRectF(0, py - 8, kLeft - kTick - 3, 16), Qt::AlignRight | Qt::AlignVCenter,
                     QString::number(std::pow(10.0, e), 'g', 3));
  }
  painter.setPen(QPen(text, 1));
  painter.drawLine(plot.bottomLeft(), plot.bottomRight());
  painter.drawLine(plot.bottomLeft(), plot.topLeft());
  painter.drawText(
      QRectF(plot.left(), plot.bottom() + kTick + kTickLabels - 2, plot.width(), kAxisTitle),
      Qt::AlignHCenter | Qt::AlignVCenter, tr("step"));
}

void LossChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paint_chart_frame(painter, *this, title_, kMargin, kTitle);
  const QRectF plot = plotRect();
  if (plot.width() < 20 || plot.height() < 20) return;
  drawAxes(painter, plot);
  painter.setRenderHint(QPainter::Antialiasing);
  if (threshold_ && *threshold_ > 0) {
    const double y = toPixel({0, *threshold_}).y();
    const QColor ok = LogLogChart::seriesColor(2);
    painter.setPen(QPen(ok, 1.5, Qt::DashLine));
    painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    painter.drawText(QRectF(plot.right() - 200, y - 18, 196, 16), Qt::AlignRight | Qt::AlignBottom,
                     tr("success: loss < %1").arg(*threshold_));
  }
  const QColor c = LogLogChart::seriesColor(0);
  QPainterPath line;
  std::vector<QPointF> at;
  for (QPointF p : points_)
    if (drawable(p)) at.push_back(toPixel(p));
  for (size_t k = 0; k < at.size(); ++k) k ? line.lineTo(at[k]) : line.moveTo(at[k]);
  painter.setClipRect(plot.adjusted(-kMarker - 2, -kMarker - 2, kMarker + 2, kMarker + 2));
  painter.setPen(QPen(c, 2));
  painter.setBrush(Qt::NoBrush);
  painter.drawPath(line);
  painter.setBrush(c);
  // Markers only while they stay apart; a long run reads better as a line.
  if (at.size() <= 60)
    for (QPointF p : at) painter.drawEllipse(p, kMarker, kMarker);
}

}  // namespace awb::gui
