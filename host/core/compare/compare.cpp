// compare.cpp: demonstration fitting, attention statistics, and the comparison runs.
#include "core/compare/compare.hpp"

#include <algorithm>
#include <cmath>
#include <exception>
#include <limits>

#include "core/base/sha256.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/reference_forward.hpp"
#include "core/plugins/subjects.hpp"
#include "graders/checks/measures.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The number of heads both sides have, or 0 when a paired head differs in shape.
size_t paired_heads(const std::vector<Matrix>& a, const std::vector<Matrix>& b) {
  const size_t n = std::min(a.size(), b.size());
  for (size_t h = 0; h < n; ++h)
    if (a[h].rows != b[h].rows || a[h].cols != b[h].cols) return 0;
  return n;
}

double max_abs(const Matrix& a, const Matrix& b) {
  if (a.rows != b.rows || a.cols != b.cols) return kNaN;
  double m = 0;
  for (size_t i = 0; i < a.data.size(); ++i) m = std::max(m, std::abs(a.data[i] - b.data[i]));
  return m;
}

// Largest difference over every layer's Z and A; NaN when the runs differ in shape.
// `z_only`: the variant was asked for Z alone (its streaming path): only Z is compared.
double run_error(const RunOutput& got, const RunOutput& expected, bool z_only) {
  if (got.layers.size() != expected.layers.size()) return kNaN;
  double m = 0;
  for (size_t l = 0; l < got.layers.size(); ++l) {
    const ForwardResult& g = got.layers[l].result;
    const ForwardResult& e = expected.layers[l].result;
    m = std::max(m, max_abs(g.z, e.z));
    if (z_only) continue;
    if (g.weights.size() != e.weights.size()) return kNaN;
    m = std::max(m, max_abs_difference(g.weights, e.weights));
    if (std::isnan(m)) return kNaN;
  }
  return m;
}

constexpr uint64_t kFullReference = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD |
                                    AWB_CAP_OUTPUT_PROJ | AWB_CAP_CAUSAL;

}  // namespace

RunInput demonstration_input(const RunInput& input, uint64_t capabilities, Scalar scalar,
                             std::vector<std::string>* notes) {
  RunInput out = input;
  for (size_t l = 0; l < input.layers.size(); ++l) {
    const Adapted fitted =
        adapt(input.layer_problem(l, input.x), capabilities, scalar, Fit::kDemonstrate);
    if (!fitted.problem) throw Error("run.cannot_run", fitted.reason);
    const ProblemSpec& p = *fitted.problem;
    LayerWeights& w = out.layers[l];
    w.w_q = p.w_q;
    w.w_k = p.w_k;
    w.w_v = p.w_v;
    w.w_o = p.w_o;
    if (p.has_projections()) {
      out.params.heads = p.heads;
      out.params.kv_heads = p.kv_heads;
    }
    out.params.causal = p.causal;
    if (notes)
      for (const auto& n : fitted.notes)
        if (std::find(notes->begin(), notes->end(), n) == notes->end()) notes->push_back(n);
  }
  return out;
}

double max_abs_difference(const std::vector<Matrix>& a, const std::vector<Matrix>& b) {
  const size_t n = paired_heads(a, b);
  if (n == 0) return kNaN;
  double m = 0;
  for (size_t h = 0; h < n; ++h) m = std::max(m, max_abs(a[h], b[h]));
  return m;
}

double mean_row_entropy(const std::vector<Matrix>& weights) {
  double total = 0;
  int64_t rows = 0;
  for (const Matrix& a : weights)
    for (int64_t r = 0; r < a.rows; ++r, ++rows) total += grade::row_entropy(a, r);
  return rows == 0 ? kNaN : total / static_cast<double>(rows);
}

double argmax_agreement(const std::vector<Matrix>& a, const std::vector<Matrix>& b) {
  const size_t n = paired_heads(a, b);
  if (n == 0) return kNaN;
  int64_t rows = 0, same = 0;
  for (size_t h = 0; h < n; ++h)
    for (int64_t r = 0; r < a[h].rows; ++r, ++rows)
      same += grade::row_argmax(a[h], r) == grade::row_argmax(b[h], r);
  return rows == 0 ? kNaN : static_cast<double>(same) / static_cast<double>(rows);
}

KeyBand key_band(const Parameters& fitted, const std::vector<ParamDecl>& declared) {
  KeyBand band;
  if (fitted.causal) band.ahead = 0;
  if (declared_family(declared) != Family::kSlidingWindow) return band;
  // The value the variant ran with: the input's, else the declared default (as the core fills
  // it in). A value it cannot take fails the run itself, which then has no map to mask.
  std::vector<double> values;
  try {
    values = resolve_params(declared, fitted.variant, "the variant", false);
  } catch (const std::exception&) {
    return band;
  }
  for (size_t i = 0; i < declared.size(); ++i)
    if (declared[i].name == "window") {
      const auto w = static_cast<int64_t>(values[i]);
      band.ahead = std::min(band.ahead, w);
      band.behind = std::min(band.behind, w);
    }
  return band;
}

const std::vector<Matrix>& last_weights(const RunOutput& output) {
  static const std::vector<Matrix> kNone;
  return output.layers.empty() ? kNone : output.layers.back().result.weights;
}

