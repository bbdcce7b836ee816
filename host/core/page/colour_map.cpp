// colour_map.cpp: generates the Oklab ramp and converts it to 8-bit sRGB.
#include "core/page/colour_map.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace awb::core {
namespace {

constexpr double kL0 = 0.27, kL1 = 0.93, kChroma = 0.09, kHue0 = 300.0, kHue1 = 95.0;

// Oklab → linear sRGB, Ottosson's published matrices.
std::array<double, 3> oklab_to_linear(double L, double a, double b) {
  const double l_ = L + 0.3963377774 * a + 0.2158037573 * b;
  const double m_ = L - 0.1055613458 * a - 0.0638541728 * b;
  const double s_ = L - 0.0894841775 * a - 1.2914855480 * b;
  const double l = l_ * l_ * l_, m = m_ * m_ * m_, s = s_ * s_ * s_;
  return {4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
          -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
          -0.0041960863 * l - 0.7034186147 * m + 1.7076147010 * s};
}

// The sRGB transfer function (IEC 61966-2-1).
uint8_t encode(double linear) {
  const double c = std::clamp(linear, 0.0, 1.0);
  const double v = c <= 0.0031308 ? 12.92 * c : 1.055 * std::pow(c, 1.0 / 2.4) - 0.055;
  return static_cast<uint8_t>(std::lround(v * 255.0));
}

}  // namespace

std::array<double, 3> colour_map_oklab(int i) {
  const double t = static_cast<double>(i) / (kColourMapSize - 1);
  const double hue = (kHue0 + (kHue1 - kHue0) * t) * std::numbers::pi / 180.0;
  return {kL0 + (kL1 - kL0) * t, kChroma * std::cos(hue), kChroma * std::sin(hue)};
}

std::array<double, 3> colour_map_linear_srgb(int i) {
  const auto lab = colour_map_oklab(i);
  return oklab_to_linear(lab[0], lab[1], lab[2]);
}

const std::array<Rgb8, kColourMapSize>& colour_map() {
  static const auto table = [] {
    std::array<Rgb8, kColourMapSize> t{};
    for (int i = 0; i < kColourMapSize; ++i) {
      const auto c = colour_map_linear_srgb(i);
      t[static_cast<size_t>(i)] = {encode(c[0]), encode(c[1]), encode(c[2])};
    }
    return t;
  }();
  return table;
}

}  // namespace awb::core
