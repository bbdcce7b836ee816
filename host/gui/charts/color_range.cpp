// color_range.cpp: one pass over the matrix for its own and its rows' min–max, then the choice
// resolved.
#include "gui/charts/color_range.hpp"

#include <QBoxLayout>
#include <QLabel>
#include <algorithm>

namespace awb::gui {

void ColorSpans::resolve(const Matrix& m, Span scale, const CellMask& mask, ColorRange choice,
                         Span shared) {
  scale_ = scale;
  shared_ = shared;
  const int rows = static_cast<int>(m.rows), cols = static_cast<int>(m.cols);
  const double width = scale.second - scale.first, tiny = 1e-9 * width;
  own_ = {INFINITY, -INFINITY};
  rows_.assign(static_cast<size_t>(rows), scale);
  for (int r = 0; r < rows; ++r) {
    double lo = INFINITY, hi = -INFINITY;
    for (int c = 0; c < cols; ++c) {
      const double v = m(r, c);
      if (!std::isfinite(v) || mask.hides(m, r, c)) continue;
      lo = std::min(lo, v);
      hi = std::max(hi, v);
    }
    if (hi - lo > tiny) rows_[static_cast<size_t>(r)] = {lo, hi};
    own_ = {std::min(own_.first, lo), std::max(own_.second, hi)};
  }
  const Span mm = this->shared() ? shared_ : own_;
  const double spread = mm.second - mm.first;
  switch (choice) {
    case ColorRange::kAuto:
      in_force_ = spread >= 0.01 * width && mm.second < scale.first + width / 2
                      ? ColorRange::kMatrix
                      : ColorRange::kScale;
      break;
    case ColorRange::kMatrix:
      in_force_ = spread > tiny ? ColorRange::kMatrix : ColorRange::kScale;
      break;
    default:
      in_force_ = choice;
  }
}

Span ColorSpans::span(int row) const {
  if (in_force_ == ColorRange::kMatrix) return shared() ? shared_ : own_;
  if (in_force_ == ColorRange::kRow && row >= 0 && row < static_cast<int>(rows_.size()))
    return rows_[static_cast<size_t>(row)];
  return scale_;
}

QComboBox* add_color_range_box(QBoxLayout* row) {
  auto* box = new QComboBox;
  // The order of ColorRange.
  box->addItems(
      {QObject::tr("auto"), QObject::tr("0–1"), QObject::tr("min–max"), QObject::tr("per row")});
  box->setToolTip(
      QObject::tr("Which values the heatmap's colours span. auto: the matrix's min–max when "
                  "every value is below half the scale (small weights of a long sequence), "
                  "else 0–1. per row: each row from its own min to its max."));
  row->addWidget(new QLabel(QObject::tr("colour range")));
  row->addWidget(box);
  return box;
}

}  // namespace awb::gui
