// measures.hpp: small numeric readings of attention outputs that checks and diagnoses share.
#ifndef AWB_GRADERS_CHECKS_MEASURES_HPP_
#define AWB_GRADERS_CHECKS_MEASURES_HPP_

#include <string>
#include <vector>

#include "model/run.hpp"

namespace awb::grade {

// Entropy of row `row` of a weight matrix, in nats (0 · log 0 = 0).
double row_entropy(const Matrix& a, int64_t row);
// Index of the largest entry of a row (the first on ties).
int64_t row_argmax(const Matrix& a, int64_t row);
// How many entries of the row are strictly larger than entry `col` (0: it is the largest).
int64_t rank_in_row(const Matrix& a, int64_t row, int64_t col);
double cosine(const std::vector<double>& u, const std::vector<double>& v);
std::vector<double> row_of(const Matrix& m, int64_t row);

// A number for feedback: 6 significant digits, "NaN" and "Inf" spelled out.
std::string format_value(double v);

// "journey" or "t3" when the run has no tokens.
std::string token_name(const RunInput& input, int64_t index);
// "NaN at (2, 1)" for the first non-finite entry, or "" when every entry is finite.
std::string first_non_finite(const Matrix& m);

// The selected layer (-1: last) and head of a run; throws Error("check.index") when absent.
const LayerRun& layer_of(const RunOutput& run, int layer);
const Matrix& weights_of(const RunOutput& run, int layer, int head);
const Matrix& scores_of(const RunOutput& run, int layer, int head);

}  // namespace awb::grade

#endif  // AWB_GRADERS_CHECKS_MEASURES_HPP_
