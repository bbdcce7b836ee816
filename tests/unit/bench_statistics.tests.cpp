// bench_statistics.tests.cpp: the statistics of `awb bench` against values worked out by hand:
// the order-statistic interval of the median, log-log fits with R^2, the Mann-Whitney U test
// and the verdict built on it.
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "core/bench/statistics.hpp"

using namespace awb;
using Catch::Matchers::WithinAbs;
using Catch::Matchers::WithinRel;

TEST_CASE("the median of odd and even counts", "[bench][statistics]") {
  CHECK(core::median({3, 1, 2}) == 2);
  CHECK(core::median({4, 1, 3, 2}) == 2.5);
  CHECK(core::median({}) == 0);
}

TEST_CASE("the median's interval is the binomial order-statistic interval", "[bench][statistics]") {
  // n = 10: P(B <= 1) = 11/1024 and P(B <= 2) = 56/1024 for B ~ Binomial(10, 1/2), so the widest
  // k with 1 - 2 P(B <= k-1) >= 95 % is k = 2: [x_(2), x_(9)], coverage 1 - 22/1024.
  std::vector<double> ten{10, 1, 9, 2, 8, 3, 7, 4, 6, 5};
  auto ci = core::median_interval(ten);
  CHECK(ci.n == 10);
  CHECK(ci.median == 5.5);
  CHECK(ci.low == 2);
  CHECK(ci.high == 9);
  CHECK_THAT(ci.coverage, WithinAbs(1 - 22.0 / 1024, 1e-12));
  CHECK_THAT(ci.relative_half_width(), WithinAbs(3.5 / 5.5, 1e-12));

  // n = 20: P(B <= 5) = 21700/2^20 = 0.0207, P(B <= 6) = 0.0577: k = 6, [x_(6), x_(15)].
  std::vector<double> twenty;
  for (int i = 20; i >= 1; --i) twenty.push_back(i);
  ci = core::median_interval(twenty);
  CHECK(ci.low == 6);
  CHECK(ci.high == 15);
  CHECK_THAT(ci.coverage, WithinAbs(1 - 2 * 21700.0 / 1048576, 1e-12));

  // Below six samples no pair of order statistics reaches 95 %: [min, max] and what it covers.
  ci = core::median_interval({5, 1, 3, 2, 4});
  CHECK(ci.low == 1);
  CHECK(ci.high == 5);
  CHECK_THAT(ci.coverage, WithinAbs(1 - 2.0 / 32, 1e-12));
  CHECK(ci.coverage < 0.95);
  CHECK(core::median_interval({}).n == 0);
}

TEST_CASE("the median's interval narrows as samples grow", "[bench][statistics]") {
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(1.0, 0.05);
  std::vector<double> samples;
  for (int i = 0; i < 30; ++i) samples.push_back(noise(rng));
  const double w30 = core::median_interval(samples).relative_half_width();
  for (int i = 0; i < 970; ++i) samples.push_back(noise(rng));
  const auto ci = core::median_interval(samples);
  CHECK(ci.relative_half_width() < w30);
  CHECK(ci.low <= 1.0);  // the true median is 1
  CHECK(ci.high >= 1.0);
  CHECK(ci.coverage >= 0.95);
}

TEST_CASE("log-log fits recover exponents, with R^2, from three points or more",
          "[bench][statistics]") {
  const std::vector<double> t{1024, 2048, 4096, 8192};
  std::vector<double> square, linear, flat;
  for (double x : t) {
    square.push_back(3e-9 * x * x);
    linear.push_back(5 * x);
    flat.push_back(7);
  }
  auto fit = core::loglog_fit(t, square);
  REQUIRE(fit);
  CHECK_THAT(fit->slope, WithinAbs(2.0, 1e-12));
  CHECK_THAT(fit->r_squared, WithinAbs(1.0, 1e-12));
  CHECK(fit->points == 4);
  fit = core::loglog_fit(t, linear);
  REQUIRE(fit);
  CHECK_THAT(fit->slope, WithinAbs(1.0, 1e-12));
  fit = core::loglog_fit(t, flat);
  REQUIRE(fit);
  CHECK_THAT(fit->slope, WithinAbs(0.0, 1e-12));
  CHECK(fit->r_squared == 1.0);

  // Two points, or three at two distinct x, make no fit.
  CHECK_FALSE(core::loglog_fit({1024, 2048}, {1, 2}));
  CHECK_FALSE(core::loglog_fit({1024, 2048, 2048}, {1, 2, 2.1}));

  // Noisy y = x^1.5: the exponent within the noise, R^2 below 1 but high. By hand for three
  // points: log y off the line by +e, -2e, +e (the residuals of a line through three equally
  // spaced x must sum to zero and be orthogonal to x) leaves the slope exact.
  const std::vector<double> x3{1000, 2000, 4000};
  const double e = 0.05;
  std::vector<double> y3;
  for (size_t i = 0; i < 3; ++i) y3.push_back(std::pow(x3[i], 1.5) * std::exp(i == 1 ? -2 * e : e));
  fit = core::loglog_fit(x3, y3);
  REQUIRE(fit);
  CHECK_THAT(fit->slope, WithinAbs(1.5, 1e-12));
  // SS_res = 6 e^2; SS_tot = SS_res + slope^2 * sum (log x - mean)^2 = 6 e^2 + 2.25 * 2 ln(2)^2.
  const double ss_res = 6 * e * e, ss_tot = ss_res + 2.25 * 2 * std::log(2.0) * std::log(2.0);
  CHECK_THAT(fit->r_squared, WithinAbs(1 - ss_res / ss_tot, 1e-12));

  std::mt19937 rng(11);
  std::normal_distribution<double> noise(0, 0.05);
  std::vector<double> x, y;
  for (double v = 1000; v <= 64000; v *= 2) {
    x.push_back(v);
    y.push_back(std::pow(v, 1.5) * std::exp(noise(rng)));
  }
  fit = core::loglog_fit(x, y);
  REQUIRE(fit);
  CHECK_THAT(fit->slope, WithinAbs(1.5, 0.05));
  CHECK(fit->r_squared > 0.99);
  CHECK(fit->r_squared < 1.0);
}

