// statistics.cpp: order statistics, least squares on logs and rank sums; no timing here.
#include "core/bench/statistics.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace awb::core {
namespace {

// log C(n, i) - n log 2: the log of Binomial(n, 1/2)'s probability of i.
double log_half_binomial(int n, int i) {
  return std::lgamma(n + 1.0) - std::lgamma(i + 1.0) - std::lgamma(n - i + 1.0) - n * std::log(2.0);
}

double sorted_median(const std::vector<double>& v) {
  const size_t n = v.size();
  if (n == 0) return 0;
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

}  // namespace

double median(std::vector<double> samples) {
  std::sort(samples.begin(), samples.end());
  return sorted_median(samples);
}

double MedianInterval::relative_half_width() const {
  if (median <= 0) return 0;
  return std::max(median - low, high - median) / median;
}

MedianInterval median_interval(std::vector<double> samples, double level) {
  std::sort(samples.begin(), samples.end());
  MedianInterval out;
  out.n = static_cast<int>(samples.size());
  if (samples.empty()) return out;
  out.median = sorted_median(samples);
  const int n = out.n;
  // tail = P(B <= k-1); the interval [x_(k), x_(n+1-k)] covers with 1 - 2 tail. Grow k while
  // the next one still covers `level`.
  int k = 1;
  double tail = std::exp(log_half_binomial(n, 0));  // P(B <= 0)
  while (k < (n + 1) / 2) {
    const double next = tail + std::exp(log_half_binomial(n, k));  // P(B <= k)
    if (1 - 2 * next < level) break;
    tail = next;
    ++k;
  }
  out.low = samples[static_cast<size_t>(k - 1)];
  out.high = samples[static_cast<size_t>(n - k)];
  out.coverage = n == 1 ? 0 : 1 - 2 * tail;
  return out;
}

std::optional<PowerFit> loglog_fit(const std::vector<double>& x, const std::vector<double>& y) {
  const size_t n = std::min(x.size(), y.size());
  std::vector<double> lx, ly;
  for (size_t i = 0; i < n; ++i)
    if (x[i] > 0 && y[i] > 0) {
      lx.push_back(std::log(x[i]));
      ly.push_back(std::log(y[i]));
    }
  std::vector<double> distinct = lx;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  if (lx.size() < 3 || distinct.size() < 3) return std::nullopt;
  const double m = static_cast<double>(lx.size());
  const double mx = std::accumulate(lx.begin(), lx.end(), 0.0) / m;
  const double my = std::accumulate(ly.begin(), ly.end(), 0.0) / m;
  double sxy = 0, sxx = 0, syy = 0;
  for (size_t i = 0; i < lx.size(); ++i) {
    sxy += (lx[i] - mx) * (ly[i] - my);
    sxx += (lx[i] - mx) * (lx[i] - mx);
    syy += (ly[i] - my) * (ly[i] - my);
  }
  PowerFit f;
  f.points = static_cast<int>(lx.size());
  f.slope = sxy / sxx;
  // R^2 = 1 - SS_res / SS_tot; for a line fitted by least squares SS_res = syy - slope * sxy.
  // A flat line fits flat data exactly.
  f.r_squared = syy > 0 ? std::clamp(f.slope * sxy / syy, 0.0, 1.0) : 1.0;
  return f;
}

RankTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b) {
  RankTest r;
  const size_t na = a.size(), nb = b.size(), n = na + nb;
  if (na == 0 || nb == 0) return r;
  // Midranks over the pooled sample, and the tie term sum (t^3 - t).
  std::vector<std::pair<double, bool>> pooled;  // value, from a
  for (double v : a) pooled.emplace_back(v, true);
  for (double v : b) pooled.emplace_back(v, false);
  std::sort(pooled.begin(), pooled.end(),
            [](const auto& l, const auto& r) { return l.first < r.first; });
  double rank_sum_a = 0, ties = 0;
  for (size_t i = 0; i < n;) {
    size_t j = i;
    while (j < n && pooled[j].first == pooled[i].first) ++j;
    const double t = static_cast<double>(j - i);
    const double midrank = (static_cast<double>(i + 1) + static_cast<double>(j)) / 2;
    for (size_t k = i; k < j; ++k)
      if (pooled[k].second) rank_sum_a += midrank;
    ties += t * t * t - t;
    i = j;
  }
  const double da = static_cast<double>(na), db = static_cast<double>(nb);
  const double dn = static_cast<double>(n);
  r.u = rank_sum_a - da * (da + 1) / 2;
  const double mu = da * db / 2;
  const double variance = da * db / 12 * ((dn + 1) - ties / (dn * (dn - 1)));
  if (variance <= 0) return r;  // every value tied: nothing tells the samples apart
  const double distance = std::max(0.0, std::abs(r.u - mu) - 0.5);
  r.z = (r.u >= mu ? 1 : -1) * distance / std::sqrt(variance);
  r.p = std::erfc(std::abs(r.z) / std::sqrt(2.0));
  return r;
}

std::string ChangeVerdict::text() const {
  char p_text[32], buf[128];
  if (p < 0.001)
    std::snprintf(p_text, sizeof p_text, "p < 0.001");
  else
    std::snprintf(p_text, sizeof p_text, "p = %.3f", p);
  const char* word = kind == Kind::kSlower   ? "slower"
                     : kind == Kind::kFaster ? "faster"
                                             : "no significant change";
  std::snprintf(buf, sizeof buf, "%s (%+.1f %%, %s)", word, 100 * change, p_text);
  return buf;
}

ChangeVerdict compare_times(const std::vector<double>& baseline, const std::vector<double>& current,
                            const ChangeRule& rule) {
  ChangeVerdict v;
  v.baseline_median = median(baseline);
  v.current_median = median(current);
  v.change = v.baseline_median > 0 ? v.current_median / v.baseline_median - 1 : 0;
  v.p = mann_whitney_u(current, baseline).p;
  if (v.p < rule.alpha && std::abs(v.change) >= rule.min_effect)
    v.kind = v.change > 0 ? ChangeVerdict::Kind::kSlower : ChangeVerdict::Kind::kFaster;
  return v;
}

}  // namespace awb::core
