// cell_mask.hpp: which cells of an attention map are structurally zero (keys after the query
// under the causal mask, keys outside a sliding window), known from what the variant computes.
#ifndef AWB_GUI_CELL_MASK_HPP_
#define AWB_GUI_CELL_MASK_HPP_

#include <cstdint>
#include <limits>
#include <vector>

#include "graders/model/params.hpp"
#include "graders/model/run.hpp"
#include "graders/model/tensor.hpp"

namespace awb::gui {

// The keys a query sees form a band around it: at most `ahead` keys after it and `behind`
// before it. The causal mask is ahead = 0; a sliding window of w is ahead = behind = w; both
// together, ahead = 0 and behind = w. A cell outside the band is masked: exactly 0 by what the
// variant computes, not a small weight.
struct CellMask {
  static constexpr int64_t kAll = std::numeric_limits<int64_t>::max();
  int64_t ahead = kAll, behind = kAll;
  // Only cells outside the band that are exactly 0 count as masked: a difference map's, where a
  // nonzero value outside the band is a leak of one side and must show in colour.
  bool zeros_only = false;

  static CellMask causal(bool on) { return on ? CellMask{0, kAll} : CellMask{}; }
  bool any() const { return ahead != kAll || behind != kAll; }
  bool windowed() const { return behind != kAll || (ahead != kAll && ahead != 0); }
  bool masked(int64_t r, int64_t c) const { return c - r > ahead || r - c > behind; }
  // Whether cell (r, c) of `m` is drawn as masked (hatched, outside every min–max).
  bool hides(const Matrix& m, int64_t r, int64_t c) const {
    return masked(r, c) && (!zeros_only || m(r, c) == 0);
  }
  bool operator==(const CellMask&) const = default;
};

// The keys of query `query`'s row drawn as masked (the bars of one row).
std::vector<bool> masked_keys(const CellMask& mask, const std::vector<double>& row, int64_t query);

// The cells both masks mask: where a difference of two masked maps is 0 by construction (those
// of them that are 0: zeros_only).
CellMask common_cells(const CellMask& a, const CellMask& b);

// The mask of a run with `fitted` (the input's parameters as the variant received them) by a
// variant declaring `declared`: causal when the mask was on; a sliding window when the declarations
// make it a sliding-window variant (the rule by which the core picks its reference,
// core::declared_family), of the `window` value it was given or its default. A reference of the
// input's family declares core::reference_params(family).decls.
CellMask cell_mask_of(const Parameters& fitted, const std::vector<ParamDecl>& declared);

}  // namespace awb::gui

#endif  // AWB_GUI_CELL_MASK_HPP_
