// loss_chart.cpp: steps map linearly to pixels and log10 of the loss too, so the fast early fall
// and the slow tail of a training run both stay readable.
#include "gui/charts/loss_chart.hpp"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "gui/charts/chart_frame.hpp"
#include "gui/charts/loglog_chart.hpp"

namespace awb::gui {
namespace {

constexpr int kLossMarker = 3;

bool drawable_loss(QPointF p) { return std::isfinite(p.x()) && std::isfinite(p.y()) && p.y() > 0; }

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
    if (drawable_loss(p)) take(p.y());
  if (threshold_ && *threshold_ > 0) take(*threshold_);
  if (!std::isfinite(lo)) return {-2, 1};  // nothing yet: a frame where a loss is likely to start
  std::pair<int, int> d{static_cast<int>(std::floor(lo)), static_cast<int>(std::ceil(hi))};
  if (d.second <= d.first) d.second = d.first + 1;
  return d;
}

AxisBands LossChart::frame() const {
  const auto [lo, hi] = decades();
  QStringList labels;
  for (int e = lo; e <= hi; ++e) labels << QString::number(std::pow(10.0, e), 'g', 3);
  return axis_bands(*this, title_, labels, kChartMargin, kChartTick);
}

QRectF LossChart::plotRect() const {
  const AxisBands f = frame();
  // Half the last step label of room right of the plot, so it stays whole.
  const int right =
      std::max(kChartRight, fontMetrics().horizontalAdvance(QString::number(steps_)) / 2 + 2);
  return QRectF(f.left, f.title + kChartMargin, width() - f.left - right,
                height() - f.title - 2 * kChartMargin - f.tick_labels - f.axis_title);
}

LossChart::Labels LossChart::labels(const QRectF& plot) const {
  const AxisBands f = frame();
  const QFontMetrics fm(font());
  const auto [lo, hi] = decades();
  Labels out;
  const int dx = tick_step(steps_);
  for (int s = 0; s <= steps_; s += dx) {
    const double px = toPixel({double(s), std::pow(10.0, lo)}).x();
    const QString text = QString::number(s);
    const double w = fm.horizontalAdvance(text) + 2;
    out.x.push_back({text, QRectF(px - w / 2, plot.bottom() + kChartTick, w, f.tick_labels - 2)});
  }
  for (int e = lo; e <= hi; ++e) {
    const double py = toPixel({0, std::pow(10.0, e)}).y();
    out.y.push_back({QString::number(std::pow(10.0, e), 'g', 3),
                     QRectF(0, py - fm.height() / 2.0, f.left - kChartTick - 3, fm.height())});
  }
  out.axis = {tr("step"), QRectF(plot.left(), plot.bottom() + kChartTick + f.tick_labels - 2,
                                 plot.width(), f.axis_title)};
  if (threshold_ && *threshold_ > 0) {
    const QString text = tr("success: loss < %1").arg(*threshold_);
    const double w = fm.horizontalAdvance(text) + 4;
    const double y = toPixel({0, *threshold_}).y();
    out.threshold = {text, QRectF(plot.right() - w, y - fm.height() - 2, w, fm.height())};
  }
  return out;
}

std::vector<DrawnTextSource::Text> LossChart::drawnTexts() const {
  std::vector<Text> out{
      {title_, QRectF(kChartMargin, 0, width() - 2 * kChartMargin, frame().title), false, true}};
  const QRectF plot = plotRect();
  if (plot.width() < 20 || plot.height() < 20) return out;
  const Labels l = labels(plot);
  out.insert(out.end(), l.x.begin(), l.x.end());
  out.insert(out.end(), l.y.begin(), l.y.end());
  out.push_back(l.axis);
  out.push_back(l.threshold);
  return out;
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
    painter.drawLine(QPointF(px, plot.bottom()), QPointF(px, plot.bottom() + kChartTick));
  }
  for (int e = lo; e <= hi; ++e) {
    const double py = toPixel({0, std::pow(10.0, e)}).y();
    painter.setPen(grid);
    painter.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
    painter.setPen(text);
    painter.drawLine(QPointF(plot.left() - kChartTick, py), QPointF(plot.left(), py));
  }
  painter.setPen(QPen(text, 1));
  painter.drawLine(plot.bottomLeft(), plot.bottomRight());
  painter.drawLine(plot.bottomLeft(), plot.topLeft());
  const Labels l = labels(plot);
  for (const auto& t : l.x) painter.drawText(t.rect, Qt::AlignHCenter | Qt::AlignTop, t.text);
  for (const auto& t : l.y) painter.drawText(t.rect, Qt::AlignRight | Qt::AlignVCenter, t.text);
  painter.drawText(l.axis.rect, Qt::AlignHCenter | Qt::AlignVCenter, l.axis.text);
}

void LossChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paint_chart_frame(painter, *this, title_, kChartMargin, frame().title);
  const QRectF plot = plotRect();
  if (plot.width() < 20 || plot.height() < 20) return;
  drawAxes(painter, plot);
  painter.setRenderHint(QPainter::Antialiasing);
  if (threshold_ && *threshold_ > 0) {
    const double y = toPixel({0, *threshold_}).y();
    const QColor ok = LogLogChart::seriesColor(2);
    painter.setPen(QPen(ok, 1.5, Qt::DashLine));
    painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
    const Text label = labels(plot).threshold;
    painter.drawText(label.rect, Qt::AlignRight | Qt::AlignBottom, label.text);
  }
  const QColor c = LogLogChart::seriesColor(0);
  QPainterPath line;
  std::vector<QPointF> at;
  for (QPointF p : points_)
    if (drawable_loss(p)) at.push_back(toPixel(p));
  for (size_t k = 0; k < at.size(); ++k) k ? line.lineTo(at[k]) : line.moveTo(at[k]);
  painter.setClipRect(
      plot.adjusted(-kLossMarker - 2, -kLossMarker - 2, kLossMarker + 2, kLossMarker + 2));
  painter.setPen(QPen(c, 2));
  painter.setBrush(Qt::NoBrush);
  painter.drawPath(line);
  painter.setBrush(c);
  // Markers only while they stay apart; a long run reads better as a line.
  if (at.size() <= 60)
    for (QPointF p : at) painter.drawEllipse(p, kLossMarker, kLossMarker);
}

}  // namespace awb::gui