namespace {

// Keeps the values `declared` takes (noting the others), fills in the defaults of those not set
// (so the variant and its reference run the same values), and makes the input's family the one
// the variant computes: its own reference is what it is checked against (a sliding-window variant
// against sliding-window attention on any input; a variant that does not take every parameter of
// the input's family against softmax attention).
void fit_params(RunInput& in, const std::vector<ParamDecl>& declared, const ParamValues& values,
                std::vector<std::string>& notes) {
  auto takes = [&](const std::string& name) {
    return std::any_of(declared.begin(), declared.end(),
                       [&](const ParamDecl& d) { return d.name == name; });
  };
  for (auto it = in.params.variant.begin(); it != in.params.variant.end();) {
    if (takes(it->first)) {
      ++it;
      continue;
    }
    notes.push_back("takes no parameter '" + it->first + "': not given to it");
    it = in.params.variant.erase(it);
  }
  for (const auto& [name, value] : values)
    if (takes(name)) in.params.variant[name] = value;
  for (const auto& d : declared) in.params.variant.emplace(d.name, param_text(d, d.default_value));
  const Family own = declared_family(declared);
  if (own == in.params.family) return;
  if (own == Family::kSoftmax) {
    for (const auto& d : reference_params(in.params.family).decls)
      if (!takes(d.name)) {
        notes.push_back(std::string("takes no '") + d.name +
                        "': checked against softmax attention, not " + to_string(in.params.family));
        break;
      }
  } else {
    notes.push_back(std::string("checked against its own reference: ") + to_string(own) +
                    " attention (the input is " + to_string(in.params.family) + ")");
  }
  in.params.family = own;
}

}  // namespace

RunOutput reference_run(const RunInput& input, uint64_t reference_capabilities) {
  ReferenceSubject reference(reference_capabilities ? reference_capabilities : kFullReference);
  return reference.run(input, Scalar::kF64);
}

RunInput contender_input(const RunInput& input, const Contender& contender, Scalar scalar,
                         std::vector<std::string>& notes) {
  RunInput fitted = demonstration_input(input, contender.capabilities, scalar, &notes);
  fit_params(fitted, contender.params, contender.values, notes);
  return fitted;
}

Comparison compare_variants(const RunInput& input, uint64_t reference_capabilities,
                            const std::vector<Contender>& contenders, Scalar scalar, bool z_only) {
  // Its measures are per row of A over every head: a batch's planes are sequences, and its
  // padded rows would count as rows without any weight.
  if (input.params.batch > 1 || !input.params.lengths.empty())
    throw Error("compare.usage",
                "compare reads one sequence: give a problem without batch and lengths (awb run "
                "shows a batch, sequence by sequence)");
  Comparison out;
  out.reference = reference_run(input, reference_capabilities);
  const auto& ref_a = last_weights(out.reference);
  out.reference_entropy = mean_row_entropy(ref_a);
  for (const Contender& c : contenders) {
    CompareEntry e;
    e.label = c.label;
    try {
      const RunInput fitted = contender_input(input, c, scalar, e.notes);
      e.params = fitted.params;
      e.output =
          z_only ? c.subject->run_context_only(fitted, scalar) : c.subject->run(fitted, scalar);
      ReferenceSubject own(c.capabilities | AWB_CAP_F64);
      e.reference = own.run(fitted, Scalar::kF64);
      const auto& a = last_weights(e.output);
      e.metrics.max_abs_error = run_error(e.output, e.reference, z_only);
      e.metrics.max_abs_diff = max_abs_difference(a, ref_a);
      e.metrics.row_entropy = mean_row_entropy(a);
      e.metrics.argmax_agreement = argmax_agreement(a, ref_a);
    } catch (const Error& err) {
      e.error = err.what();
      e.error_id = err.id();
      e.output = {};
    }
    out.entries.push_back(std::move(e));
  }
  return out;
}

std::string input_sha256(const RunInput& input) {
  std::string bytes;
  auto text = [&](const std::string& s) {
    bytes += s;
    bytes += '\0';
  };
  auto number = [&](double v) { bytes.append(reinterpret_cast<const char*>(&v), sizeof v); };
  auto matrix = [&](const std::optional<Matrix>& m) {
    if (!m) return text("-");
    text(std::to_string(m->rows) + "x" + std::to_string(m->cols));
    for (double v : m->data) number(v);
  };
  text("tokens " + std::to_string(input.tokens.size()));
  for (const auto& t : input.tokens) text(t);
  matrix(input.x);
  text("layers " + std::to_string(input.layers.size()));
  for (const auto& l : input.layers) {
    for (const auto* w : {&l.w_q, &l.w_k, &l.w_v, &l.w_o}) matrix(*w);
    text(l.residual ? "residual" : "plain");
  }
  const Parameters& p = input.params;
  number(p.sharpness);
  text(std::to_string(p.heads) + (p.causal ? " causal " : " full ") + to_string(p.scale) + " " +
       to_string(p.family));
  for (const auto& [name, value] : p.variant) text(name + "=" + value);
  return sha256_hex(bytes);
}

}  // namespace awb::core
