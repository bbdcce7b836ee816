// lint.tests.cpp: the mutant × kind matrix over the bundled exercises lets no applicable pair
// escape, and the newer mutants are caught with the diagnosis of their own mistake; scoped to an
// assignment it lints the kinds it grades, and it tells catches students cannot see.
#include "core/grading/lint.hpp"

#include <catch2/catch.hpp>
#include <sstream>

#include "core/grading/assignment.hpp"
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

core::Assignment bundled_assignment(const std::string& name) {
  core::AssignmentLoad l =
      core::load_assignment(core::find_assignment(name), bundled_exercises().exercises);
  for (const auto& e : l.errors) INFO(e.what());
  REQUIRE(l.assignment);
  return std::move(*l.assignment);
}

// What each kind's variant of the shipped mutants declares.
std::array<uint64_t, mutants::kKindCount> mutant_kind_capabilities() {
  core::LoadPolicy shipped;
  shipped.trusted_dirs = {core::bundled_mutant_dir()};
  const core::Catalog cat =
      core::load_catalog({core::bundled_mutant_dir() / "mutant_no_scale.so"}, shipped);
  REQUIRE(cat.plugins.size() == 1);
  std::array<uint64_t, mutants::kKindCount> caps{};
  for (const auto& v : cat.plugins[0].variants)
    for (int k = 0; k < mutants::kKindCount; ++k)
      if (mutants::kKindIds[k] == v.id) caps[size_t(k)] = v.capabilities;
  return caps;
}

const core::MutantOutcome& outcome(const core::Discrimination& d, const std::string& mutant) {
  for (const auto& m : d.mutants)
    if (m.mutant == mutant) return m;
  FAIL("no mutant " << mutant);
  throw;
}

constexpr size_t kQkvColumn = 1;

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
      const bool applies = mutants::kinds_of(mutants::kMistakes[i]) & (1u << k);
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

TEST_CASE("an assignment is linted in the narrowest kinds it grades", "[lint][assignment]") {
  const auto caps = mutant_kind_capabilities();
  // The causal-only kind is narrower than multi-head where every check is masked; a wider kind
  // than the one that runs every check adds nothing the assignment grades.
  CHECK(core::assignment_kinds(bundled_assignment("parameter-free"), caps) ==
        mutants::kind_bit(VariantKind::kParameterFree));
  CHECK(core::assignment_kinds(bundled_assignment("qkv"), caps) ==
        mutants::kind_bit(VariantKind::kQkv));
  CHECK(core::assignment_kinds(bundled_assignment("multi-head"), caps) ==
        mutants::kind_bit(VariantKind::kMultiHead));
  CHECK(core::assignment_kinds(bundled_assignment("causal"), caps) ==
        mutants::kind_bit(VariantKind::kCausal));
  // A variant id that names a kind picks it, if it runs every check.
  core::Assignment a = bundled_assignment("qkv");
  a.variant_capabilities = 0;
  a.variant_id = "some-plugin:multi-head";
  CHECK(core::assignment_kinds(a, caps) == mutants::kind_bit(VariantKind::kMultiHead));
  a.variant_id = "causal";  // cannot run the unmasked checks
  CHECK(core::assignment_kinds(a, caps) == 0);
}

TEST_CASE("the bundled qkv assignment lets no pair of the qkv kind escape", "[lint][assignment]") {
  const core::Assignment a = bundled_assignment("qkv");
  core::LintScope scope;
  scope.exercises = a.exercise_list();
  scope.assignment = &a;
  const core::Discrimination d = core::discrimination_check(scope, core::bundled_mutant_dir());
  CHECK(d.kinds == mutants::kind_bit(VariantKind::kQkv));
  CHECK(d.escapes() == 0);
  for (const auto& m : d.mutants)
    for (size_t k = 0; k < mutants::kKindCount; ++k)
      if (k != kQkvColumn) CHECK(m.cells[k].state != core::CellState::kCaught);
  CHECK(outcome(d, "no-scale").cells[kQkvColumn].state == core::CellState::kCaught);
}

TEST_CASE("a folder of one Q/K/V exercise is linted in the qkv kind alone", "[lint][mutant]") {
  // qkv-stability checks no gradient: the backward pass's mistakes do not apply to it.
  const core::Discrimination d =
      core::discrimination_check({exercise("qkv-stability")}, core::bundled_mutant_dir());
  CHECK(d.kinds == mutants::kind_bit(VariantKind::kQkv));
  CHECK(d.escapes() == 0);
  CHECK(outcome(d, "heads-reversed").cells[kQkvColumn].state == core::CellState::kNotApplicable);
  CHECK(outcome(d, "heads-reversed").cells[2].state == core::CellState::kNotCovered);
  CHECK(outcome(d, "divide-by-sum").cells[2].state == core::CellState::kNotCovered);
  CHECK(outcome(d, "backward-no-scale").cells[kQkvColumn].state == core::CellState::kNotApplicable);
  // resolve-it checks gradients: there they apply, and it catches them.
  const core::Discrimination r =
      core::discrimination_check({exercise("resolve-it")}, core::bundled_mutant_dir());
  CHECK(outcome(r, "backward-no-scale").cells[kQkvColumn].state == core::CellState::kCaught);
}

TEST_CASE("a mistake caught only by hidden or after-due checks is told apart",
          "[lint][mutant][visibility]") {
  // no-scale fails qkv-stability's two reference checks, and no other.
  core::Exercise ex = exercise("qkv-stability");
  const auto seen = [&](grade::Visibility v) {
    for (auto& c : ex.checks)
      if (c.kind == grade::CheckKind::kReference) c.visibility = v;
    const core::Discrimination d = core::discrimination_check({ex}, core::bundled_mutant_dir());
    const core::LintCell& cell = outcome(d, "no-scale").cells[kQkvColumn];
    REQUIRE(cell.state == core::CellState::kCaught);
    CHECK(cell.checks == std::vector<std::string>{"qkv-stability/matches-reference",
                                                  "qkv-stability/matches-reference-in-f32"});
    // divide-by-sum fails visible property checks whatever the reference checks' visibility.
    CHECK(outcome(d, "divide-by-sum").cells[kQkvColumn].seen == core::Seen::kNow);
    return cell.seen;
  };
  CHECK(seen(grade::Visibility::kVisible) == core::Seen::kNow);
  CHECK(seen(grade::Visibility::kAfterDueDate) == core::Seen::kAfterDue);
  CHECK(seen(grade::Visibility::kHidden) == core::Seen::kNever);
}
