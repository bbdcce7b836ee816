// colormap.hpp: the sequential colour map of every heatmap: perceptually uniform and readable
// with the common colour-vision deficiencies.
#ifndef AWB_GUI_COLORMAP_HPP_
#define AWB_GUI_COLORMAP_HPP_

#include <QColor>
#include <array>

namespace awb::gui {

// 256 entries generated in Oklab (Ottosson 2020): lightness rises linearly from 0.27 to 0.93
// at a constant chroma of 0.09 while the hue turns from 300° (blue-violet) through cyan and
// green to 95° (yellow). Linear L, constant C and a linear hue give every step the same
// Oklab distance (a chord of a circle plus a constant ΔL), so the map is perceptually uniform
// in that space; the monotone lightness carries the value on its own, so it survives
// protanopia, deuteranopia and tritanopia and greyscale printing. Every entry lies inside sRGB
// without clipping (checked by a test), so no step is distorted by gamut mapping.
class ColorMap {
 public:
  static constexpr int kSize = 256;
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
