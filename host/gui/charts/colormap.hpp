// colormap.hpp: the sequential colour map of every heatmap: perceptually uniform and readable
// with the common colour-vision deficiencies.
#ifndef AWB_GUI_COLORMAP_HPP_
#define AWB_GUI_COLORMAP_HPP_

#include <QColor>
#include <array>

#include "core/page/colour_map.hpp"

namespace awb::gui {

// The core's colour map (core/page/colour_map.hpp: Oklab, uniform, colour-blind safe) as Qt
// colours: the teaching page paints with the same 256 entries.
class ColorMap {
 public:
  static constexpr int kSize = core::kColourMapSize;
  static const ColorMap& instance();

  // t is clamped to [0, 1] and rounded to the nearest entry.
  QRgb rgb(double t) const;
  QRgb entry(int i) const { return table_[static_cast<size_t>(i)]; }
  // The entry's Oklab coordinates before conversion to 8-bit sRGB (for the tests).
  std::array<double, 3> oklab(int i) const;
  // Linear-light sRGB of entry i before clamping and quantisation.
  std::array<double, 3> linear_srgb(int i) const;

 private:
  ColorMap();
  std::array<QRgb, kSize> table_{};
};

// The colour for masked cells (causal): a neutral grey outside the map's hue path, drawn with a
// hatch so it never reads as a small weight.
QColor masked_color();

}  // namespace awb::gui

#endif  // AWB_GUI_COLORMAP_HPP_
