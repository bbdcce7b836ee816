// colour_map.hpp: the sequential colour map of every heatmap awb draws (the GUI's charts and the
// teaching page): perceptually uniform and readable with the common colour-vision deficiencies.
#ifndef AWB_CORE_PAGE_COLOUR_MAP_HPP_
#define AWB_CORE_PAGE_COLOUR_MAP_HPP_

#include <array>
#include <cstdint>

namespace awb::core {

// 256 entries generated in Oklab (Ottosson 2020): lightness rises linearly from 0.27 to 0.93
// at a constant chroma of 0.09 while the hue turns from 300° (blue-violet) through cyan and
// green to 95° (yellow). Linear L, constant C and a linear hue give every step the same
// Oklab distance (a chord of a circle plus a constant ΔL), so the map is perceptually uniform
// in that space; the monotone lightness carries the value on its own, so it survives
// protanopia, deuteranopia and tritanopia and greyscale printing. Every entry lies inside sRGB
// without clipping (checked by a test), so no step is distorted by gamut mapping.
inline constexpr int kColourMapSize = 256;
using Rgb8 = std::array<uint8_t, 3>;

// The 8-bit sRGB entries, index 0 (low) to 255 (high).
const std::array<Rgb8, kColourMapSize>& colour_map();
// Entry i's Oklab coordinates before conversion to 8-bit sRGB (for the tests).
std::array<double, 3> colour_map_oklab(int i);
// Linear-light sRGB of entry i before clamping and quantisation.
std::array<double, 3> colour_map_linear_srgb(int i);

// The colour of masked cells (causal, outside a window): a neutral grey outside the map's hue
// path, drawn with a hatch so it never reads as a small weight.
inline constexpr Rgb8 kMaskedColour{128, 128, 128};

}  // namespace awb::core

#endif  // AWB_CORE_PAGE_COLOUR_MAP_HPP_
