// compare.hpp: several variants on the same input, each measured against the reference: the
// numbers the GUI's compare view and `awb compare` show.
#ifndef AWB_CORE_COMPARE_COMPARE_HPP_
#define AWB_CORE_COMPARE_COMPARE_HPP_

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "graders/model/run.hpp"

namespace awb::core {

// What a variant with `capabilities` understands of `input`: every layer fitted in demonstrate
// mode (a parameter-free variant ignores the weights; a single-head one takes head 0 without
// W_o). `notes` receives what was dropped, once per distinct note. Throws
// Error("run.cannot_run") when a layer cannot be fitted at all (a missing capability).
RunInput demonstration_input(const RunInput& input, uint64_t capabilities, Scalar scalar,
                             std::vector<std::string>* notes = nullptr);

// Statistics of attention weights, one T × T matrix per head. Heads are paired by index over
// the heads both sides have; NaN when they share none or their shapes differ.
double max_abs_difference(const std::vector<Matrix>& a, const std::vector<Matrix>& b);
// Mean over heads and rows of the row entropy -Σ_j a_ij ln a_ij, in nats (0 · ln 0 = 0).
// A uniform row over n visible keys has ln n; a one-hot row has 0.
double mean_row_entropy(const std::vector<Matrix>& weights);
// Share of rows (over the paired heads) whose largest weight is on the same key in both.
double argmax_agreement(const std::vector<Matrix>& a, const std::vector<Matrix>& b);

// The keys each query of a run sees, a band around it: at most `ahead` keys after it and `behind`
// before it (kAll: no limit). The causal mask is ahead = 0; a sliding-window variant's window w
// (the value it ran with, else its declared default) is ahead = behind = w. Cells outside the band
// are exactly 0 by what the variant computes.
struct KeyBand {
  static constexpr int64_t kAll = std::numeric_limits<int64_t>::max();
  int64_t ahead = kAll, behind = kAll;
};
// The band of a run with `fitted` (the input's parameters as the variant received them) by a
// variant declaring `declared`: sliding-window when the declarations make it one (the rule by
// which the core picks its reference, declared_family). A reference of the input's family
// declares reference_params(family).decls.
KeyBand key_band(const Parameters& fitted, const std::vector<ParamDecl>& declared);

// One variant to compare. `subject` runs it (owned by the caller); `capabilities` decide what
// it understands of the input.
struct Contender {
  std::string label;
  uint64_t capabilities = 0;
  Subject* subject = nullptr;
  // The parameters it declares: it is given only those of the input's values (a note says which
  // it does not take), and its own reference is the input's family only when it takes all of
  // that family's parameters (a multi-head variant on a sliding-window problem is checked
  // against softmax attention, which is what it computes).
  std::vector<ParamDecl> params{};
  // Values set for this comparison over the input's (the GUI's explore view's editors): each
  // is given to the variant only when it declares it, without a note when it does not.
  ParamValues values{};
};

// The reference of `reference_capabilities` (0: the full reference, every capability) on
// `input`, in f64: what a comparison measures the variants against.
RunOutput reference_run(const RunInput& input, uint64_t reference_capabilities);

// What `contender` runs of `input`: the input fitted to its capabilities (demonstration_input),
// then to its parameters: it is given the values it declares (the input's, `values` over them,
// its defaults for the rest; a note for each value it does not take), and the input's family
// becomes the one it computes. Throws Error("run.cannot_run") as demonstration_input does.
RunInput contender_input(const RunInput& input, const Contender& contender, Scalar scalar,
                         std::vector<std::string>& notes);

// Measured on the last layer's weights unless said otherwise.
struct CompareMetrics {
  double max_abs_error = 0;     // every layer's A and Z against the reference run on the same
                                // fitted input: is the variant right about what it ran?
  double max_abs_diff = 0;      // A against the exercise's reference: how far it differs
  double row_entropy = 0;       // mean_row_entropy of A
  double argmax_agreement = 0;  // against the exercise's reference
};

struct CompareEntry {
  std::string label;
  std::vector<std::string> notes;  // what the variant did not understand of the input
  std::string error;               // empty when it ran
  std::string error_id;            // the error's id ("run.cannot_run", ...), empty when it ran
  Parameters params;               // what it ran with: the input's fitted to it
  RunOutput output;                // its own run (empty on error)
  RunOutput reference;             // the reference on the same fitted input
  CompareMetrics metrics;
};

struct Comparison {
  RunOutput reference;  // the exercise's reference on the full input
  double reference_entropy = 0;
  std::vector<CompareEntry> entries;
};

// Runs each contender and the reference (f64 or f32 for the contenders; the reference in f64).
// A contender's fault is recorded in its entry's `error`; it never throws for one (a batched
// input throws Error("compare.usage")). `z_only`: the
// contenders are asked for Z alone (no A, no S: the streaming path a variant may have), their
// max_abs_error is Z's against their own reference, and their weights are empty.
Comparison compare_variants(const RunInput& input, uint64_t reference_capabilities,
                            const std::vector<Contender>& contenders, Scalar scalar = Scalar::kF64,
                            bool z_only = false);

// SHA-256 of everything a run reads (tokens, X, every layer's weights, the parameters and the
// variant's values), byte for byte: two exports of the same problem carry the same digest,
// whether it came from YAML, an archive or an exercise case.
std::string input_sha256(const RunInput& input);

// The last layer's attention weights of a run (empty when there is no layer).
const std::vector<Matrix>& last_weights(const RunOutput& output);

}  // namespace awb::core

#endif  // AWB_CORE_COMPARE_COMPARE_HPP_
