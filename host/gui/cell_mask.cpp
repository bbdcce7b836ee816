// cell_mask.cpp: the band of a run, from its causal flag and its variant's declarations.
#include "gui/cell_mask.hpp"

#include <algorithm>
#include <exception>

#include "core/plugins/reference_forward.hpp"

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
  CellMask mask = CellMask::causal(fitted.causal);
  if (core::declared_family(declared) != Family::kSlidingWindow) return mask;
  // The value the variant ran with: the input's, else the declared default (as the core fills
  // it in). A value it cannot take fails the run itself, which then has no map to mask.
  std::vector<double> values;
  try {
    values = resolve_params(declared, fitted.variant, "the variant", false);
  } catch (const std::exception&) {
    return mask;
  }
  for (size_t i = 0; i < declared.size(); ++i)
    if (declared[i].name == "window") {
      const auto w = static_cast<int64_t>(values[i]);
      mask.ahead = std::min(mask.ahead, w);
      mask.behind = std::min(mask.behind, w);
    }
  return mask;
}

}  // namespace awb::gui
