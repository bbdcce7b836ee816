// statistics.hpp: the statistics of `awb bench`: medians and their confidence intervals, power-law
// fits on log-log axes, and the Mann-Whitney U test behind a baseline comparison's verdict.
#ifndef AWB_CORE_BENCH_STATISTICS_HPP_
#define AWB_CORE_BENCH_STATISTICS_HPP_

#include <chrono>
#include <optional>
#include <string>
#include <vector>

namespace awb::core {

// Seconds of the steady clock since `t0`.
inline double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The sample median (the mean of the middle two for an even count); 0 for no samples.
double median(std::vector<double> samples);

// A distribution-free confidence interval of the median: [x_(k), x_(n+1-k)] of the sorted samples,
// k the largest for which the interval's coverage 1 - 2 P(B <= k-1), B ~ Binomial(n, 1/2), is
// still at least `level` (the order-statistic or binomial interval, as in Conover, Practical
// Nonparametric Statistics, the sign test's confidence interval for the median). Below 6 samples no
// pair reaches 95 %: the interval is then [min, max] and `coverage` says how much it covers.
struct MedianInterval {
  double median = 0, low = 0, high = 0;
  double coverage = 0;  // the exact probability that the interval holds the true median
  int n = 0;
  // The larger distance from the median to an end, as a fraction of the median.
  double relative_half_width() const;
};
MedianInterval median_interval(std::vector<double> samples, double level = 0.95);

// Least-squares line through (log x, log y): y ~ x^slope. Nothing unless there are at least
// three points at three distinct x (two points always fit exactly and say nothing of the fit).
struct PowerFit {
  double slope = 0, r_squared = 0;
  int points = 0;
};
std::optional<PowerFit> loglog_fit(const std::vector<double>& x, const std::vector<double>& y);

// Two-sided Mann-Whitney U test of `a` against `b`, normal approximation with midranks for ties,
// the tie-corrected variance and a continuity correction of 1/2:
//   U_a = R_a - n_a (n_a + 1) / 2,  mu = n_a n_b / 2,
//   sigma^2 = n_a n_b / 12 * ((n + 1) - sum_ties (t^3 - t) / (n (n - 1))),
//   z = (|U_a - mu| - 1/2) / sigma,  p = 2 (1 - Phi(z)) = erfc(z / sqrt 2)
// (Mann & Whitney 1947; the formulas as the Wikipedia article "Mann-Whitney U test" gives them
// under "Normal approximation and tie correction"; the same as SciPy's mannwhitneyu with
// method="asymptotic", use_continuity=True). p is 1 when every value is tied or a sample is
// empty.
struct RankTest {
  double u = 0;  // U of `a`: how many (a, b) pairs have a > b, ties counting 1/2
  double z = 0;
  double p = 1;
};
RankTest mann_whitney_u(const std::vector<double>& a, const std::vector<double>& b);

// The verdict on a point's times against its baseline: a change counts only when it is both
// significant (p < alpha) and at least `min_effect` of the baseline's median, so noise and tiny
// real changes are not flagged.
struct ChangeVerdict {
  enum class Kind { kSlower, kFaster, kSame };
  Kind kind = Kind::kSame;
  double baseline_median = 0, current_median = 0;
  double change = 0;  // current / baseline - 1
  double p = 1;
  std::string text() const;  // "slower (+10.3 %, p < 0.001)", "no significant change (...)"
};
struct ChangeRule {
  double alpha = 0.05;
  double min_effect = 0.02;
};
ChangeVerdict compare_times(const std::vector<double>& baseline, const std::vector<double>& current,
                            const ChangeRule& rule = {});

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_STATISTICS_HPP_
