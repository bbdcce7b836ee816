// diagnosis.cpp: each rule reads only outputs, so it works for any plugin, whatever its name.
#include "graders/checks/diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "graders/checks/measures.hpp"
#include "graders/tolerance/tolerance.hpp"

namespace awb::grade {
namespace {

constexpr double kSumTol = 1e-6;

bool close(const Matrix& a, const Matrix& b, double tol) {
  if (a.rows != b.rows || a.cols != b.cols) return false;
  for (size_t i = 0; i < a.data.size(); ++i)
    if (!(std::fabs(a.data[i] - b.data[i]) <= tol + tol * std::fabs(b.data[i]))) return false;
  return true;
}

// Row softmax of `s` times `factor`, with the causal mask when asked.
Matrix softmax_rows(const Matrix& s, double factor, bool causal) {
  Matrix a(s.rows, s.cols);
  for (int64_t t = 0; t < s.rows; ++t) {
    const int64_t visible = causal ? t + 1 : s.cols;
    double mx = -INFINITY, sum = 0;
    for (int64_t j = 0; j < visible; ++j) mx = std::fmax(mx, s(t, j) * factor);
    for (int64_t j = 0; j < visible; ++j) sum += a(t, j) = std::exp(s(t, j) * factor - mx);
    for (int64_t j = 0; j < visible; ++j) a(t, j) /= sum;
  }
  return a;
}

Matrix transposed(const Matrix& m) {
  Matrix t(m.cols, m.rows);
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < m.cols; ++c) t(c, r) = m(r, c);
  return t;
}

Matrix multiply(const Matrix& a, const Matrix& b) {
  Matrix c(a.rows, b.cols);
  for (int64_t i = 0; i < a.rows; ++i)
    for (int64_t k = 0; k < a.cols; ++k)
      for (int64_t j = 0; j < b.cols; ++j) c(i, j) += a(i, k) * b(k, j);
  return c;
}

// The heads' outputs A_h·V_h side by side, in head order or reversed.
Matrix concat_heads(const std::vector<Matrix>& weights, const ProblemSpec& p, bool reversed) {
  const Matrix v = multiply(p.x, *p.w_v);
  const int64_t H = static_cast<int64_t>(weights.size()), dv = p.d_v();
  const int64_t group = H / p.kv_head_count();  // query heads per key/value head
  Matrix out(p.x.rows, H * dv);
  for (int64_t h = 0; h < H; ++h) {
    const Matrix o = multiply(weights[size_t(h)], v.column_block(h / group * dv, dv));
    const int64_t slot = reversed ? H - 1 - h : h;
    for (int64_t t = 0; t < o.rows; ++t)
      for (int64_t c = 0; c < dv; ++c) out(t, slot * dv + c) = o(t, c);
  }
  return out;
}

// Query head h's weights when it reads key/value head `kv` (grouped-query attention).
Matrix head_weights(const ProblemSpec& p, int64_t h, int64_t kv) {
  const int64_t dk = p.d_k();
  const Matrix q = multiply(p.x, p.w_q->column_block(h * dk, dk));
  const Matrix k = multiply(p.x, p.w_k->column_block(kv * dk, dk));
  const double scale =
      p.resolved_scale() == ScaleMode::kInvSqrtDk ? 1 / std::sqrt(static_cast<double>(dk)) : 1.0;
  return softmax_rows(multiply(q, transposed(k)), scale * p.sharpness, p.causal);
}

// `m` cut or zero-padded to `cols` columns: how a Z without W_o lands in a d_out-wide buffer.
Matrix fit_width(const Matrix& m, int64_t cols) {
  Matrix out(m.rows, cols);
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < cols && c < m.cols; ++c) out(r, c) = m(r, c);
  return out;
}

// With the right weights but the wrong Z: which assembly of the heads did the plugin do?
std::string diagnose_assembly(const ForwardResult& got, const ProblemSpec& p) {
  if (p.has_projections() && p.heads > 1) {
    if (p.w_o && close(got.z, fit_width(concat_heads(got.weights, p, false), got.z.cols), 1e-6))
      return "The weights are right and Z equals the concatenated heads: W_o was never applied. "
             "Multiply the concatenation by W_o.";
    Matrix reversed = concat_heads(got.weights, p, true);
    if (p.w_o) reversed = multiply(reversed, *p.w_o);
    if (close(got.z, reversed, 1e-6))
      return "The weights are right but the heads were concatenated in the wrong order: head 0's "
             "output belongs in the first d_v columns, before head 1's.";
    return "The weights are right but the context vectors are not: check that the heads are "
           "concatenated in head order and multiplied by W_o.";
  }
  return "The weights are right but the context vectors are not: Z must be the weights times "
         "the values (A·V), computed from the normalised weights, not the raw scores.";
}

