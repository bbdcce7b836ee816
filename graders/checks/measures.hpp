// measures.hpp: small numeric readings of attention outputs that checks and diagnoses share.
#ifndef AWB_GRADERS_CHECKS_MEASURES_HPP_
#define AWB_GRADERS_CHECKS_MEASURES_HPP_

#include <string>
#include <vector>

#include "graders/model/run.hpp"

namespace awb::grade {

// Entropy of row `row` of a weight matrix, in nats (0 · log 0 = 0).
double row_entropy(const Matrix& a, int64_t row);
// Index of the largest entry of a row (the first on ties).
int64_t row_argmax(const Matrix& a, int64_t row);
// How many other entries of the row are at least as large as entry `col`. Ties count against
// the entry, so "key is in the top k" (rank < k) never holds by a tie: on a constant row every
// entry has rank T − 1, in the top k only when k ≥ T. 0: it is strictly the largest.
int64_t rank_in_row(const Matrix& a, int64_t row, int64_t col);
double cosine(const std::vector<double>& u, const std::vector<double>& v);
std::vector<double> row_of(const Matrix& m, int64_t row);

// A number for feedback: 6 significant digits, "NaN" and "Inf" spelled out.
std::string format_value(double v);

// "journey" or "t3" when the run has no tokens.
std::string token_name(const RunInput& input, int64_t index);
// "NaN at (2, 1)" for the first non-finite entry, or "" when every entry is finite.
std::string first_non_finite(const Matrix& m);

// "the weights contain NaN at (2, 1)" for the first non-finite entry of `m` (`what`: "the
// weights", "Z", ...), or "" when every entry is finite.
std::string non_finite_in(const Matrix& m, const std::string& what);
// Whether every entry of `m` is the same number (false for an empty matrix).
bool is_constant(const Matrix& m);

// Whether a layer's Z is one number in every entry although its input rows differ: such a Z
// does not depend on the input (correct attention gives it only when W_v or W_o is zero).
bool is_degenerate(const LayerRun& layer);

// What a check reads of a layer's outputs (bit flags).
enum Reads : unsigned { kReadsWeights = 1u, kReadsScores = 2u, kReadsContext = 4u };

// Why a layer's outputs cannot be judged at all, or "" when they can: the first NaN or Inf in
// the tensors a check reads (`head` < 0: every head), or a degenerate layer (is_degenerate). No
// property or expect check passes on either.
std::string unjudgeable(const LayerRun& layer, unsigned reads, int head = -1);

// The selected layer (-1: last) and head of a run; throws Error("check.index") when absent.
const LayerRun& layer_of(const RunOutput& run, int layer);
const Matrix& weights_of(const RunOutput& run, int layer, int head);
const Matrix& scores_of(const RunOutput& run, int layer, int head);

}  // namespace awb::grade

#endif  // AWB_GRADERS_CHECKS_MEASURES_HPP_
