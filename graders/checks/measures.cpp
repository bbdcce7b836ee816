// measures.cpp: entropy, argmax, rank, cosine and safe access to a run's tensors.
#include "checks/measures.hpp"

#include <cmath>
#include <cstdio>

#include "model/error.hpp"

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
  int64_t larger = 0;
  for (int64_t c = 0; c < a.cols; ++c)
    if (a(row, c) > a(row, col)) ++larger;
  return larger;
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
