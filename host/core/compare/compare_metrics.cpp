// compare_metrics.cpp: row divergences, per-head and pooled metrics, and one layer's pairing.
#include "core/compare/compare_metrics.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "graders/checks/measures.hpp"

namespace awb::core {
namespace {

constexpr double kMissing = HeadMetrics::kNone;
constexpr double kInf = std::numeric_limits<double>::infinity();

std::span<const double> row(const Matrix& m, int64_t r) {
  return {m.data.data() + r * m.cols, static_cast<size_t>(m.cols)};
}

std::vector<size_t> top_keys(std::span<const double> p, size_t k) {
  std::vector<size_t> idx(p.size());
  std::iota(idx.begin(), idx.end(), size_t{0});
  std::stable_sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return p[a] > p[b]; });
  idx.resize(k);
  std::sort(idx.begin(), idx.end());
  return idx;
}

std::string heads_word(int n) { return std::to_string(n) + (n == 1 ? " head" : " heads"); }

// "head 1", "heads 1..3".
std::string head_range(int first, int last) {
  return first == last ? "head " + std::to_string(first)
                       : "heads " + std::to_string(first) + ".." + std::to_string(last);
}

}  // namespace

double kl_divergence(std::span<const double> p, std::span<const double> q) {
  if (p.size() != q.size()) return kMissing;
  double kl = 0;
  for (size_t j = 0; j < p.size(); ++j) {
    if (p[j] <= 0) continue;  // 0 · ln(0 / q) = 0
    if (q[j] <= 0) return kInf;
    kl += p[j] * std::log(p[j] / q[j]);
  }
  return kl;
}

double js_divergence(std::span<const double> p, std::span<const double> q) {
  if (p.size() != q.size()) return kMissing;
  // Term by term, so that m is never built: p ln(p / m) with m ≥ p / 2 > 0 wherever p > 0.
  double js = 0;
  for (size_t j = 0; j < p.size(); ++j) {
    const double m = 0.5 * (p[j] + q[j]);
    if (p[j] > 0) js += 0.5 * p[j] * std::log(p[j] / m);
    if (q[j] > 0) js += 0.5 * q[j] * std::log(q[j] / m);
  }
  return std::max(js, 0.0);  // rounding can leave -1e-17 for equal rows
}

double top_k_overlap(std::span<const double> p, std::span<const double> q, int k) {
  if (p.size() != q.size() || p.empty()) return kMissing;
  const size_t kk = std::clamp<size_t>(static_cast<size_t>(std::max(k, 1)), 1, p.size());
  const auto a = top_keys(p, kk);
  const auto b = top_keys(q, kk);
  std::vector<size_t> both;
  std::set_intersection(a.begin(), a.end(), b.begin(), b.end(), std::back_inserter(both));
  return static_cast<double>(both.size()) / static_cast<double>(kk);
}

HeadMetrics head_metrics(const Matrix& a, const Matrix& baseline, int top_k) {
  HeadMetrics m;
  if (a.rows != baseline.rows || a.cols != baseline.cols || a.rows == 0) return m;
  m.rows = a.rows;
  m.max_abs_diff = m.kl_mean = m.kl_max = m.js_mean = m.js_max = m.entropy = m.baseline_entropy =
      m.argmax_agreement = m.top_k_overlap = 0;
  for (size_t i = 0; i < a.data.size(); ++i)
    m.max_abs_diff = std::max(m.max_abs_diff, std::abs(a.data[i] - baseline.data[i]));
  for (int64_t r = 0; r < a.rows; ++r) {
    const auto p = row(baseline, r);
    const auto q = row(a, r);
    const double kl = kl_divergence(p, q);
    const double js = js_divergence(p, q);
    m.kl_mean += kl;
    m.kl_max = std::max(m.kl_max, kl);
    m.js_mean += js;
    m.js_max = std::max(m.js_max, js);
    m.entropy += grade::row_entropy(a, r);
    m.baseline_entropy += grade::row_entropy(baseline, r);
    m.argmax_agreement += grade::row_argmax(a, r) == grade::row_argmax(baseline, r) ? 1 : 0;
    m.top_k_overlap += top_k_overlap(p, q, top_k);
  }
  const double n = static_cast<double>(a.rows);
  for (double* v : {&m.kl_mean, &m.js_mean, &m.entropy, &m.baseline_entropy, &m.argmax_agreement,
                    &m.top_k_overlap})
    *v /= n;
  return m;
}

