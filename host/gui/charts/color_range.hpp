// color_range.hpp: which values a heatmap's colours span: the choices a user has, the rule that
// resolves "auto", and the span each row of one matrix gets under the choice in force.
#ifndef AWB_GUI_COLOR_RANGE_HPP_
#define AWB_GUI_COLOR_RANGE_HPP_

#include <QComboBox>
#include <cmath>
#include <utility>
#include <vector>

#include "graders/model/tensor.hpp"
#include "gui/charts/cell_mask.hpp"

class QBoxLayout;

namespace awb::gui {

// Which values the colour map spans, from its first entry to its last.
enum class ColorRange {
  // A choice, never in force: kMatrix when every value lies in the lower half of the scale and
  // the values are not all equal (their min–max spans at least 1 % of the scale), else kScale.
  // Attention weights of a longer sequence are all small (journey's lie in 0.10–0.24): on 0–1
  // they would all be one dark colour, while weights up to 0.5 and above read well on 0–1.
  kAuto,
  kScale,   // the matrix's scale: 0–1 for attention weights
  kMatrix,  // the matrix's own min–max (or the one shared by maps shown side by side)
  kRow,     // each row its own min–max: where each query looks most, whatever its spread
};

using Span = std::pair<double, double>;  // low end, high end

// The spans of one matrix under one choice. Min–max are over the unmasked finite cells: a
// masked cell is exactly 0 by the mask, not data.
class ColorSpans {
 public:
  // `scale`: the matrix's scale; `mask`: the cells masked (left out); `shared`:
  // the min–max of the maps shown beside this one (NaN in either end: this matrix's own).
  void resolve(const Matrix& m, Span scale, const CellMask& mask, ColorRange choice, Span shared);

  ColorRange in_force() const { return in_force_; }
  bool shared() const { return std::isfinite(shared_.first) && std::isfinite(shared_.second); }
  // This matrix's own min and max (+inf, −inf when it has no unmasked finite cell).
  Span own() const { return own_; }
  // The span of row `row`, or the matrix-wide one for -1. A row whose values are all equal
  // has no spread to show and keeps the scale; so does kMatrix over all-equal values, which
  // then is not in force.
  Span span(int row) const;

 private:
  Span scale_{0, 1}, own_{0, 0}, shared_{NAN, NAN};
  std::vector<Span> rows_;
  ColorRange in_force_ = ColorRange::kScale;
};

// Adds "colour range" and its combo box (auto, 0–1, min–max, per row: the order of ColorRange)
// to `row`; returns the box.
QComboBox* add_color_range_box(QBoxLayout* row);
inline ColorRange color_range_of(const QComboBox* box) {
  return static_cast<ColorRange>(box->currentIndex());
}

}  // namespace awb::gui

#endif  // AWB_GUI_COLOR_RANGE_HPP_
