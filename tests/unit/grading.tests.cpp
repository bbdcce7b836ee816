// grading.tests.cpp: every bundled plugin against every bundled exercise, and every mutant
// (under a neutral name) caught with a diagnosis that names its mistake.
#include "core/grading/grading.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <set>

#include "core/exercises/exercise.hpp"
#include "core/grading/lint.hpp"
#include "core/plugins/subjects.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

const core::ExerciseSet& bundled_exercises() {
  static const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  return set;
}

// The maths each bundled variant computes: it is graded on the exercises of that family (a
// softmax variant has no `window` to give a sliding-window exercise).
Family family_of_variant(const std::string& id) {
  if (id == "sliding-window") return Family::kSlidingWindow;
  if (id == "linear") return Family::kLinear;
  return Family::kSoftmax;
}

std::vector<const core::Exercise*> exercises_of(Family family) {
  std::vector<const core::Exercise*> out;
  for (const auto& e : bundled_exercises().exercises)
    if (e.parameters.family == family) out.push_back(&e);
  return out;
}

}  // namespace

TEST_CASE("every bundled plugin aces every exercise it can run", "[grader][plugin]") {
  REQUIRE(bundled_exercises().errors.empty());
  std::set<std::string> exercised;
  for (const auto& plugin : test::bundled_catalog().plugins) {
    for (const auto& variant : plugin.variants) {
      const auto report =
          core::grade_variant({&plugin, &variant}, exercises_of(family_of_variant(variant.id)));
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
      const auto report =
          core::grade_variant({&plugin, &variant}, exercises_of(family_of_variant(variant.id)), o);
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
                                             "recomputes the scores without the causal mask",
                                             "has the wrong sign",
                                             "the scores were written after the mask",
                                             "query heads of a group are consecutive"};
  // Loaded here (trusted) rather than in runners: this test is about diagnosis, not isolation
  // (the runner's gradient checks are the next test's).
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
      const auto report = core::grade_variant({&plugin, &variant}, exercises_of(Family::kSoftmax));
      for (const auto& ex : report.exercises)
        for (const auto& c : ex.checks)
          if (c.status == grade::Status::kFailed && c.diagnosis.find(words) != std::string::npos)
            named = true;
    }
    INFO(stem << " should be diagnosed with \"" << words << "\"");
    CHECK(named);
  }
}

namespace {

// Every check of every variant of the plugin in `file` on every softmax exercise, loaded as
// `policy` says: "variant/exercise" with the check's result.
std::vector<std::pair<std::string, grade::CheckResult>> all_checks(
    const std::filesystem::path& file, const core::LoadPolicy& policy) {
  const core::Catalog cat = core::load_catalog({file}, policy);
  REQUIRE(cat.failures.empty());
  REQUIRE(cat.plugins.size() == 1);
  std::vector<std::pair<std::string, grade::CheckResult>> out;
  const auto& plugin = cat.plugins[0];
  for (const auto& variant : plugin.variants) {
    const auto report = core::grade_variant({&plugin, &variant}, exercises_of(Family::kSoftmax));
    for (const auto& ex : report.exercises)
      for (const auto& c : ex.checks) out.emplace_back(variant.id + "/" + ex.exercise_id, c);
  }
  return out;
}

core::LoadPolicy trusted_policy() {
  core::LoadPolicy trusted;
  trusted.trust_all = true;
  return trusted;
}

}  // namespace

TEST_CASE("a backward with every gradient negated is named in every gradient check it fails",
          "[grader][mutant][diagnosis]") {
  const auto checks =
      all_checks(std::filesystem::path(AWB_TEST_MUTANT_DIR) / "mutant_gradient_sign_flip.so",
                 trusted_policy());
  size_t gradient = 0;
  for (const auto& [where, c] : checks) {
    INFO(where << " " << c.id << ": " << c.summary << " / " << c.diagnosis);
    if (c.kind != grade::CheckKind::kGradient) {
      CHECK(c.status != grade::Status::kFailed);  // the forward is right
      continue;
    }
    if (c.status == grade::Status::kNotRun) continue;
    ++gradient;
    CHECK(c.status == grade::Status::kFailed);
    CHECK(c.diagnosis.find("has the wrong sign: each is exactly −1 times the right one") !=
          std::string::npos);
  }
  CHECK(gradient >= 4);  // every kind's gradient checks
}

TEST_CASE("S written after the mask is named wherever it costs points",
          "[grader][mutant][diagnosis]") {
  const auto checks = all_checks(
      std::filesystem::path(AWB_TEST_MUTANT_DIR) / "mutant_scores_after_mask.so", trusted_policy());
  size_t failed = 0;
  for (const auto& [where, c] : checks) {
    if (c.status != grade::Status::kFailed) continue;
    INFO(where << " " << c.id << ": " << c.summary << " / " << c.diagnosis);
    ++failed;
    CHECK(c.diagnosis.find("S holds -Inf at every masked entry") != std::string::npos);
    CHECK(c.diagnosis.find("the scores were written after the mask") != std::string::npos);
  }
  CHECK(failed >= 3);  // reference checks on S, and the f32 finite probe
}

