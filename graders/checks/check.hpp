// check.hpp: a check as an exercise declares it, what grading it produces, and the registry of
// check definitions (reference, each property, each expect predicate).
#ifndef AWB_GRADERS_CHECKS_CHECK_HPP_
#define AWB_GRADERS_CHECKS_CHECK_HPP_

#include <array>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graders/model/names.hpp"
#include "graders/model/run.hpp"
#include "graders/tolerance/tolerance.hpp"

namespace awb::grade {

// The names below are the exercise format's (exercises/FORMAT.md) and the reports' and journal's:
// one table each, read and written through names.hpp.
enum class CheckKind { kReference, kProperty, kExpect, kGradient };
inline constexpr std::array<EnumName<CheckKind>, 4> kCheckKindNames{{
    {CheckKind::kReference, "reference"},
    {CheckKind::kProperty, "property"},
    {CheckKind::kExpect, "expect"},
    {CheckKind::kGradient, "gradient"},
}};
static_assert(names_every_value(kCheckKindNames));
constexpr const auto& enum_names(CheckKind) { return kCheckKindNames; }
constexpr const char* to_string(CheckKind k) { return name_in(kCheckKindNames, k); }

// Gradescope's names too ("visible", "hidden", "after_due_date"), by design.
enum class Visibility { kVisible, kHidden, kAfterDueDate };
inline constexpr std::array<EnumName<Visibility>, 3> kVisibilityNames{{
    {Visibility::kVisible, "visible"},
    {Visibility::kHidden, "hidden"},
    {Visibility::kAfterDueDate, "after_due_date"},
}};
static_assert(names_every_value(kVisibilityNames));
constexpr const auto& enum_names(Visibility) { return kVisibilityNames; }
constexpr const char* to_string(Visibility v) { return name_in(kVisibilityNames, v); }

enum class Status { kPassed, kFailed, kError, kTimeout, kNotRun };
inline constexpr std::array<EnumName<Status>, 5> kStatusNames{{
    {Status::kPassed, "passed"},
    {Status::kFailed, "failed"},
    {Status::kError, "error"},
    {Status::kTimeout, "timeout"},
    {Status::kNotRun, "not-run"},
}};
static_assert(names_every_value(kStatusNames));
constexpr const auto& enum_names(Status) { return kStatusNames; }
constexpr const char* to_string(Status s) { return name_in(kStatusNames, s); }

enum class Output { kWeights, kScores, kContext };
inline constexpr std::array<EnumName<Output>, 3> kOutputNames{{
    {Output::kWeights, "weights"},
    {Output::kScores, "scores"},
    {Output::kContext, "context"},
}};
static_assert(names_every_value(kOutputNames));
constexpr const auto& enum_names(Output) { return kOutputNames; }
constexpr const char* to_string(Output o) { return name_in(kOutputNames, o); }

enum class Direction { kIncreasing, kDecreasing };
inline constexpr std::array<EnumName<Direction>, 2> kDirectionNames{{
    {Direction::kIncreasing, "increasing"},
    {Direction::kDecreasing, "decreasing"},
}};
static_assert(names_every_value(kDirectionNames));
constexpr const auto& enum_names(Direction) { return kDirectionNames; }
constexpr const char* to_string(Direction d) { return name_in(kDirectionNames, d); }

// Parameters a check overrides for itself; unset fields keep the exercise's.
struct ParameterOverrides {
  std::optional<double> sharpness;
  std::optional<int> heads;
  std::optional<bool> causal;
  std::optional<ScaleMode> scale;
  std::optional<int> kv_heads;
  bool empty() const { return !sharpness && !heads && !causal && !scale && !kv_heads; }
  void apply(Parameters& p) const;
};

struct Sweep {
  std::string parameter;  // "sharpness" (the only sweepable parameter in version 1)
  std::vector<double> values;
};

struct Measure {
  std::string metric;  // entropy | max_weight | weight
  int query = -1;
  int key = -1;
};

// Everything a check in an exercise file can say. Token names are resolved to row indices by
// the loader; which fields matter depends on the kind and the property or predicate.
struct CheckSpec {
  std::string id;
  CheckKind kind = CheckKind::kProperty;
  std::string name;  // "reference", the property, or the predicate
  double points = 1;
  std::string hint;
  Visibility visibility = Visibility::kVisible;
  std::string case_id;  // resolved: never empty after loading
  int case_index = 0;
  int layer = -1;  // -1: the last layer
  ParameterOverrides parameters;
  std::optional<Scalar> scalar;  // unset: the grading's scalar type

  // reference (outputs, rows, tolerance); gradient (tolerance)
  std::vector<Output> outputs{Output::kWeights, Output::kScores, Output::kContext};
  std::vector<int> rows;  // empty: all rows
  // reference and gradient: {atol, rtol}; an expect predicate's `tolerance: x` is {x, 0} and it
  // reads atol only (KeyType::kAbsTolerance).
  F64Tolerance tolerance;

