// bar_chart.cpp: bars in whole device-independent pixels from one zero line; every band of text
// (title, values, tokens, caption) is as tall as the font makes it.
#include "gui/charts/bar_chart.hpp"

#include <QEvent>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "gui/charts/chart_frame.hpp"

namespace awb::gui {
namespace {

constexpr int kMargin = 6;

bool has_negative(const std::vector<double>& v, const std::vector<bool>& masked) {
  for (size_t i = 0; i < v.size(); ++i)
    if (!masked[i] && v[i] < 0) return true;
  return false;
}

}  // namespace

BarChart::BarChart(QWidget* parent) : QWidget(parent) {
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

QSize BarChart::minimumSizeHint() const {
  // Every band of text as the font makes it, and the plot's least size: bars tall enough to
  // compare and a bar per line of width. Where that does not fit, the view scrolls.
  return chart_minimum(*this, layout().plot, plots().front().minimum).expandedTo({160, 120});
}

std::vector<PlotSource::Plot> BarChart::plots() const {
  const double line = chart_line(*this);
  const double bars = static_cast<double>(std::max<size_t>(values_.size(), 1));
  return {{QStringLiteral("bars"), layout().plot.size(), QSizeF(bars * line, 4 * line)}};
}

void BarChart::setValues(const std::vector<double>& values, const std::vector<bool>& masked,
                         const QStringList& labels, double fixed_max) {
  values_ = values;
  masked_ = masked;
  masked_.resize(values_.size(), false);
  labels_ = labels;
  fixed_max_ = fixed_max;
  invalidate();
}

void BarChart::invalidate() {
  layout_valid_ = false;
  updateGeometry();  // the bands of text may need another height
  update();
}

void BarChart::resizeEvent(QResizeEvent*) {
  // Another width may wrap the title or turn the labels: bands of another height, another least
  // height the layout must know of.
  layout_valid_ = false;
  follow_minimum(*this, last_minimum_);
}

void BarChart::changeEvent(QEvent* e) {
  // A larger application font (the window's zoom) reaches every widget as a FontChange.
  if (e->type() == QEvent::FontChange) invalidate();
  QWidget::changeEvent(e);
}

bool BarChart::signedAxis() const { return fixed_max_ <= 0 && has_negative(values_, masked_); }

QString BarChart::tokenLabel(int i) const {
  return i < labels_.size() ? labels_[i] : QString::number(i);
}

QString BarChart::valueLabel(int i) const {
  if (i < 0 || i >= static_cast<int>(values_.size()) || masked_[static_cast<size_t>(i)]) return {};
  return value_text(values_[static_cast<size_t>(i)]);
}

const BarChart::Layout& BarChart::layout() const {
  if (layout_valid_) return layout_;
  layout_valid_ = true;
  Layout& l = layout_;
  const QFontMetricsF fm(font());
  l.line = std::ceil(fm.height());
  l.gap = std::max(2.0, std::ceil(l.line / 6));
  // Left: the axis's numbers; top: the title, then room for the values above the tallest bar;
  // bottom: the values below the longest negative bar, the tokens and the caption.
  const double axis_w = widest(font(), {value_text(scaleMax()), QStringLiteral("0")}) + 2 * l.gap;
  const double left = kMargin + axis_w, w = width() - left - kMargin;
  const double slot = w / static_cast<double>(std::max<size_t>(values_.size(), 1));
  QStringList values, tokens;
  for (size_t i = 0; i < values_.size(); ++i) {
    values << valueLabel(static_cast<int>(i));
    tokens << tokenLabel(static_cast<int>(i));
  }
  l.values = fit_axis_labels(fm, widest(font(), values), slot);
  l.tokens = fit_axis_labels(fm, widest(font(), tokens), slot);
  l.title = chart_title_height(*this, title_, kMargin);
  const double top = l.title + l.values.depth + l.gap;
  const double below =
      (signedAxis() ? l.values.depth + l.gap : 0) + l.gap + l.tokens.depth + l.gap + l.line + l.gap;
  l.plot = QRectF(left, top, w, height() - top - below);
  return l;
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
  if (!signedAxis()) return std::floor(p.bottom());
  return std::floor(p.center().y());
}

double BarChart::pixelsPerUnit() const {
  const QRectF p = plotRect();
  const double room = std::max(0.0, zeroLine() - p.top());  // none in a chart too short
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

QRectF BarChart::valueLabelRect(int i) const {
  const Layout& l = layout();
  const QString text = valueLabel(i);
  if (text.isEmpty() || i % l.values.stride != 0) return {};
  const QRectF b = barRect(i);
  const double tw = text_width(font(), text);
  const double along = l.values.turned ? tw : l.line, across = l.values.turned ? l.line : tw;
  // Past the bar's end: above a bar that rises, below one that falls.
  const double y =
      values_[static_cast<size_t>(i)] < 0 ? b.bottom() + l.gap : b.top() - l.gap - along;
  return {b.center().x() - across / 2, y, across, along};
}

QRectF BarChart::tokenLabelRect(int i) const {
  const Layout& l = layout();
  if (i < 0 || i >= static_cast<int>(values_.size()) || i % l.tokens.stride != 0) return {};
  const QRectF p = l.plot;
  const double slot = p.width() / static_cast<double>(values_.size());
  const double cx = p.left() + slot * (i + 0.5);
  const double y = p.bottom() + (signedAxis() ? l.values.depth + l.gap : 0) + l.gap;
  const double tw = text_width(font(), tokenLabel(i));
  return l.tokens.turned ? QRectF(cx - l.line / 2, y, l.line, tw)
                         : QRectF(cx - tw / 2, y, tw, l.line);
}

void BarChart::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const Layout& l = layout();
  paint_chart_frame(painter, *this, title_, kMargin, static_cast<int>(l.title));
  const QColor text = palette().windowText().color();
  const QRectF p = plotRect();
  if (values_.empty() || p.height() < 10) return;
  const double zero = zeroLine();
  const double axis_right = p.left() - l.gap;
  painter.drawText(QRectF(0, p.top() - l.line / 2, axis_right, l.line),
                   Qt::AlignRight | Qt::AlignVCenter, value_text(scaleMax()));
  painter.drawText(QRectF(0, zero - l.line / 2, axis_right, l.line),
                   Qt::AlignRight | Qt::AlignVCenter, QStringLiteral("0"));
  for (size_t i = 0; i < values_.size(); ++i) {
    const int index = static_cast<int>(i);
    const QRectF b = barRect(index);
    if (masked_[i]) {
      // A masked entry is exactly 0 by the mask, not a small weight: a hatched stub and ×.
      const QRectF stub(b.left(), zero - 10, b.width(), 10);
      painter.fillRect(stub, QBrush(QColor(110, 110, 110), Qt::BDiagPattern));
      painter.drawText(QRectF(b.left(), stub.top() - l.line, b.width(), l.line),
                       Qt::AlignHCenter | Qt::AlignBottom, QStringLiteral("×"));
    } else {
      QColor c = barColor();
      if (values_[i] < 0) c = QColor(0xc0, 0x7a, 0x20);  // negative scores: another colour too
      painter.fillRect(b, c);
      if (index == highlight_) {
        painter.setPen(QPen(text, 1, Qt::DashLine));
        painter.drawRect(b.adjusted(-2, -2, 1, 1));
        painter.setPen(text);
      }
    }
    const QRectF vr = valueLabelRect(index);
    if (!vr.isEmpty()) {
      if (l.values.turned)
        draw_turned_text(painter, vr, valueLabel(index),
                         values_[i] < 0 ? Qt::AlignTop : Qt::AlignBottom);
      else
        painter.drawText(vr, Qt::AlignCenter, valueLabel(index));
    }
    const QRectF token_box = tokenLabelRect(index);
    if (token_box.isEmpty()) continue;
    if (l.tokens.turned)
      draw_turned_text(painter, token_box, tokenLabel(index), Qt::AlignTop);
    else
      painter.drawText(token_box, Qt::AlignHCenter | Qt::AlignTop, tokenLabel(index));
  }
  painter.setPen(QPen(text, 1));
  painter.drawLine(QPointF(p.left(), zero + 0.5), QPointF(p.right(), zero + 0.5));
  painter.drawText(captionRect(), Qt::AlignLeft | Qt::AlignVCenter, caption_);
}

QRectF BarChart::captionRect() const {
  const Layout& l = layout();
  return {kMargin, height() - l.line - l.gap, width() - 2.0 * kMargin, l.line};
}

std::vector<DrawnTextSource::Text> BarChart::drawnTexts() const {
  const Layout& l = layout();
  std::vector<Text> out;
  out.push_back({title_, QRectF(kMargin, 0, width() - 2 * kMargin, l.title), false, true});
  if (values_.empty() || l.plot.height() < 10) return out;
  const double axis_right = l.plot.left() - l.gap;
  out.push_back({value_text(scaleMax()), QRectF(0, l.plot.top() - l.line / 2, axis_right, l.line)});
  out.push_back({QStringLiteral("0"), QRectF(0, zeroLine() - l.line / 2, axis_right, l.line)});
  for (int i = 0; i < static_cast<int>(values_.size()); ++i) {
    if (!valueLabelRect(i).isEmpty())
      out.push_back({valueLabel(i), valueLabelRect(i), l.values.turned});
    if (!tokenLabelRect(i).isEmpty())
      out.push_back({tokenLabel(i), tokenLabelRect(i), l.tokens.turned});
  }
  out.push_back({caption_, captionRect()});
  return out;
}

}  // namespace awb::gui
