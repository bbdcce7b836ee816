// cell_mask.cpp: the band of a run, from its causal flag and its variant's declarations.
#include "gui/charts/cell_mask.hpp"

#include <algorithm>

#include "core/compare/compare.hpp"

namespace awb::gui {

CellMask common_cells(const CellMask& a, const CellMask& b) {
  // Both bands hold the diagonal, so their union is the band of the larger reach each way.
  return {std::max(a.ahead, b.ahead), std::max(a.behind, b.behind), true};
}

std::vector<bool> masked_keys(const CellMask& mask, const std::vector<double>& row, int64_t query) {
  std::vector<bool> out(row.size(), false);
  for (size_t c = 0; c < row.size(); ++c)
    out[c] = mask.masked(query, static_cast<int64_t>(c)) && (!mask.zeros_only || row[c] == 0);
  return out;
}

CellMask cell_mask_of(const Parameters& fitted, const std::vector<ParamDecl>& declared) {
  const core::KeyBand band = core::key_band(fitted, declared);
  return {band.ahead, band.behind};
}

}  // namespace awb::gui