  // expect
  int head = 0;
  int query = -1, key = -1, than = -1, to = -1;
  int k = 1;
  double value = 0;
  double margin = 0;
  bool all_rows = false;
  std::vector<double> vector_value;
  Sweep sweep;
  Measure measure;
  Direction direction = Direction::kDecreasing;
};

// The verdict on one check.
struct CheckResult {
  std::string id;
  std::string name;
  CheckKind kind = CheckKind::kProperty;
  Status status = Status::kNotRun;
  double points = 0;      // earned
  double max_points = 0;  // possible
  std::string summary;    // one line: what was checked and the outcome
  std::string details;    // largest differences, a text map, ... (may be empty)
  std::string diagnosis;  // what the outputs suggest went wrong (may be empty)
  std::string hint;       // the exercise's hint, shown on failure
  Visibility visibility = Visibility::kVisible;
};

// What a check reads and runs. Runs of the base input are shared between the checks of one
// exercise case through `cache`.
class CheckContext {
 public:
  CheckContext(Subject& subject, Subject& reference, RunInput base, Scalar scalar, int strictness)
      : subject_(subject),
        reference_(reference),
        base_(std::move(base)),
        scalar_(scalar),
        strictness_(strictness) {}

  const RunInput& base() const { return base_; }
  std::optional<std::string> subject_cannot_run() const {
    return subject_.cannot_run(base_, scalar_);
  }
  Scalar scalar() const { return scalar_; }
  // This context's input graded in `scalar` (itself when it already is): the sibling shares the
  // subject, the reference and the strictness, and memoises its own runs.
  CheckContext& in_scalar(Scalar scalar);
  int strictness() const { return strictness_; }
  const RunOutput& subject_run();                 // memoised
  const RunOutput& reference_run(Scalar scalar);  // memoised per scalar
  RunOutput run_subject(const RunInput& input) { return subject_.run(input, scalar_); }
  RunOutput run_subject_context_only(const RunInput& input) {
    return subject_.run_context_only(input, scalar_);
  }
  RunOutput run_reference(const RunInput& input) { return reference_.run(input, Scalar::kF64); }
  std::optional<std::string> subject_cannot_backward() const { return subject_.cannot_backward(); }
  LayerGradients subject_backward(const ProblemSpec& problem, const BackwardSeed& upstream) {
    return subject_.backward(problem, upstream, scalar_);
  }

 private:
  Subject& subject_;
  Subject& reference_;
  RunInput base_;
  Scalar scalar_;
  int strictness_;
  std::optional<RunOutput> subject_run_;
  std::map<Scalar, RunOutput> reference_runs_;
  std::map<Scalar, std::unique_ptr<CheckContext>> siblings_;
};

// The judgement a definition returns; evaluate() adds ids, points and the hint.
struct Judgement {
  bool passed = false;
  double partial = 0.0;  // share of the points earned when not passed (partial credit), in [0, 1]
  std::string summary;
  std::string details;
  std::string diagnosis;
};

// How a check's own key is written in an exercise file; the loader reads it by this type.
enum class KeyType {
  kToken,         // a token of the check's case, by its text or its index
  kTokenList,     // a non-empty list of tokens
  kCount,         // an integer from 1 to the case's token count
  kHead,          // a head index below the check's head count
  kNumber,        // a finite number
  kVector,        // a list of finite numbers
  kBoolean,       // true | false
  kDirection,     // increasing | decreasing
  kOutputs,       // a list of weights | scores | context
  kAbsTolerance,  // a number >= 0: the largest absolute difference allowed
  kTolerance,     // {atol, rtol}, each >= 0
  kSweep,         // {parameter, values}
  kMeasure,       // {metric, query, key}
};
const char* to_string(KeyType t);

// One key a check takes besides the common ones.
struct CheckKey {
  std::string name;
  KeyType type;
  bool required = false;
};

// One check definition: a name, the keys it takes, what it asks of the exercise and the subject,
// and the code that judges it. The loader and grading read this contract, never the name.
struct CheckDef {
  CheckKind kind = CheckKind::kProperty;
  std::string name = {};
  // What it holds, one line of Markdown: FORMAT.md's property and predicate tables are generated
  // from it.
  std::string description = {};
  // Besides the common ones; the required ones are reported missing in this order.
  std::vector<CheckKey> keys = {};
  int strictness = 1;  // run only when the grading strictness is at least this
  // Runs the subject's backward pass: not-run for a subject without one, and an assignment that
  // requires the check requires a trainable plugin.
  bool needs_backward = false;
  bool needs_causal = false;    // holds only under the causal mask: an exercise error without it
  bool forbids_causal = false;  // does not hold under the causal mask: an exercise error with it
  bool needs_query_or_all_rows = false;  // judges one row (query) or every row (all_rows: true)
  // What it reads of the subject's run on the check's input (measures.hpp's Reads flags): a NaN
  // or Inf there, or a degenerate layer, fails the check before judge() runs. 0: judge() sees
  // to it (reference and gradient checks compare every entry; a sweep reads other runs).
  unsigned reads = 0;
  std::function<Judgement(const CheckSpec&, CheckContext&)> judge = {};

  // The declared key of that name, or nullptr.
  const CheckKey* key(const std::string& key_name) const;
};

// All definitions, by kind and name. Each check family adds itself from its own source file.
class Registry {
 public:
  static const Registry& instance();
  const CheckDef* find(CheckKind kind, const std::string& name) const;
  std::vector<std::string> names(CheckKind kind) const;
  void add(CheckDef def);

 private:
  std::vector<CheckDef> defs_;
};

void register_reference_checks(Registry& r);
void register_property_checks(Registry& r);
void register_expect_checks(Registry& r);
void register_gradient_checks(Registry& r);

// Runs one check against `ctx`: not-run when the strictness is too low or the subject lacks a
// capability; error when the subject faults; else the definition's judgement.
CheckResult evaluate(const CheckSpec& spec, CheckContext& ctx);

}  // namespace awb::grade

#endif  // AWB_GRADERS_CHECKS_CHECK_HPP_
