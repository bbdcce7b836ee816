// grading.tests.cpp: every bundled plugin against every bundled exercise, and every mutant
// (under a neutral name) caught with a diagnosis that names its mistake.
#include "core/grading.hpp"

#include <catch2/catch.hpp>
#include <set>

#include "core/exercise.hpp"
#include "core/lint.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

const core::ExerciseSet& bundled_exercises() {
  static const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  return set;
}

std::vector<const core::Exercise*> all_exercises() {
  std::vector<const core::Exercise*> out;
  for (const auto& e : bundled_exercises().exercises) out.push_back(&e);
  return out;
}

}  // namespace

TEST_CASE("every bundled plugin aces every exercise it can run", "[grader][plugin]") {
  REQUIRE(bundled_exercises().errors.empty());
  std::set<std::string> exercised;
  for (const auto& plugin : test::bundled_catalog().plugins) {
    for (const auto& variant : plugin.variants) {
      const auto report = core::grade_variant({&plugin, &variant}, all_exercises());
      for (const auto& ex : report.exercises) {
        INFO(variant.id << " on " << ex.exercise_id);
        CHECK(ex.not_gradable.empty());
        CHECK(ex.score == ex.max_score);
        for (const auto& c : ex.checks) {
          INFO(c.id << ": " << c.summary);
          CHECK((c.status == grade::Status::kPassed || c.status == grade::Status::kNotRun));
        }
        if (ex.max_score > 0) exercised.insert(ex.exercise_id);
      }
    }
  }
  // No exercise is out of reach of every bundled variant.
  CHECK(exercised.size() == bundled_exercises().exercises.size());
}

TEST_CASE("grading in f32 holds the bundled plugins to the f32 rule", "[grader][plugin]") {
  core::GradeOptions o;
  o.scalar = Scalar::kF32;
  for (const auto& plugin : test::bundled_catalog().plugins)
    for (const auto& variant : plugin.variants) {
      const auto report = core::grade_variant({&plugin, &variant}, all_exercises(), o);
      for (const auto& ex : report.exercises)
        for (const auto& c : ex.checks) {
          INFO(variant.id << " on " << ex.exercise_id << "/" << c.id << ": " << c.summary);
          CHECK((c.status == grade::Status::kPassed || c.status == grade::Status::kNotRun));
        }
    }
}

TEST_CASE("the reference aces every bundled exercise", "[grader][lint]") {
  for (const auto& ex : bundled_exercises().exercises) {
    const auto r = core::reference_self_check(ex);
    INFO(ex.id);
    CHECK(r.score == ex.max_points());
  }
}

TEST_CASE("each mutant, under a neutral name, is diagnosed from its outputs", "[grader][mutant]") {
  // In the order of the mutant builds (graders/mutants/CMakeLists.txt): words the diagnosis of
  // that mistake must contain.
  const std::vector<std::string> expected = {"divided by their row sum",
                                             "maximum score",
                                             "sqrt(d_k)",
                                             "wrong axis",
                                             "mask is missing",
                                             "after the softmax",
                                             "diagonal",
                                             "swapped",
                                             "wrong order",
                                             "W_o was never applied",
                                             "normalised weights",
                                             "off by one",
                                             "sqrt(d_model)",
                                             "exp() of a large score",
                                             "contain NaN at",
                                             "in every entry although the input rows differ",
                                             "missing its −a·(a·g) term",
                                             "1/sqrt(d_k) was forgotten in the backward",
                                             "transpose of the right gradient",
                                             "recomputes the scores without the causal mask"};
  // Loaded here (trusted) rather than in a runner: the backward pass does not travel through the
  // runner yet, and this test is about diagnosis, not isolation.
  core::LoadPolicy trusted;
  trusted.trust_all = true;
  const core::Catalog cat = core::load_catalog({AWB_TEST_NEUTRAL_DIR}, trusted);
  REQUIRE(cat.failures.empty());
  REQUIRE(cat.plugins.size() == expected.size());
  for (const auto& plugin : cat.plugins) {
    const std::string stem = plugin.path.stem().string();  // submission_<n>
    const size_t n = std::stoul(stem.substr(stem.find('_') + 1));
    const std::string& words = expected.at(n - 1);
    bool named = false;
    for (const auto& variant : plugin.variants) {
      const auto report = core::grade_variant({&plugin, &variant}, all_exercises());
      for (const auto& ex : report.exercises)
        for (const auto& c : ex.checks)
          if (c.status == grade::Status::kFailed && c.diagnosis.find(words) != std::string::npos)
            named = true;
    }
    INFO(stem << " should be diagnosed with \"" << words << "\"");
    CHECK(named);
  }
}