HeadMetrics pooled_metrics(const std::vector<HeadMetrics>& heads) {
  HeadMetrics out;
  int64_t rows = 0;
  for (const auto& h : heads) rows += h.rows;
  if (rows == 0) return out;
  out.rows = rows;
  double* means[] = {&out.kl_mean,          &out.js_mean,          &out.entropy,
                     &out.baseline_entropy, &out.argmax_agreement, &out.top_k_overlap};
  double* maxima[] = {&out.max_abs_diff, &out.kl_max, &out.js_max};
  for (double* v : means) *v = 0;
  for (double* v : maxima) *v = 0;
  for (const auto& h : heads) {
    if (h.rows == 0) continue;
    const double w = static_cast<double>(h.rows) / static_cast<double>(rows);
    const double head_means[] = {h.kl_mean,          h.js_mean,          h.entropy,
                                 h.baseline_entropy, h.argmax_agreement, h.top_k_overlap};
    const double head_maxima[] = {h.max_abs_diff, h.kl_max, h.js_max};
    for (size_t i = 0; i < std::size(means); ++i) *means[i] += w * head_means[i];
    for (size_t i = 0; i < std::size(maxima); ++i)
      *maxima[i] = std::max(*maxima[i], head_maxima[i]);
  }
  return out;
}

LayerComparison compare_layer(const LayerRun& a, const LayerRun& baseline, std::optional<int> head,
                              int top_k, const std::string& baseline_name) {
  LayerComparison out;
  const auto& wa = a.result.weights;
  const auto& wb = baseline.result.weights;
  out.variant_heads = static_cast<int>(wa.size());
  out.baseline_heads = static_cast<int>(wb.size());
  const int paired = std::min(out.variant_heads, out.baseline_heads);
  if (out.variant_heads != out.baseline_heads) {
    const int most = std::max(out.variant_heads, out.baseline_heads);
    out.pairing_note = "variant has " + heads_word(out.variant_heads) + ", " + baseline_name + " " +
                       std::to_string(out.baseline_heads) + ": " + head_range(paired, most - 1) +
                       " unpaired";
  }
  for (int h = 0; h < paired; ++h) {
    if (head && *head != h) continue;
    HeadMetrics m = head_metrics(wa[static_cast<size_t>(h)], wb[static_cast<size_t>(h)], top_k);
    m.head = h;
    out.heads.push_back(m);
  }
  out.pooled = pooled_metrics(out.heads);
  const Matrix& za = a.result.z;
  const Matrix& zb = baseline.result.z;
  if (za.rows == zb.rows && za.cols == zb.cols) {
    double sq = 0, mx = 0;
    for (size_t i = 0; i < za.data.size(); ++i) {
      const double d = za.data[i] - zb.data[i];
      sq += d * d;
      mx = std::max(mx, std::abs(d));
    }
    out.z_error = std::sqrt(sq);
    out.z_max_abs = mx;
  }
  if (std::isnan(out.z_error)) {
    auto shape = [](const Matrix& m) {
      return std::to_string(m.rows) + "x" + std::to_string(m.cols);
    };
    out.z_shapes = shape(za) + " against " + shape(zb);
  }
  return out;
}

nlohmann::json number_json(double v) {
  if (std::isnan(v)) return nullptr;
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  return v;
}

nlohmann::json head_metrics_json(const HeadMetrics& m) {
  nlohmann::json j{{"rows", m.rows},
                   {"max_abs_diff", number_json(m.max_abs_diff)},
                   {"kl_mean", number_json(m.kl_mean)},
                   {"kl_max", number_json(m.kl_max)},
                   {"js_mean", number_json(m.js_mean)},
                   {"js_max", number_json(m.js_max)},
                   {"entropy", number_json(m.entropy)},
                   {"against_entropy", number_json(m.baseline_entropy)},
                   {"argmax_agreement", number_json(m.argmax_agreement)},
                   {"top_k_overlap", number_json(m.top_k_overlap)}};
  if (m.head >= 0) j["head"] = m.head;
  return j;
}

nlohmann::json layer_comparison_json(const LayerComparison& l) {
  nlohmann::json v{{"variant_heads", l.variant_heads}, {"against_heads", l.baseline_heads}};
  if (!l.pairing_note.empty()) v["pairing"] = l.pairing_note;
  v["heads"] = nlohmann::json::array();
  for (const auto& h : l.heads) v["heads"].push_back(head_metrics_json(h));
  v["pooled"] = head_metrics_json(l.pooled);
  v["z_error"] = number_json(l.z_error);
  v["z_max_abs"] = number_json(l.z_max_abs);
  if (!l.z_shapes.empty()) v["z_shapes"] = l.z_shapes;
  return v;
}

}  // namespace awb::core
