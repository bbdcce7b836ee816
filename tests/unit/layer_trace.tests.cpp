// layer_trace.tests.cpp: one query through a stack: its weights row per layer and what its input
// row resembles; on animal-road, "it" reads "tired" in layer 0 and carries it into layer 1.
#include "core/compare/layer_trace.hpp"

#include <algorithm>
#include <catch2/catch.hpp>

#include "core/exercises/exercise.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/plugins/subjects.hpp"

using namespace awb;
using Catch::Matchers::WithinAbs;

namespace {

int argmax(const std::vector<double>& v) {
  return static_cast<int>(std::max_element(v.begin(), v.end()) - v.begin());
}

}  // namespace

TEST_CASE("layer trace: cosine", "[layer-trace]") {
  const double a[] = {1, 0}, b[] = {0, 2}, c[] = {3, 0}, zero[] = {0, 0};
  CHECK(core::cosine(a, b, 2) == 0);
  CHECK_THAT(core::cosine(a, c, 2), WithinAbs(1, 1e-15));
  CHECK(core::cosine(a, zero, 2) == 0);
}

TEST_CASE("layer trace: animal-road, \"it\" in the tired sentence", "[layer-trace]") {
  const auto set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  const core::Exercise& ex = core::find_exercise(set, "animal-road");
  core::ReferenceSubject reference(ex.reference_capabilities);
  const RunOutput run = reference.run(core::case_input(ex, "tired"), Scalar::kF64);
  const int it = 7, animal = 1, tired = 10;
  const auto steps = core::trace_query(run, it, 0);
  REQUIRE(steps.size() == 2);
  // Layer 0: "it" enters as its own embedding and attends to "tired".
  CHECK(argmax(steps[0].weights) == tired);
  CHECK_THAT(steps[0].resemblance[it], WithinAbs(1, 1e-12));
  CHECK_THAT(steps[0].resemblance[tired], WithinAbs(0.01 / (1.005 * 1.005), 1e-3));
  // Layer 1: its input is x + z of layer 0, which carries the tiredness coordinate, and it
  // attends to "animal".
  CHECK(argmax(steps[1].weights) == animal);
  CHECK(steps[1].resemblance[tired] > steps[0].resemblance[tired] + 0.3);
  CHECK(steps[1].resemblance[it] < 1);
  // The numbers are the run's: the weights row of each layer, the cosine of each input row.
  for (size_t l = 0; l < 2; ++l) {
    const Matrix& a = run.layers[l].result.weights[0];
    for (int t = 0; t < a.cols; ++t) CHECK(steps[l].weights[size_t(t)] == a(it, t));
    const Matrix& in = run.layers[l].input;
    const Matrix& x = run.layers[0].input;
    for (int t = 0; t < x.rows; ++t)
      CHECK(steps[l].resemblance[size_t(t)] ==
            core::cosine(&in.data[size_t(it * in.cols)], &x.data[size_t(t * x.cols)], x.cols));
  }
  CHECK_THROWS_AS(core::trace_query(run, 11, 0), std::out_of_range);
}

TEST_CASE("layer trace: an input narrower than x resembles nothing", "[layer-trace]") {
  RunOutput run;
  run.layers.resize(2);
  run.layers[0].input = Matrix(2, 3);
  run.layers[1].input = Matrix(2, 2);
  Matrix a(2, 2);
  a.data = {0.25, 0.75, 0.5, 0.5};
  run.layers[0].result.weights = {a};
  run.layers[1].result.weights = {a};
  const auto steps = core::trace_query(run, 0, 3);  // a head past the last: the last
  CHECK(steps[0].resemblance.size() == 2);
  CHECK(steps[1].resemblance.empty());
  CHECK(steps[1].weights == std::vector<double>{0.25, 0.75});
}
