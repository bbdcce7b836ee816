// labels.cpp: the formats, the contrast rule and the axis-label fit of labels.hpp.
#include "gui/charts/labels.hpp"

#include <QObject>
#include <algorithm>
#include <cmath>

#include "graders/tolerance/tolerance.hpp"

namespace awb::gui {

double relative_luminance(QRgb color) {
  // The sRGB transfer function undone: luminance is a sum of linear light, not of 8-bit codes.
  auto linear = [](int v) {
    const double s = v / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * linear(qRed(color)) + 0.7152 * linear(qGreen(color)) +
         0.0722 * linear(qBlue(color));
}

QColor contrast_text_color(QRgb background) {
  // Contrast ratios (L1 + 0.05) / (L2 + 0.05) against black and against white are equal where
  // L = sqrt(1.05 × 0.05) − 0.05 ≈ 0.179; above it black contrasts more.
  const double l = relative_luminance(background);
  return (l + 0.05) / 0.05 >= 1.05 / (l + 0.05) ? QColor(Qt::black) : QColor(Qt::white);
}

QString value_text(double value) {
  if (std::isnan(value)) return QObject::tr("n/a");
  if (std::isinf(value)) return value > 0 ? QStringLiteral("∞") : QStringLiteral("-∞");
  if (value == std::round(value) && std::abs(value) < 1e15)
    return QString::number(static_cast<long long>(value));
  const double unit = std::pow(10.0, -kValueDecimals);
  // Below half the last place it would round to "0.000": say how small instead.
  if (std::abs(value) < unit / 2) {
    const QString u = QString::number(unit, 'f', kValueDecimals);
    return value > 0 ? QStringLiteral("< ") + u : QStringLiteral("> -") + u;
  }
  return QString::number(value, 'f', kValueDecimals);
}

QString plain_number(double value) {
  if (!std::isfinite(value) || value == 0) return value_text(value);
  const int magnitude = static_cast<int>(std::floor(std::log10(std::abs(value))));
  QString text = QString::number(value, 'f', std::max(0, 2 - magnitude));
  if (text.contains('.')) {
    while (text.endsWith('0')) text.chop(1);
    if (text.endsWith('.')) text.chop(1);
  }
  return text;
}

QString most_text(const std::vector<double>& values, const QStringList& labels,
                  const std::vector<bool>& masked) {
  auto seen = [&](size_t i) { return i >= masked.size() || !masked[i]; };
  double best = -INFINITY;
  for (size_t i = 0; i < values.size(); ++i)
    if (seen(i)) best = std::max(best, values[i]);
  if (!std::isfinite(best)) return {};
  const grade::F64Tolerance tol;
  QStringList names;
  for (size_t i = 0; i < values.size(); ++i)
    if (seen(i) && best - values[i] <= tol.atol + tol.rtol * std::abs(best)) {
      const int k = static_cast<int>(i);
      names << QStringLiteral("'%1'").arg(k < labels.size() ? labels[k] : QString::number(k));
    }
  if (names.size() == 1) return QObject::tr("most: %1 (%2)").arg(names.front(), value_text(best));
  // Two names and an ellipsis say "more than these" without a long line.
  const QString shown = names.size() <= 3 ? names.join(", ") : names.mid(0, 2).join(", ") + ", …";
  return QObject::tr("tie: %1 (%2 each)").arg(shown, value_text(best));
}

QStringList distinct_names(const QStringList& names, const QStringList& qualifiers,
                           const QString& pattern) {
  QStringList out = names;
  for (int i = 0; i < names.size(); ++i)
    if (names.count(names[i]) > 1 && i < qualifiers.size())
      out[i] =
          QString(pattern).replace(QStringLiteral("%1"), names[i]).replace("%2", qualifiers[i]);
  return out;
}

double text_width(const QFont& font, const QString& text) {
  return std::max(std::ceil(QFontMetricsF(font).horizontalAdvance(text)),
                  static_cast<double>(QFontMetrics(font).horizontalAdvance(text)));
}

double widest(const QFont& font, const QStringList& texts) {
  const QFontMetricsF fm(font);
  const QFontMetrics fmi(font);
  double w = 0;
  for (const auto& t : texts)
    w = std::max(
        {w, std::ceil(fm.horizontalAdvance(t)), static_cast<double>(fmi.horizontalAdvance(t))});
  return w;
}

int label_stride(double extent, double step) {
  if (step <= 0) return 1;
  return std::max(1, static_cast<int>(std::ceil(extent / step - 1e-9)));
}

AxisLabels fit_axis_labels(const QFontMetricsF& fm, double widest_text, double step) {
  // A quarter line of space between neighbours, so that two labels never touch.
  const double pad = std::ceil(fm.height() / 4);
  if (widest_text + pad <= step) return {false, 1, std::ceil(fm.height())};
  return {true, label_stride(fm.height() + pad, step), std::ceil(widest_text)};
}

void draw_turned_text(QPainter& painter, const QRectF& box, const QString& text,
                      Qt::Alignment align) {
  painter.save();
  painter.translate(box.bottomLeft());
  painter.rotate(-90);
  // In the turned frame x runs up the box and y across it.
  const Qt::Alignment along = align & Qt::AlignTop ? Qt::AlignRight : Qt::AlignLeft;
  painter.drawText(QRectF(0, 0, box.height(), box.width()), along | Qt::AlignVCenter, text);
  painter.restore();
}

}  // namespace awb::gui
