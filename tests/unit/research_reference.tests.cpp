// research_reference.tests.cpp: the sliding-window and linear references on examples small enough
// to work out by hand.
#include <catch2/catch.hpp>

#include "graders/reference/reference_backward.hpp"
#include "unit/variant_harness.hpp"

using Catch::Matchers::WithinAbs;
using namespace awb;
using test::Spec;
using Kind = VariantKind;

namespace {

// One head of width 1 with every weight 1 (Q = K = V = X), no scale: S = x·xᵀ.
Spec scalar_tokens(std::vector<double> x) {
  Spec s;
  s.tokens = static_cast<int64_t>(x.size());
  s.d_model = s.d_k = s.d_v = 1;
  s.scale = AWB_SCALE_NONE;
  s.x = std::move(x);
  s.w_q = s.w_k = s.w_v = {1.0};
  return s;
}

}  // namespace

TEST_CASE("sliding window of 1 over three tokens, by hand", "[reference][research][known-answer]") {
  // x = (0, 1, 2): S = [[0 0 0] [0 1 2] [0 2 4]].
  Spec s = scalar_tokens({0, 1, 2});
  s.params = {{"window", 1}};
  const double e = std::exp(1.0), e2 = e * e;
  const auto o = test::run_reference<double>(s, Kind::kSlidingWindow);
  // Row 0 sees keys 0, 1 (scores 0, 0); row 1 all three (0, 1, 2); row 2 keys 1, 2 (2, 4).
  const double a[9] = {
      0.5,          0.5,          0, 1 / (1 + e + e2), e / (1 + e + e2), e2 / (1 + e + e2), 0,
      1 / (1 + e2), e2 / (1 + e2)};
  const double z[3] = {0.5, (e + 2 * e2) / (1 + e + e2), (1 + 2 * e2) / (1 + e2)};
  const double scores[9] = {0, 0, 0, 0, 1, 2, 0, 2, 4};
  for (int i = 0; i < 9; ++i) {
    CHECK_THAT(o.a[i], WithinAbs(a[i], 1e-15));
    CHECK(o.s[i] == scores[i]);  // S everywhere, outside the band too
  }
  CHECK(o.a[2] == 0.0);
  CHECK(o.a[6] == 0.0);
  for (int t = 0; t < 3; ++t) CHECK_THAT(o.z[t], WithinAbs(z[t], 1e-15));

  SECTION("causal: no key after the query") {
    s.causal = true;
    const auto c = test::run_reference<double>(s, Kind::kSlidingWindow);
    const double ca[9] = {1, 0, 0, 1 / (1 + e), e / (1 + e), 0, 0, 1 / (1 + e2), e2 / (1 + e2)};
    for (int i = 0; i < 9; ++i) CHECK_THAT(c.a[i], WithinAbs(ca[i], 1e-15));
    CHECK_THAT(c.z[0], WithinAbs(0.0, 1e-15));
    CHECK_THAT(c.z[1], WithinAbs(e / (1 + e), 1e-15));
    CHECK_THAT(c.z[2], WithinAbs(z[2], 1e-15));
  }
  SECTION("window 0: each token sees only itself") {
    s.params = {{"window", 0}};
    const auto w0 = test::run_reference<double>(s, Kind::kSlidingWindow);
    for (int t = 0; t < 3; ++t) {
      CHECK(w0.z[t] == s.x[t]);
      for (int t2 = 0; t2 < 3; ++t2) CHECK(w0.a[t * 3 + t2] == (t == t2 ? 1.0 : 0.0));
    }
  }
  SECTION("no parameter sent: the declared default, 2, sees all three") {
    s.params.clear();
    const auto d = test::run_reference<double>(s, Kind::kSlidingWindow);
    const auto full = test::run_reference<double>(s, Kind::kQkv);
    CHECK(d.a == full.a);
    CHECK(d.z == full.z);
  }
}

TEST_CASE("linear attention over two tokens, by hand", "[reference][research][known-answer]") {
  // x = (1, −1). elu + 1: φ(1) = 2, φ(−1) = e⁻¹, so q̃ = k̃ = (2, 1/e) and
  // S = [[4, 2/e] [2/e, 1/e²]]; v = x.
  Spec s = scalar_tokens({1, -1});
  const double eps = 1e-6, ie = std::exp(-1.0);
  const auto o = test::run_reference<double>(s, Kind::kLinear);
  const double s_expected[4] = {4, 2 * ie, 2 * ie, ie * ie};
  for (int i = 0; i < 4; ++i) CHECK_THAT(o.s[i], WithinAbs(s_expected[i], 1e-15));
  const double r0 = 4 + 2 * ie + eps, r1 = 2 * ie + ie * ie + eps;
  CHECK_THAT(o.a[0], WithinAbs(4 / r0, 1e-15));
  CHECK_THAT(o.a[1], WithinAbs(2 * ie / r0, 1e-15));
  CHECK_THAT(o.a[2], WithinAbs(2 * ie / r1, 1e-15));
  CHECK_THAT(o.a[3], WithinAbs(ie * ie / r1, 1e-15));
  CHECK_THAT(o.z[0], WithinAbs((4 - 2 * ie) / r0, 1e-15));
  CHECK_THAT(o.z[1], WithinAbs((2 * ie - ie * ie) / r1, 1e-15));

  SECTION("causal: the first token sees only itself; S keeps every pair") {
    s.causal = true;
    const auto c = test::run_reference<double>(s, Kind::kLinear);
    CHECK_THAT(c.a[0], WithinAbs(4 / (4 + eps), 1e-15));
    CHECK(c.a[1] == 0.0);
    CHECK_THAT(c.s[1], WithinAbs(2 * ie, 1e-15));
    CHECK_THAT(c.z[0], WithinAbs(4 / (4 + eps), 1e-15));
    CHECK_THAT(c.z[1], WithinAbs(o.z[1], 1e-15));
  }
  SECTION("relu: the negative token has no features, so its row is all zero") {
    s.params = {{"feature_map", 1}};
    const auto r = test::run_reference<double>(s, Kind::kLinear);
    // q̃ = k̃ = (1, 0): S = [[1 0] [0 0]].
    CHECK_THAT(r.a[0], WithinAbs(1 / (1 + eps), 1e-15));
    CHECK(r.a[1] == 0.0);
    CHECK(r.a[2] == 0.0);
    CHECK(r.a[3] == 0.0);
    CHECK_THAT(r.z[0], WithinAbs(1 / (1 + eps), 1e-15));
    CHECK(r.z[1] == 0.0);
  }
  SECTION("the score factor multiplies the queries before phi") {
    s.sharpness = 2;  // q̃ = φ(2x) = (3, e⁻²), k̃ = (2, e⁻¹)
    const auto f = test::run_reference<double>(s, Kind::kLinear);
    CHECK_THAT(f.s[0], WithinAbs(6, 1e-15));
    CHECK_THAT(f.s[1], WithinAbs(3 * ie, 1e-15));
    CHECK_THAT(f.s[2], WithinAbs(2 * ie * ie, 1e-15));
  }
}

TEST_CASE("the reference refuses a backward pass it does not have", "[reference][research]") {
  Spec s = scalar_tokens({1, 2});
  test::run_with<double>(s, test::Want::kZ, [](const awb_problem& p, awb_results& r) {
    awb_gradients g{};
    g.struct_size = sizeof g;
    CHECK_THROWS_AS(reference::attention_backward(p, r.z, nullptr, g, Kind::kLinear),
                    std::invalid_argument);
  });
}
