// lint.tests.cpp: the mutant × kind matrix over the bundled exercises lets no applicable pair
// escape, and the newer mutants are caught with the diagnosis of their own mistake.
#include "core/grading/lint.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "core/grading/grading.hpp"
#include "graders/mutants/mistakes.hpp"

using namespace awb;

namespace {

const core::ExerciseSet& bundled_exercises() {
  static const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  return set;
}

const core::Exercise& exercise(const std::string& id) {
  for (const auto& e : bundled_exercises().exercises)
    if (e.id == id) return e;
  FAIL("no bundled exercise " << id);
  throw;
}

// The report of one shipped mutant's variant of one kind on one bundled exercise.
grade::ExerciseReport grade_mutant(const std::string& mutant, const std::string& kind,
                                   const std::string& exercise_id) {
  std::string stem = "mutant_" + mutant;
  std::replace(stem.begin(), stem.end(), '-', '_');
  core::LoadPolicy shipped;
  shipped.trusted_dirs = {core::bundled_mutant_dir()};
  const core::Catalog cat =
      core::load_catalog({core::bundled_mutant_dir() / (stem + ".so")}, shipped);
  REQUIRE(cat.plugins.size() == 1);
  for (const auto& v : cat.plugins[0].variants)
    if (v.id == kind)
      return core::grade_variant({&cat.plugins[0], &v}, {&exercise(exercise_id)}).exercises.at(0);
  FAIL("no variant " << kind);
  throw;
}

bool any_diagnosis(const grade::ExerciseReport& r, const std::string& words) {
  for (const auto& c : r.checks)
    if (c.status == grade::Status::kFailed && c.diagnosis.find(words) != std::string::npos)
      return true;
  return false;
}

}  // namespace

TEST_CASE("the mistakes table lists the mutants CMake builds, in order", "[lint][mutant]") {
  std::vector<std::string> built;
  std::stringstream names(AWB_TEST_MUTANT_NAMES);
  for (std::string n; std::getline(names, n, ',');) built.push_back(n);
  REQUIRE(built.size() == std::size(mutants::kMistakes));
  for (size_t i = 0; i < built.size(); ++i) CHECK(built[i] == mutants::kMistakes[i].name);
}

TEST_CASE("no applicable (mutant, kind) pair escapes the bundled exercises", "[lint][mutant]") {
  REQUIRE(bundled_exercises().errors.empty());
  const core::Discrimination d =
      core::discrimination_check(bundled_exercises().exercises, core::bundled_mutant_dir());
  REQUIRE(d.mutants.size() == std::size(mutants::kMistakes));
  for (size_t i = 0; i < d.mutants.size(); ++i) {
    const auto& m = d.mutants[i];
    CHECK(m.load_error.empty());
    CHECK(m.mutant == mutants::kMistakes[i].name);  // in table order
    for (int k = 0; k < mutants::kKindCount; ++k) {
      INFO(m.mutant << " x " << mutants::kKindIds[k]);
      const bool applies = mutants::kMistakes[i].kinds & (1u << k);
      const auto state = m.cells[size_t(k)].state;
      CHECK(state == (applies ? core::CellState::kCaught : core::CellState::kNotApplicable));
    }
  }
  CHECK(d.escapes() == 0);
  CHECK(d.uncatchable_exercises.empty());
}

TEST_CASE("a subset that does not run a kind leaves its cells not covered, not escaping",
          "[lint][mutant]") {
  const core::Discrimination d =
      core::discrimination_check({exercise("journey")}, core::bundled_mutant_dir());
  for (const auto& m : d.mutants)
    for (int k = 1; k < mutants::kKindCount; ++k) {  // journey is parameter-free only
      INFO(m.mutant << " x " << mutants::kKindIds[k]);
      CHECK(m.cells[size_t(k)].state != core::CellState::kNotCaught);
    }
}

TEST_CASE("a causal mask off by one is diagnosed as off by one, never as missing",
          "[lint][mutant][diagnosis]") {
  for (const char* kind : {"causal", "multi-head", "qkv"}) {
    const auto r = grade_mutant("mask-off-by-one", kind, "causal-single-head");
    INFO(kind);
    CHECK(r.score < r.max_score);
    CHECK(any_diagnosis(r, "off by one"));
    CHECK_FALSE(any_diagnosis(r, "mask is missing"));
  }
}

TEST_CASE("scaling by 1/sqrt(d_model) is diagnosed", "[lint][mutant][diagnosis]") {
  const auto r = grade_mutant("scale-by-d-model", "qkv", "why-qkv");
  CHECK(r.score < r.max_score);
  CHECK(any_diagnosis(r, "divided by sqrt(d_model) = sqrt(4) instead of sqrt(d_k) = sqrt(2)"));
  CHECK_FALSE(any_diagnosis(r, "were not divided by sqrt(d_k)"));
}

TEST_CASE("no max subtraction in f32 only: right in f64, caught by the f32 checks",
          "[lint][mutant][diagnosis]") {
  for (const char* kind : {"qkv", "multi-head"}) {
    const auto r = grade_mutant("no-max-subtraction-f32", kind, "qkv-stability");
    INFO(kind);
    CHECK(r.score < r.max_score);
    const auto& checks = exercise("qkv-stability").checks;
    for (size_t i = 0; i < checks.size(); ++i) {
      INFO(checks[i].id << ": " << r.checks[i].summary);
      const bool f32 = checks[i].scalar == Scalar::kF32;
      CHECK(r.checks[i].status == (f32 ? grade::Status::kFailed : grade::Status::kPassed));
      if (f32) CHECK(r.checks[i].diagnosis.find("exp() of a large score") != std::string::npos);
    }
  }
}

TEST_CASE("the degenerate mutants lose every point they can", "[lint][mutant][diagnosis]") {
  for (const char* mutant : {"nan-everywhere", "constant-output"}) {
    const auto r = grade_mutant(mutant, "parameter-free", "journey");
    INFO(mutant);
    CHECK(r.score == 0);
    CHECK(r.max_score > 0);
  }
}
