// compare_metrics.hpp: how far one layer's attention is from another's, row by row and head by
// head: the numbers behind `awb compare`'s per-head and pooled rows.
#ifndef AWB_CORE_COMPARE_COMPARE_METRICS_HPP_
#define AWB_CORE_COMPARE_COMPARE_METRICS_HPP_

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "graders/model/run.hpp"

namespace awb::core {

// Distributions over keys: one row of an attention matrix (masked keys hold 0). In nats; a row's
// entropy and argmax are the graders' (graders/checks/measures.hpp: 0 · ln 0 = 0, first on ties).
//
// KL(p‖q) = Σ p ln(p / q). A key p gives 0 adds nothing (a key both mask adds nothing); a key p
// weights and q gives exactly 0 makes it +infinity. No epsilon: a variant that puts no weight
// where the baseline looks is infinitely far from it in KL, and it is reported as "inf" (JS
// stays finite for it). NaN when the rows differ in length.
double kl_divergence(std::span<const double> p, std::span<const double> q);
// Jensen–Shannon: ½ KL(p‖m) + ½ KL(q‖m) with m = (p + q) / 2. Symmetric, finite, in [0, ln 2].
double js_divergence(std::span<const double> p, std::span<const double> q);
// |top-k keys of p ∩ top-k keys of q| / k, with k clamped to [1, row length]; among equal
// weights the lower key index ranks first.
double top_k_overlap(std::span<const double> p, std::span<const double> q, int k);

// One head of a variant against the same head of a baseline, over the head's rows.
// Divergences are KL(baseline‖variant) and JS; means and maxima are over rows.
struct HeadMetrics {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  int head = -1;                // -1 for a pooled row
  int64_t rows = 0;             // rows measured (0: nothing paired; every value is then NaN)
  double max_abs_diff = kNone;  // max |A − A_baseline|
  double kl_mean = kNone, kl_max = kNone;
  double js_mean = kNone, js_max = kNone;
  double entropy = kNone;           // mean row entropy of the variant's head(s)
  double baseline_entropy = kNone;  // the same of the baseline's
  double argmax_agreement = kNone;  // share of rows with the same top key
  double top_k_overlap = kNone;     // mean top_k_overlap of the rows
};

// `a` against `baseline`, row by row. All values NaN (rows 0) when their shapes differ.
HeadMetrics head_metrics(const Matrix& a, const Matrix& baseline, int top_k);
// Several heads' metrics as one: means weighted by rows, maxima of maxima (head = -1).
HeadMetrics pooled_metrics(const std::vector<HeadMetrics>& heads);

// One layer of a variant's run against the same layer of a baseline's run.
struct LayerComparison {
  int variant_heads = 0;
  int baseline_heads = 0;
  std::vector<HeadMetrics> heads;  // the paired heads asked for, in index order
  HeadMetrics pooled;              // over `heads`
  // Heads are paired by index. When the counts differ this says which are left unpaired
  // ("variant has 1 head, reference 2: head 1 unpaired"); empty when every head is paired.
  std::string pairing_note;
  double z_error = HeadMetrics::kNone;    // ‖Z − Z_baseline‖ (Frobenius); NaN: shapes differ
  double z_max_abs = HeadMetrics::kNone;  // max |Z − Z_baseline|; NaN likewise
  std::string z_shapes;                   // "6x2 against 6x3" when ||dZ|| cannot be measured (NaN)
};

// `head`: one head by index, or every head when empty. `baseline_name` names the baseline in
// the pairing note ("reference", a variant id).
LayerComparison compare_layer(const LayerRun& a, const LayerRun& baseline, std::optional<int> head,
                              int top_k, const std::string& baseline_name);

// The JSON of `awb compare` (its --format json and an export's metrics.json), written here so
// that every front end writes the same keys: NaN (nothing to measure) is null, an infinity the
// string "inf" or "-inf" (JSON has none).
nlohmann::json number_json(double v);
// One head's or the pooled row's metrics: rows, max_abs_diff, kl_mean, kl_max, js_mean, js_max,
// entropy, against_entropy, argmax_agreement, top_k_overlap, and head (not for a pooled row).
nlohmann::json head_metrics_json(const HeadMetrics& m);
// variant_heads, against_heads, pairing (when a head is unpaired), heads, pooled, z_error and
// z_max_abs, and z_shapes when Z's shapes differ.
nlohmann::json layer_comparison_json(const LayerComparison& l);

}  // namespace awb::core

#endif  // AWB_CORE_COMPARE_COMPARE_METRICS_HPP_
