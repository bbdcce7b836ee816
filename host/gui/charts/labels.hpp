// labels.hpp: the text the charts draw on and beside their plots: value formats, a text colour
// that reads on any background, and axis labels laid out from the font's metrics (horizontal,
// or turned 90° with every k-th drawn), so every chart's text grows with the application font.
#ifndef AWB_GUI_LABELS_HPP_
#define AWB_GUI_LABELS_HPP_

#include <QColor>
#include <QFontMetricsF>
#include <QPainter>
#include <QRectF>
#include <QString>
#include <QStringList>
#include <vector>

namespace awb::gui {

// WCAG 2 relative luminance of an sRGB colour: 0 for black, 1 for white.
double relative_luminance(QRgb color);
// Black or white, whichever has the larger WCAG contrast ratio against `background`: black on
// light colours, white on dark ones.
QColor contrast_text_color(QRgb background);

// The one number format of the charts a student reads: three decimals ("0.139", "-2.350"),
// the same in every bar, cell, legend and caption of a view. Exact values read exact: 0 as "0",
// a whole number without decimals ("1"); a value too small for three decimals as "< 0.001"
// (or "> -0.001"), never in scientific notation. The tooltips keep every digit.
inline constexpr int kValueDecimals = 3;
QString value_text(double value);
// A control's number as a person writes it: three significant digits, no exponent, no
// trailing zeros ("1000", "0.001", "1.58").
QString plain_number(double value);
// Which key a row of weights puts most on: "most: 'river' (0.412)", or, when several share the
// largest value (within the f64 tolerance of the checks), "tie: 'Your', 'journey', … (0.167
// each)". Masked entries are left out. Empty when there is no entry.
QString most_text(const std::vector<double>& values, const QStringList& labels,
                  const std::vector<bool>& masked = {});
// `names` with each one that occurs more than once told apart by its qualifier, written by
// `pattern` (%1 the name, %2 the qualifier): two plugins both "Mutant 1.0.0" become "Mutant
// 1.0.0 (org.awb.mutant.a)" and "… (org.awb.mutant.b)"; a unique name stays as it is.
QStringList distinct_names(const QStringList& names, const QStringList& qualifiers,
                           const QString& pattern = QStringLiteral("%1 (%2)"));

// The width a box must have to hold `text` in `font`, whole pixels, by both the fractional and
// the integer metrics (the layout check measures with the latter).
double text_width(const QFont& font, const QString& text);
// The widest of `texts` by text_width (0 for none).
double widest(const QFont& font, const QStringList& texts);

// How labels along an axis of slots `step` pixels apart fit: side by side when the widest fits
// its slot, else turned 90° (one line high each); every `stride`-th is drawn, the smallest
// stride at which neighbours never overlap.
struct AxisLabels {
  bool turned = false;
  int stride = 1;
  double depth = 0;  // the room they need across the axis
};
AxisLabels fit_axis_labels(const QFontMetricsF& fm, double widest_text, double step);
// The smallest k with k × step ≥ extent: stacked labels `extent` high on slots `step` apart.
int label_stride(double extent, double step);

// Draws `text` turned 90° counter-clockwise (read from bottom to top) in `box`, the turned
// text's bounding box; Qt::AlignTop puts the text's end at the box's top, Qt::AlignBottom its
// start at the bottom.
void draw_turned_text(QPainter& painter, const QRectF& box, const QString& text,
                      Qt::Alignment align);

}  // namespace awb::gui

#endif  // AWB_GUI_LABELS_HPP_
