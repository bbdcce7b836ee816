// loglog_chart.cpp: log10 of each axis mapped linearly to pixels, so every decade is as wide as
// the next and a power law is a straight line.
#include "gui/charts/loglog_chart.hpp"

#include <QPainter>
#include <QPainterPath>
#include <algorithm>
#include <cmath>

#include "core/bench/statistics.hpp"
#include "gui/charts/chart_frame.hpp"

namespace awb::gui {
namespace {

constexpr int kMinorTick = 3, kMarker = 4, kSwatch = 22;

bool drawable(QPointF p) {
  return std::isfinite(p.x()) && std::isfinite(p.y()) && p.x() > 0 && p.y() > 0;
}

// Decades from -3 to 4 as plain numbers (0.001 … 10000), the rest as powers of ten.
QString decade_label(int e) {
  if (e >= -3 && e <= 4) return QString::number(std::pow(10.0, e), 'f', std::max(0, -e));
  static const QString kSuperscript[] = {"⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"};
  QString out = QStringLiteral("10");
  if (e < 0) out += QStringLiteral("⁻");
  for (QChar c : QString::number(std::abs(e))) out += kSuperscript[c.digitValue()];
  return out;
}

// Marker shapes differ by series too, so the lines stay apart without their colours.
void draw_marker(QPainter& painter, QPointF at, int series) {
  const double r = kMarker;
  switch (series % 4) {
    case 0:
      painter.drawEllipse(at, r, r);
      break;
    case 1:
      painter.drawRect(QRectF(at.x() - r, at.y() - r, 2 * r, 2 * r));
      break;
    case 2: {
      const QPointF tri[] = {
          {at.x(), at.y() - r - 1}, {at.x() + r + 1, at.y() + r}, {at.x() - r - 1, at.y() + r}};
      painter.drawPolygon(tri, 3);
      break;
    }
    default: {
      const QPointF dia[] = {{at.x(), at.y() - r - 1},
                             {at.x() + r + 1, at.y()},
                             {at.x(), at.y() + r + 1},
                             {at.x() - r - 1, at.y()}};
      painter.drawPolygon(dia, 4);
    }
  }
}

}  // namespace

QString loglog_slope_note(const std::vector<double>& x, const std::vector<double>& y) {
  const auto fit = core::loglog_fit(x, y);
  if (!fit) return {};
  return QObject::tr("slope %1 (R² %2)").arg(fit->slope, 0, 'f', 2).arg(fit->r_squared, 0, 'f', 3);
}

LogLogChart::LogLogChart(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void LogLogChart::setSeries(std::vector<Series> series) {
  series_ = std::move(series);
  update();
}

QColor LogLogChart::seriesColor(int i) {
  // Okabe and Ito's palette: told apart with every common kind of colour blindness.
  static const QColor kColors[] = {QColor(0x00, 0x72, 0xb2), QColor(0xd5, 0x5e, 0x00),
                                   QColor(0x00, 0x9e, 0x73), QColor(0xcc, 0x79, 0xa7),
                                   QColor(0xe6, 0x9f, 0x00), QColor(0x56, 0xb4, 0xe9),
                                   QColor(0x40, 0x40, 0x40)};
  return kColors[i % static_cast<int>(std::size(kColors))];
}

LogLogChart::Decades LogLogChart::decades(Qt::Orientation axis) const {
  double lo = INFINITY, hi = -INFINITY;
  auto take = [&](double v) {
    lo = std::min(lo, std::log10(v));
    hi = std::max(hi, std::log10(v));
  };
  for (const auto& s : series_)
    for (size_t i = 0; i < s.points.size(); ++i) {
      const QPointF p = s.points[i];
      if (!drawable(p)) continue;
      take(axis == Qt::Horizontal ? p.x() : p.y());
      // The intervals' ends stay inside the plot too.
      if (axis == Qt::Vertical && i < s.intervals.size())
        for (double end : {s.intervals[i].first, s.intervals[i].second})
          if (std::isfinite(end) && end > 0) take(end);
    }
  if (!std::isfinite(lo)) return {};
  Decades d{static_cast<int>(std::floor(lo)), static_cast<int>(std::ceil(hi))};
  if (d.hi <= d.lo) d.hi = d.lo + 1;  // one value, or every value on a decade
  return d;
}

int LogLogChart::decadeLow(Qt::Orientation axis) const { return decades(axis).lo; }
int LogLogChart::decadeHigh(Qt::Orientation axis) const { return decades(axis).hi; }

AxisBands LogLogChart::frame() const {
  const Decades y = decades(Qt::Vertical);
  QStringList labels;
  for (int e = y.lo; e <= y.hi; ++e) labels << decade_label(e);
  return axis_bands(*this, title_, labels, kChartMargin, kChartTick);
}

QRectF LogLogChart::plotRect() const {
  const AxisBands f = frame();
  // Half a label of room right of the plot, so the last x tick label stays whole.
  const int right =
      std::max(kChartRight, fontMetrics().horizontalAdvance(QStringLiteral("10000")) / 2 + 2);
  return QRectF(
      f.left, f.title + kChartMargin, width() - f.left - right,
      height() - f.title - 2 * kChartMargin - f.tick_labels - f.axis_title - legendBelowHeight());
}

double LogLogChart::legendBelowHeight() const {
  if (!legend_below_ || series_.empty()) return 0;
  const int row = fontMetrics().height() + 2;
  return kChartMargin + row * static_cast<int>(series_.size()) + 6;
}

LogLogChart::AxisTexts LogLogChart::axisTexts(const QRectF& plot) const {
  const AxisBands f = frame();
  const QFontMetrics fm(font());
  const Decades x = decades(Qt::Horizontal), y = decades(Qt::Vertical);
  const double x0 = std::pow(10.0, x.lo), y0 = std::pow(10.0, y.lo);
  AxisTexts out;
  for (int e = x.lo; e <= x.hi; ++e) {
    const double px = toPixel({std::pow(10.0, e), y0}).x();
    const QString label = decade_label(e);
    const double w = fm.horizontalAdvance(label) + 2;
    out.x.push_back({label, QRectF(px - w / 2, plot.bottom() + kChartTick, w, f.tick_labels - 2)});
  }
  for (int e = y.lo; e <= y.hi; ++e) {
    const double py = toPixel({x0, std::pow(10.0, e)}).y();
    out.y.push_back(
        {decade_label(e), QRectF(0, py - fm.height() / 2.0, f.left - kChartTick - 3, fm.height())});
  }
  out.title = {x_title_, QRectF(plot.left(), plot.bottom() + kChartTick + f.tick_labels - 2,
                                plot.width(), f.axis_title)};
  return out;
}

std::vector<DrawnTextSource::Text> LogLogChart::drawnTexts() const {
  std::vector<Text> out;
  out.push_back(
      {title_, QRectF(kChartMargin, 0, width() - 2 * kChartMargin, frame().title), false, true});
  const QRectF plot = plotRect();
  if (plot.width() < 20 || plot.height() < 20) return out;
  const AxisTexts axes = axisTexts(plot);
  out.insert(out.end(), axes.x.begin(), axes.x.end());
  out.insert(out.end(), axes.y.begin(), axes.y.end());
  out.push_back(axes.title);
  const QRectF box = legendBox(plot);
  const QStringList lines = legendLines();
  const int row = fontMetrics().height() + 2;
  for (int i = 0; i < lines.size(); ++i)
    out.push_back({lines[i], QRectF(box.left() + kSwatch + 10, box.top() + 3 + row * i,
                                    box.width() - kSwatch - 14, row)});
  return out;
}

QPointF LogLogChart::toPixel(QPointF data) const {
  const QRectF p = plotRect();
  const Decades x = decades(Qt::Horizontal), y = decades(Qt::Vertical);
  const double fx = (std::log10(data.x()) - x.lo) / (x.hi - x.lo);
  const double fy = (std::log10(data.y()) - y.lo) / (y.hi - y.lo);
  return {p.left() + fx * p.width(), p.bottom() - fy * p.height()};
}

void LogLogChart::drawAxes(QPainter& painter, const QRectF& plot) const {
  const QColor text = palette().windowText().color();
  QColor grid = text;
  grid.setAlphaF(0.15);
  const Decades x = decades(Qt::Horizontal), y = decades(Qt::Vertical);
  // A point on the other axis's low end, so toPixel gives the tick's position on this one.
  const double x0 = std::pow(10.0, x.lo), y0 = std::pow(10.0, y.lo);
  for (int e = x.lo; e <= x.hi; ++e) {
    const double px = toPixel({std::pow(10.0, e), y0}).x();
    painter.setPen(grid);
    painter.drawLine(QPointF(px, plot.top()), QPointF(px, plot.bottom()));
    painter.setPen(text);
    painter.drawLine(QPointF(px, plot.bottom()), QPointF(px, plot.bottom() + kChartTick));
    for (int m = 2; m <= 9 && e < x.hi; ++m) {
      const double mx = toPixel({m * std::pow(10.0, e), y0}).x();
      painter.drawLine(QPointF(mx, plot.bottom()), QPointF(mx, plot.bottom() + kMinorTick));
    }
  }
  for (int e = y.lo; e <= y.hi; ++e) {
    const double py = toPixel({x0, std::pow(10.0, e)}).y();
    painter.setPen(grid);
    painter.drawLine(QPointF(plot.left(), py), QPointF(plot.right(), py));
    painter.setPen(text);
    painter.drawLine(QPointF(plot.left() - kChartTick, py), QPointF(plot.left(), py));
    for (int m = 2; m <= 9 && e < y.hi; ++m) {
      const double my = toPixel({x0, m * std::pow(10.0, e)}).y();
      painter.drawLine(QPointF(plot.left() - kMinorTick, my), QPointF(plot.left(), my));
    }
  }
  painter.setPen(QPen(text, 1));
  painter.drawLine(plot.bottomLeft(), plot.bottomRight());
  painter.drawLine(plot.bottomLeft(), plot.topLeft());
  const AxisTexts axes = axisTexts(plot);
  for (const auto& t : axes.x) painter.drawText(t.rect, Qt::AlignHCenter | Qt::AlignTop, t.text);
  for (const auto& t : axes.y) painter.drawText(t.rect, Qt::AlignRight | Qt::AlignVCenter, t.text);
  painter.drawText(axes.title.rect, Qt::AlignHCenter | Qt::AlignVCenter, axes.title.text);
}

QStringList LogLogChart::legendLines() const {
  QStringList lines;
  for (const auto& s : series_)
    lines << (s.note.isEmpty() ? s.label : s.label + QStringLiteral("  ") + s.note);
  return lines;
}

QRectF LogLogChart::legendBox(const QRectF& plot) const {
  if (series_.empty()) return {};
  const QFontMetrics fm(font());
  const int row = fm.height() + 2;
  int text_width = 0;
  for (const QString& line : legendLines())
    text_width = std::max(text_width, fm.horizontalAdvance(line));
  const double w = kSwatch + 10 + text_width + 8, h = row * static_cast<int>(series_.size()) + 6;
  if (legend_below_) {
    const AxisBands f = frame();
    return QRectF(plot.left(), plot.bottom() + f.tick_labels + f.axis_title + kChartMargin, w, h);
  }
  // Top left: a growing cost leaves that corner empty.
  return QRectF(plot.left() + 8, plot.top() + 6, w, h);
}

void LogLogChart::drawLegend(QPainter& painter, const QRectF& plot) const {
  if (series_.empty()) return;
  const QRectF box = legendBox(plot);
  const QStringList lines = legendLines();
  const int row = painter.fontMetrics().height() + 2;
  QColor back = palette().window().color();
  back.setAlphaF(0.85);
  painter.fillRect(box, back);
  painter.setPen(QPen(palette().mid().color(), 1));
  painter.drawRect(box);
  for (size_t i = 0; i < series_.size(); ++i) {
    const int n = static_cast<int>(i);
    const double y = box.top() + 3 + row * n + row / 2.0;
    const QColor c = seriesColor(n);
    painter.setPen(QPen(c, 2));
    painter.drawLine(QPointF(box.left() + 5, y), QPointF(box.left() + 5 + kSwatch, y));
    painter.setBrush(c);
    draw_marker(painter, QPointF(box.left() + 5 + kSwatch / 2.0, y), n);
    painter.setBrush(Qt::NoBrush);
    painter.setPen(palette().windowText().color());
    painter.drawText(
        QRectF(box.left() + kSwatch + 10, y - row / 2.0, box.width() - kSwatch - 14, row),
        Qt::AlignLeft | Qt::AlignVCenter, lines[n]);
  }
}

void LogLogChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  paint_chart_frame(painter, *this, title_, kChartMargin, frame().title);
  const QRectF plot = plotRect();
  if (plot.width() < 20 || plot.height() < 20) return;
  drawAxes(painter, plot);
  painter.setRenderHint(QPainter::Antialiasing);
  painter.save();
  painter.setClipRect(plot.adjusted(-kMarker - 2, -kMarker - 2, kMarker + 2, kMarker + 2));
  for (size_t i = 0; i < series_.size(); ++i) {
    const int n = static_cast<int>(i);
    const QColor c = seriesColor(n);
    QPainterPath line;
    std::vector<QPointF> at;
    for (QPointF p : series_[i].points)
      if (drawable(p)) at.push_back(toPixel(p));
    for (size_t k = 0; k < at.size(); ++k) k ? line.lineTo(at[k]) : line.moveTo(at[k]);
    painter.setPen(QPen(c, 2));
    painter.setBrush(Qt::NoBrush);
    painter.drawPath(line);
    // Error bars under the markers: the interval's ends with caps.
    const auto& s = series_[i];
    painter.setPen(QPen(c, 1.5));
    for (size_t k = 0; k < s.points.size() && k < s.intervals.size(); ++k) {
      const auto [low, high] = s.intervals[k];
      if (!drawable(s.points[k]) || !(low > 0) || !(high > 0) || !std::isfinite(high)) continue;
      const QPointF a = toPixel({s.points[k].x(), low}), b = toPixel({s.points[k].x(), high});
      painter.drawLine(a, b);
      painter.drawLine(a - QPointF(kMarker + 1, 0), a + QPointF(kMarker + 1, 0));
      painter.drawLine(b - QPointF(kMarker + 1, 0), b + QPointF(kMarker + 1, 0));
    }
    painter.setPen(QPen(c, 2));
    painter.setBrush(c);
    for (QPointF p : at) draw_marker(painter, p, n);
  }
  painter.restore();
  drawLegend(painter, plot);
}

}  // namespace awb::gui
