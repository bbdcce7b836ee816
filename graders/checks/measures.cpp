// measures.cpp: entropy, argmax, rank, cosine and safe access to a run's tensors.
#include "graders/checks/measures.hpp"

#include <cmath>
#include <cstdio>

#include "graders/model/error.hpp"

namespace awb::grade {

double row_entropy(const Matrix& a, int64_t row) {
  double h = 0;
  for (int64_t c = 0; c < a.cols; ++c) {
    const double p = a(row, c);
    if (p > 0) h -= p * std::log(p);
  }
  return h;
}

int64_t row_argmax(const Matrix& a, int64_t row) {
  int64_t best = 0;
  for (int64_t c = 1; c < a.cols; ++c)
    if (a(row, c) > a(row, best)) best = c;
  return best;
}

int64_t rank_in_row(const Matrix& a, int64_t row, int64_t col) {
  int64_t at_least = 0;
  for (int64_t c = 0; c < a.cols; ++c)
    if (c != col && !(a(row, c) < a(row, col))) ++at_least;  // NaN never ranks above anything
  return at_least;
}

double cosine(const std::vector<double>& u, const std::vector<double>& v) {
  double uv = 0, uu = 0, vv = 0;
  for (size_t i = 0; i < u.size() && i < v.size(); ++i) {
    uv += u[i] * v[i];
    uu += u[i] * u[i];
    vv += v[i] * v[i];
  }
  return uu > 0 && vv > 0 ? uv / std::sqrt(uu * vv) : 0.0;
}

std::vector<double> row_of(const Matrix& m, int64_t row) {
  return std::vector<double>(m.data.begin() + row * m.cols, m.data.begin() + (row + 1) * m.cols);
}

std::string format_value(double v) {
  if (std::isnan(v)) return "NaN";
  if (std::isinf(v)) return v > 0 ? "Inf" : "-Inf";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string token_name(const RunInput& input, int64_t index) {
  if (index >= 0 && index < static_cast<int64_t>(input.tokens.size()))
    return "'" + input.tokens[static_cast<size_t>(index)] + "'";
  return "t" + std::to_string(index);
}

std::string first_non_finite(const Matrix& m) {
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < m.cols; ++c)
      if (!std::isfinite(m(r, c)))
        return std::string(std::isnan(m(r, c)) ? "NaN" : "Inf") + " at (" + std::to_string(r) +
               ", " + std::to_string(c) + ")";
  return "";
}

std::string non_finite_in(const Matrix& m, const std::string& what) {
  const std::string where = first_non_finite(m);
  return where.empty() ? "" : what + " contain " + where;
}

bool is_constant(const Matrix& m) {
  if (m.data.empty()) return false;
  for (double v : m.data)
    if (!(v == m.data.front())) return false;
  return true;
}

bool is_degenerate(const LayerRun& layer) {
  const Matrix& x = layer.input;
  bool rows_differ = false;
  for (int64_t t = 1; t < x.rows && !rows_differ; ++t) rows_differ = row_of(x, t) != row_of(x, 0);
  return rows_differ && is_constant(layer.result.z);
}

std::string unjudgeable(const LayerRun& layer, unsigned reads, int head) {
  const auto& r = layer.result;
  auto heads = [&](const std::vector<Matrix>& ms, const std::string& what) -> std::string {
    for (size_t h = 0; h < ms.size(); ++h) {
      if (head >= 0 && static_cast<size_t>(head) != h) continue;
      const std::string bad =
          non_finite_in(ms[h], ms.size() > 1 ? what + " of head " + std::to_string(h) : what);
      if (!bad.empty()) return bad;
    }
    return "";
  };
  std::string bad;
  if (reads & kReadsWeights) bad = heads(r.weights, "the weights");
  if (bad.empty() && (reads & kReadsScores)) bad = heads(r.scores, "the scores");
  if (bad.empty() && (reads & kReadsContext)) bad = non_finite_in(r.z, "the context vectors");
  if (!bad.empty()) return bad;
  if (is_degenerate(layer))
    return "Z is " + format_value(r.z.data.front()) +
           " in every entry although the input rows differ: a degenerate output";
  return "";
}

const LayerRun& layer_of(const RunOutput& run, int layer) {
  if (run.layers.empty()) throw Error("check.index", "the run has no layers");
  if (layer < 0) return run.layers.back();
  if (layer >= static_cast<int>(run.layers.size()))
    throw Error("check.index", "layer " + std::to_string(layer) + " does not exist");
  return run.layers[static_cast<size_t>(layer)];
}

const Matrix& weights_of(const RunOutput& run, int layer, int head) {
  const auto& w = layer_of(run, layer).result.weights;
  if (head < 0 || head >= static_cast<int>(w.size()))
    throw Error("check.index", "head " + std::to_string(head) + " does not exist");
  return w[static_cast<size_t>(head)];
}

const Matrix& scores_of(const RunOutput& run, int layer, int head) {
  const auto& s = layer_of(run, layer).result.scores;
  if (head < 0 || head >= static_cast<int>(s.size()))
    throw Error("check.index", "head " + std::to_string(head) + " does not exist");
  return s[static_cast<size_t>(head)];
}

}  // namespace awb::grade
