// consumer.tests.cpp: the project `awb new-plugin` writes (the parameter-free solution), built
// out of tree at -O0 and at -O3 -march=native, loads, runs, and agrees with the reference and
// with itself within the f64 tolerance, forward and backward.
#include <catch2/catch.hpp>

#include "core/exercises/problem_file.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/subjects.hpp"
#include "graders/checks/finite_difference.hpp"
#include "graders/reference/reference_gradients.hpp"
#include "graders/tolerance/tolerance.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

core::PluginDesc load(const char* path) {
  auto r = core::load_plugin(path);
  if (r.failure) FAIL(r.failure->message << " " << r.failure->system_error);
  return std::move(*r.plugin);
}

Matrix random_matrix(std::mt19937_64& rng, int64_t rows, int64_t cols) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix m(rows, cols);
  for (double& v : m.data) v = u(rng);
  return m;
}

}  // namespace

TEST_CASE("the template built at -O0 and -O3 agrees with the reference", "[sdk-consumer]") {
  const core::PluginDesc o0 = load(AWB_CONSUMER_O0);
  const core::PluginDesc o3 = load(AWB_CONSUMER_O3);
  REQUIRE(o0.variants.size() == 1);
  CHECK(o0.id == "org.example.student-parameter-free");
  CHECK(o0.variants[0].id == "student-parameter-free");
  core::VariantSubject s0({&o0, &o0.variants[0]}, {}), s3({&o3, &o3.variants[0]}, {});
  REQUIRE_FALSE(s0.cannot_backward());
  std::mt19937_64 rng(99);
  for (bool causal : {false, true}) {
    for (int64_t tokens : {1, 6, 40}) {
      const auto problem = test::random_problem(rng, tokens, 8, 1, 0, false, causal);
      const uint64_t caps = o0.variants[0].capabilities;
      const auto ref = test::run_reference(caps, problem, Scalar::kF64);
      const auto r0 = test::run_variant({&o0, &o0.variants[0]}, problem, Scalar::kF64);
      const auto r3 = test::run_variant({&o3, &o3.variants[0]}, problem, Scalar::kF64);
      INFO("T=" << tokens << " causal=" << causal);
      CHECK(test::compare_f64(r0, ref) == "");
      CHECK(test::compare_f64(r3, ref) == "");
      CHECK(test::compare_f64(r0, r3) == "");
      // The backward pass: dX through the three paths Q = K = V = X, with and without dA.
      for (bool with_da : {false, true}) {
        BackwardSeed up{random_matrix(rng, tokens, problem.d_out()), {}};
        if (with_da) up.da.push_back(random_matrix(rng, tokens, tokens));
        INFO("dA=" << with_da);
        const LayerGradients expected = reference::gradients_of(problem, up, Scalar::kF64);
        const LayerGradients g0 = s0.backward(problem, up, Scalar::kF64);
        const LayerGradients g3 = s3.backward(problem, up, Scalar::kF64);
        const auto want = grade::gradient_tensors(expected);
        const auto got0 = grade::gradient_tensors(g0), got3 = grade::gradient_tensors(g3);
        REQUIRE(want.size() == 1);  // dX alone: the variant reads no weights
        REQUIRE(got0.size() == want.size());
        REQUIRE(got3.size() == want.size());
        CHECK(grade::within_f64(got0[0].second->data, want[0].second->data, {1e-11, 1e-9}));
        CHECK(grade::within_f64(got3[0].second->data, want[0].second->data, {1e-11, 1e-9}));
      }
    }
  }
}