// exp() of a score above this overflows a float (a double only above about 709): a larger
// score is the evidence an overflow diagnosis needs.
constexpr double kExpOverflowF32 = 88.0;

// Why row `t` of the weights is not finite, read from the same row of the plugin's own scores
// (`s`, when it returned them): each cause is named only when its evidence is there.
std::string diagnose_non_finite_row(const std::string& where, const Matrix* s, int64_t t) {
  const std::string head = "The weights contain " + where;
  if (!s || t >= s->rows) return head + ".";
  double largest = -INFINITY, sum = 0, magnitude = 0;
  for (int64_t j = 0; j < s->cols; ++j) {
    const double v = (*s)(t, j);
    if (!std::isfinite(v))
      return head + " and the scores contain " + first_non_finite(*s) +
             ": the NaN or Inf comes before the softmax (from Q·Kᵀ, or an entry never written).";
    largest = std::fmax(largest, v);
    sum += v;
    magnitude += std::fabs(v);
  }
  if (largest > kExpOverflowF32)
    return head + ": exp() of a large score (" + format_value(largest) +
           ") overflows. Subtract each row's maximum score before exponentiating; the softmax is "
           "unchanged by that shift.";
  if (std::fabs(sum) <= 1e-12 * magnitude)
    return head +
           " in a row whose scores sum to 0: the scores were divided by their row sum "
           "(0 here) instead of passed through exp() and normalised.";
  return head +
         " although every score of that row is small enough for exp(): a normalising sum "
         "of 0, or an entry never written.";
}

// A masked_fill constant that no score of a correct S comes near at every masked entry.
constexpr double kMaskFill = -1e4;

// S written after the mask: under the causal mask, every masked score (key after the query)
// holds −Inf, or one large negative constant, while every visible score is finite. The
// contract's S is the softmax input before the mask (masked positions keep their score).
std::string diagnose_scores_after_mask(const std::vector<Matrix>& scores, const ProblemSpec& p) {
  if (!p.causal) return "";
  for (size_t h = 0; h < scores.size(); ++h) {
    const Matrix& s = scores[h];
    if (s.rows < 2 || s.cols != s.rows) continue;
    const double fill = s(0, 1);
    if (!(fill <= kMaskFill)) continue;  // -Inf or a masked_fill constant; not NaN
    bool pattern = true;
    for (int64_t t = 0; t < s.rows && pattern; ++t)
      for (int64_t j = 0; j < s.cols && pattern; ++j)
        pattern = j > t ? s(t, j) == fill : std::isfinite(s(t, j));
    if (pattern)
      return "S holds " + format_value(fill) + " at every masked entry" +
             (scores.size() > 1 ? " of head " + std::to_string(h) : "") +
             " (each key after its query): the scores were written after the mask. S is the "
             "softmax input before the mask: masked positions keep their score Q·Kᵀ times the "
             "factor. Mask only what goes into the softmax, not the S you hand back.";
  }
  return "";
}

std::string diagnose_weights(const Matrix& a, const ProblemSpec& p) {
  const int64_t T = a.rows;
  bool negative = false, future = false, zero_diagonal = true, rows_one = true, cols_one = true;
  bool rows_short = false, beyond_next = false;
  for (int64_t t = 0; t < T; ++t) {
    double row = 0, col = 0;
    for (int64_t j = 0; j < T; ++j) {
      row += a(t, j);
      col += a(j, t);
      if (a(t, j) < 0) negative = true;
      if (j > t && a(t, j) != 0) future = true;
      if (j > t + 1 && a(t, j) != 0) beyond_next = true;
    }
    if (a(t, t) != 0) zero_diagonal = false;
    if (std::fabs(row - 1) > kSumTol) rows_one = false;
    if (row < 1 - kSumTol) rows_short = true;
    if (std::fabs(col - 1) > kSumTol) cols_one = false;
  }
  if (negative)
    return "Some attention weights are negative. A softmax never gives a negative weight; this "
           "looks like the scores were divided by their row sum instead of passed through exp() "
           "and normalised.";
  if (!rows_one && cols_one && T > 1)
    return "The columns of A sum to 1 but the rows do not: the softmax was taken over the wrong "
           "axis. Each query's row (over the keys) must sum to 1.";
  // Weight on the next token only, never further (and T >= 3, so "further" exists): the mask's
  // comparison is off by one, not missing.
  if (p.causal && future && !beyond_next && T > 2)
    return "Each query also sees the token right after it, and nothing later: the causal mask "
           "is off by one (it hides t2 > t + 1; it must hide t2 > t).";
  if (p.causal && future)
    return "Queries put weight on later tokens although the causal mask is on: the mask is "
           "missing (query t may only see keys t2 <= t).";
  if (p.causal && zero_diagonal && T > 1)
    return "Every token gives itself zero weight: the causal mask also hides the diagonal. "
           "Mask keys t2 > t, not t2 >= t; a token may always see itself.";
  if (p.causal && rows_short && !future)
    return "Masked weights are zero but the rows sum to less than 1: the mask was applied after "
           "the softmax without renormalising. Mask the scores (to -inf) before the softmax.";
  if (!rows_one) return "The rows of A do not sum to 1, so they are not softmax distributions.";
  return "";
}

}  // namespace

