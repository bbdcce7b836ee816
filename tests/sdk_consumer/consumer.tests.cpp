// consumer.tests.cpp: the template, built out of tree at -O0 and at -O3 -march=native, loads,
// runs, and agrees with the reference and with itself within the f64 tolerance.
#include <catch2/catch.hpp>

#include "core/exercises/problem_file.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/subjects.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

core::PluginDesc load(const char* path) {
  auto r = core::load_plugin(path);
  if (r.failure) FAIL(r.failure->message << " " << r.failure->system_error);
  return std::move(*r.plugin);
}

}  // namespace

TEST_CASE("the template built at -O0 and -O3 agrees with the reference", "[sdk-consumer]") {
  const core::PluginDesc o0 = load(AWB_CONSUMER_O0);
  const core::PluginDesc o3 = load(AWB_CONSUMER_O3);
  REQUIRE(o0.variants.size() == 1);
  CHECK(o0.id == "org.example.student-attention");
  // The template's class has no backward(), so the C++ layer exports no backward extension.
  CHECK(core::VariantSubject({&o0, &o0.variants[0]}, {}).cannot_backward().has_value());
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
    }
  }
}
