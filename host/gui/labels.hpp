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

namespace awb::gui {

// WCAG 2 relative luminance of an sRGB colour: 0 for black, 1 for white.
double relative_luminance(QRgb color);
// Black or white, whichever has the larger WCAG contrast ratio against `background`: black on
// light colours, white on dark ones.
QColor contrast_text_color(QRgb background);

// A heatmap cell's value in two decimals ("0.24"): one width for every value of a weight map,
// so a cell that fits one fits all (the tooltip has the exact value).
QString cell_value_text(double value);
// A bar's value in three significant digits ("0.139", "-2.35").
QString bar_value_text(double value);
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