TEST_CASE("the Mann-Whitney U test matches hand-worked values", "[bench][statistics]") {
  // Separated samples: U_a = 0, mu = 12.5, sigma^2 = 25/12 * 11, z = (12.5 - 0.5) / sigma,
  // p = erfc(z / sqrt 2) = 0.0121858 (worked out from the formulas in statistics.hpp).
  auto r = core::mann_whitney_u({1, 2, 3, 4, 5}, {6, 7, 8, 9, 10});
  CHECK(r.u == 0);
  CHECK_THAT(r.z, WithinAbs(-12.0 / std::sqrt(25.0 / 12 * 11), 1e-12));
  CHECK_THAT(r.p, WithinAbs(0.012185780355344818, 1e-12));
  // The other way round: the same p, U = 25.
  r = core::mann_whitney_u({6, 7, 8, 9, 10}, {1, 2, 3, 4, 5});
  CHECK(r.u == 25);
  CHECK_THAT(r.p, WithinAbs(0.012185780355344818, 1e-12));

  // Ties: pooled 1 2 2 2 3 3 3 4 has midranks 1, 3, 3, 3, 6, 6, 6, 8. R_a = 1 + 3 + 3 + 6 = 13,
  // U_a = 13 - 10 = 3 (counting pairs: a = 2 ties b = 2 twice, a = 3 beats b = 2 and ties two
  // 3s: 0.5 + 0.5 + 2). Tie term 2 (27 - 3) = 48; sigma^2 = 16/12 (9 - 48/56) = 10.857;
  // z = -(5 - 0.5) / sigma = -1.3657, p = 0.172034.
  r = core::mann_whitney_u({1, 2, 2, 3}, {2, 3, 3, 4});
  CHECK(r.u == 3);
  CHECK_THAT(r.z, WithinAbs(-4.5 / std::sqrt(16.0 / 12 * (9 - 48.0 / 56)), 1e-12));
  CHECK_THAT(r.p, WithinAbs(0.17203370892182296, 1e-12));

  // Every value tied, or an empty sample: nothing to tell apart.
  CHECK(core::mann_whitney_u({2, 2, 2}, {2, 2}).p == 1);
  CHECK(core::mann_whitney_u({}, {1, 2}).p == 1);
  // Identical samples: U at its mean, p = 1 after the continuity correction.
  CHECK(core::mann_whitney_u({1, 2, 3, 4}, {1, 2, 3, 4}).p == 1);
}

TEST_CASE("a change is flagged only when significant and large enough", "[bench][statistics]") {
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0, 0.01);
  std::vector<double> base, slower, same;
  for (int i = 0; i < 40; ++i) {
    base.push_back(1.0 * (1 + noise(rng)));
    slower.push_back(1.10 * (1 + noise(rng)));
    same.push_back(1.0 * (1 + noise(rng)));
  }
  auto v = core::compare_times(base, slower);
  CHECK(v.kind == core::ChangeVerdict::Kind::kSlower);
  CHECK_THAT(v.change, WithinAbs(0.10, 0.02));
  CHECK(v.p < 0.001);
  CHECK(v.text().rfind("slower (+", 0) == 0);
  CHECK(v.text().find("p < 0.001") != std::string::npos);

  v = core::compare_times(slower, base);
  CHECK(v.kind == core::ChangeVerdict::Kind::kFaster);
  CHECK(v.text().rfind("faster (-", 0) == 0);

  v = core::compare_times(base, base);
  CHECK(v.kind == core::ChangeVerdict::Kind::kSame);
  CHECK(v.text() == "no significant change (+0.0 %, p = 1.000)");

  // Another draw of the same distribution: well under the 2 % minimal effect.
  CHECK(core::compare_times(base, same).kind == core::ChangeVerdict::Kind::kSame);

  // Every sample 0.5 % above every baseline sample: significant, but under the minimal effect.
  std::vector<double> narrow, tiny;
  for (int i = 1; i <= 40; ++i) {
    narrow.push_back(1 + 0.0001 * i);
    tiny.push_back(1.005 * (1 + 0.0001 * i));
  }
  v = core::compare_times(narrow, tiny);
  CHECK(v.p < 0.05);
  CHECK(v.kind == core::ChangeVerdict::Kind::kSame);  // below the 2 % minimal effect
  v = core::compare_times(narrow, tiny, {0.05, 0.001});
  CHECK(v.kind == core::ChangeVerdict::Kind::kSlower);

  // Exactly 10 % slower, every sample: the verdict text in full.
  std::vector<double> b10, c10;
  for (int i = 1; i <= 20; ++i) {
    b10.push_back(1 + 0.001 * i);
    c10.push_back(1.1 * (1 + 0.001 * i));
  }
  v = core::compare_times(b10, c10);
  CHECK(v.text() == "slower (+10.0 %, p < 0.001)");
}
