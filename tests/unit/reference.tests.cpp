// reference.tests.cpp: known answers of the lesson's running example, from reference and plugin.
#include <catch2/catch.hpp>

#include "core/exercises/problem_file.hpp"
#include "support/test_support.hpp"

using Catch::Matchers::WithinAbs;
using namespace awb;

namespace {

// The lesson's numbers for the "journey" query, sharpness 1, no scale.
constexpr double kJourneyWeights[] = {0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581};
constexpr double kJourneyContext[] = {0.4419, 0.6515, 0.5683};

void check_journey_row(const ForwardResult& r) {
  REQUIRE(r.weights.size() == 1);
  for (int j = 0; j < 6; ++j) CHECK_THAT(r.weights[0](1, j), WithinAbs(kJourneyWeights[j], 5e-5));
  for (int c = 0; c < 3; ++c) CHECK_THAT(r.z(1, c), WithinAbs(kJourneyContext[c], 5e-5));
  for (int t = 0; t < 6; ++t) {
    double sum = 0;
    for (int j = 0; j < 6; ++j) sum += r.weights[0](t, j);
    CHECK_THAT(sum, WithinAbs(1.0, 1e-12));
  }
}

ProblemSpec journey_without_weights() {
  return core::without_weights(core::example_problem("journey"));
}

}  // namespace

TEST_CASE("reference kernel reproduces the journey row", "[reference][known-answer]") {
  check_journey_row(test::run_reference(AWB_CAP_F64, journey_without_weights(), Scalar::kF64));
}

TEST_CASE("parameter-free plugin reproduces the journey row", "[plugin][known-answer]") {
  const auto ref = core::find_variant(test::bundled_catalog(), "parameter-free");
  check_journey_row(test::run_variant(ref, journey_without_weights(), Scalar::kF64));
}

TEST_CASE("journey scores are the raw dot products", "[reference][known-answer]") {
  const auto r = test::run_reference(AWB_CAP_F64, journey_without_weights(), Scalar::kF64);
  // x_journey · x_starts = 0.55*0.57 + 0.87*0.85 + 0.66*0.64
  CHECK_THAT(r.scores[0](1, 2), WithinAbs(0.55 * 0.57 + 0.87 * 0.85 + 0.66 * 0.64, 1e-15));
  CHECK(r.scores[0](1, 2) == r.scores[0](2, 1));  // S = X Xᵀ is symmetric
}

TEST_CASE("the causal mask zeroes the future exactly and keeps the scores", "[reference][causal]") {
  ProblemSpec p = journey_without_weights();
  p.causal = true;
  const auto r = test::run_reference(AWB_CAP_F64 | AWB_CAP_CAUSAL, p, Scalar::kF64);
  CHECK(r.weights[0](0, 0) == 1.0);  // the first token sees only itself
  for (int t = 0; t < 6; ++t)
    for (int j = t + 1; j < 6; ++j) {
      CHECK(r.weights[0](t, j) == 0.0);
      CHECK(r.scores[0](t, j) != 0.0);  // S is the softmax input before the mask
    }
}