TEST_CASE("a plugin that writes A or S though not asked fails context_alone, named",
          "[grader][contract]") {
  // Graded as a submission, in awb-runner: a write through the null pointer crashes there.
  const auto checks =
      all_checks(std::filesystem::path(AWB_TEST_CONTRACT_DIR) / "writes_weights_unasked.so", {});
  std::map<std::string, std::string> alone;  // variant -> the check's summary
  for (const auto& [where, c] : checks) {
    INFO(where << " " << c.id << ": " << c.summary);
    if (where.find("/journey") == std::string::npos) continue;  // parameter-free: journey only
    if (c.name != "context_alone") {
      CHECK((c.status == grade::Status::kPassed || c.status == grade::Status::kNotRun));
      continue;
    }
    CHECK(c.status == grade::Status::kFailed);
    CHECK(c.diagnosis.find("writes A or S although the host did not ask for them") !=
          std::string::npos);
    alone[where.substr(0, where.find('/'))] = c.summary;
  }
  REQUIRE(alone.size() == 2);
  // plugin.hpp's view refuses the write; the raw pointer write crashes the runner.
  CHECK(alone["checked"].find("(S) was not requested") != std::string::npos);
  CHECK(alone["raw"].find("crashed") != std::string::npos);
}

namespace {

// Every gradient check of every variant of the plugin in `file`, graded as a submission (in an
// awb-runner) on every bundled exercise: "variant/exercise" with its status and summary.
std::vector<std::pair<std::string, grade::CheckResult>> gradient_checks_untrusted(
    const std::filesystem::path& file) {
  const core::Catalog cat = core::load_catalog({file});
  REQUIRE(cat.failures.empty());
  REQUIRE(cat.plugins.size() == 1);
  std::vector<std::pair<std::string, grade::CheckResult>> out;
  const auto& plugin = cat.plugins[0];
  for (const auto& variant : plugin.variants) {
    CHECK(variant.trainable);
    const auto report = core::grade_variant({&plugin, &variant}, exercises_of(Family::kSoftmax));
    for (const auto& ex : report.exercises) {
      INFO(variant.id << " on " << ex.exercise_id << ": " << ex.not_gradable);
      CHECK(ex.provenance.lockdown != "in-process");
      for (const auto& c : ex.checks)
        if (c.kind == grade::CheckKind::kGradient && c.status != grade::Status::kNotRun)
          out.emplace_back(variant.id + "/" + ex.exercise_id, c);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a submission's gradient checks are graded through awb-runner", "[grader][runner]") {
  SECTION("the bundled qkv plugin, loaded as a submission, passes every gradient check") {
    // Copied out of the bundled folder, which is trusted: anywhere else it is a submission.
    namespace fs = std::filesystem;
    const fs::path dir =
        fs::temp_directory_path() / ("awb-submission-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    fs::copy_file(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_qkv.so", dir / "awb_qkv.so",
                  fs::copy_options::overwrite_existing);
    const auto checks = gradient_checks_untrusted(dir / "awb_qkv.so");
    fs::remove_all(dir);
    CHECK(checks.size() >= 3);  // causal, previous-token, resolve-it, scaling: qkv runs them
    for (const auto& [where, c] : checks) {
      INFO(where << " " << c.id << ": " << c.summary);
      CHECK(c.status == grade::Status::kPassed);
    }
  }
  SECTION("each backward mutant fails some gradient check, and none errs in the transport") {
    for (const char* name : {"backward_no_softmax_term", "backward_no_scale",
                             "backward_transposed_weight_grad", "backward_no_causal_mask"}) {
      const auto file =
          std::filesystem::path(AWB_TEST_MUTANT_DIR) / ("mutant_" + std::string(name) + ".so");
      const auto checks = gradient_checks_untrusted(file);
      size_t failed = 0;
      for (const auto& [where, c] : checks) {
        INFO(name << " " << where << " " << c.id << ": " << c.summary);
        CHECK(c.status != grade::Status::kError);
        failed += c.status == grade::Status::kFailed;
      }
      INFO(name);
      CHECK(failed > 0);
    }
  }
}

TEST_CASE("a variant without a backward pass is 'not trainable', in-process and in a runner",
          "[grader][runner]") {
  // The C fixture exports no get_extension at all.
  const auto file = std::filesystem::path(AWB_TEST_BROKEN_DIR) / "duplicate_id_a.so";
  core::LoadPolicy trusted;
  trusted.trust_all = true;
  for (const auto& policy : {core::LoadPolicy{}, trusted}) {
    const core::Catalog cat = core::load_catalog({file}, policy);
    REQUIRE(cat.failures.empty());
    const auto& p = cat.plugins.at(0);
    CHECK_FALSE(p.variants.at(0).trainable);
    core::VariantSubject subject({&p, &p.variants.at(0)}, {});
    INFO(runner::to_string(subject.session().isolation()));
    CHECK(subject.cannot_backward() == "not trainable: the plugin exports no backward pass");
  }
}