std::string diagnose(const LayerRun& got, const LayerRun* expected, const ProblemSpec& problem) {
  const auto& r = got.result;
  // S written after the mask explains an S full of −Inf however right A and Z are.
  if (std::string d = diagnose_scores_after_mask(r.scores, problem); !d.empty()) return d;
  // Causes before symptoms: negative weights explain the NaN or Inf they lead to (a row sum of
  // zero), so they are looked for first.
  for (const Matrix& a : r.weights)
    if (std::any_of(a.data.begin(), a.data.end(), [](double v) { return v < 0; }))
      return diagnose_weights(a, problem);
  for (size_t h = 0; h < r.weights.size(); ++h) {
    const Matrix& a = r.weights[h];
    for (int64_t t = 0; t < a.rows; ++t)
      for (int64_t c = 0; c < a.cols; ++c)
        if (!std::isfinite(a(t, c)))
          return diagnose_non_finite_row(std::string(std::isnan(a(t, c)) ? "NaN" : "Inf") +
                                             " at (" + std::to_string(t) + ", " +
                                             std::to_string(c) + ")",
                                         h < r.scores.size() ? &r.scores[h] : nullptr, t);
  }
  if (!first_non_finite(r.z).empty())
    return "The context vectors contain " + first_non_finite(r.z) +
           (r.weights.empty() ? "."
                              : " although the weights are finite: Z = A·V, so a value "
                                "or an entry of Z was never written, or V overflowed.");
  if (is_degenerate(got))
    return "Z is " + format_value(r.z.data.front()) +
           " in every entry although the input rows differ: the output does not depend on the "
           "input. Compute Z = A·V from this call's X, and write every entry.";
  for (const Matrix& a : r.weights) {
    std::string d = diagnose_weights(a, problem);
    if (!d.empty()) return d;
  }
  if (!expected) return "";
  const auto& e = expected->result;
  const double dk = static_cast<double>(problem.d_k());
  for (size_t h = 0; h < r.weights.size() && h < e.scores.size(); ++h) {
    const Matrix& a = r.weights[h];
    const Matrix& ref_a = e.weights[h];
    if (close(a, ref_a, 1e-6)) continue;
    if (problem.resolved_scale() == ScaleMode::kInvSqrtDk &&
        close(a, softmax_rows(e.scores[h], std::sqrt(dk), problem.causal), 1e-6))
      return "The weights match a softmax of scores that were not divided by sqrt(d_k). Scale "
             "Q·Kᵀ by 1/sqrt(d_k) before the softmax, or wide heads saturate it.";
    const double dm = static_cast<double>(problem.d_model());
    if (problem.resolved_scale() == ScaleMode::kInvSqrtDk && dm != dk &&
        close(a, softmax_rows(e.scores[h], std::sqrt(dk / dm), problem.causal), 1e-6))
      return "The weights match a softmax of scores divided by sqrt(d_model) = sqrt(" +
             format_value(dm) + ") instead of sqrt(d_k) = sqrt(" + format_value(dk) +
             "): d_k is the width of one head's query (W_q's columns / heads), not the width "
             "of the embeddings.";
    if (close(a, softmax_rows(transposed(e.scores[h]), 1.0, problem.causal), 1e-6))
      return "The weights match the softmax of the transposed scores: queries and keys are "
             "swapped (S = K·Qᵀ instead of Q·Kᵀ), so each row answers the wrong question.";
    // Grouped-query attention: the query heads of a group are consecutive, not dealt round.
    const auto hh = static_cast<int64_t>(h), g = static_cast<int64_t>(problem.kv_head_count());
    if (problem.grouped() && problem.has_projections() && hh % g != hh / (problem.heads / g) &&
        close(a, head_weights(problem, hh, hh % g), 1e-6))
      return "Query head " + std::to_string(h) + " attends with key/value head " +
             std::to_string(hh % g) + " (h mod kv_heads) where it belongs to head " +
             std::to_string(hh / (problem.heads / g)) + ": the " +
             std::to_string(problem.heads / g) +
             " query heads of a group are consecutive, so query head h reads key/value head "
             "h / (heads / kv_heads).";
  }
  bool weights_right = !r.weights.empty() && r.weights.size() == e.weights.size();
  for (size_t h = 0; weights_right && h < r.weights.size(); ++h)
    weights_right = close(r.weights[h], e.weights[h], 1e-6);
  if (weights_right && !close(r.z, e.z, 1e-6)) return diagnose_assembly(r, problem);
  return "";
}

}  // namespace awb::grade
