// colormap.cpp: the core's colour map as Qt colours.
#include "gui/charts/colormap.hpp"

#include <cmath>

namespace awb::gui {

const ColorMap& ColorMap::instance() {
  static const ColorMap map;
  return map;
}

ColorMap::ColorMap() {
  const auto& core_map = core::colour_map();
  for (int i = 0; i < kSize; ++i) {
    const auto& c = core_map[static_cast<size_t>(i)];
    table_[static_cast<size_t>(i)] = qRgb(c[0], c[1], c[2]);
  }
}

std::array<double, 3> ColorMap::oklab(int i) const { return core::colour_map_oklab(i); }

std::array<double, 3> ColorMap::linear_srgb(int i) const { return core::colour_map_linear_srgb(i); }

QRgb ColorMap::rgb(double t) const {
  if (!(t > 0)) t = 0;  // NaN too
  if (t > 1) t = 1;
  return table_[static_cast<size_t>(std::lround(t * (kSize - 1)))];
}

QColor masked_color() {
  return QColor(core::kMaskedColour[0], core::kMaskedColour[1], core::kMaskedColour[2]);
}

}  // namespace awb::gui
