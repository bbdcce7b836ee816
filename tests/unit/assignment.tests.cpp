// assignment.tests.cpp: assignment files, which checks count, the same maximum for every
// submission, the graded variant, and lateness.
#include "core/grading/assignment.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/grading/grading.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/subjects.hpp"

using namespace awb;
namespace fs = std::filesystem;

namespace {

const core::ExerciseSet& bundled() {
  static const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  return set;
}

fs::path write_temp(const std::string& name, const std::string& text) {
  const fs::path dir = fs::temp_directory_path() / "awb-assignment-tests";
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return dir / name;
}

core::Assignment load_ok(const fs::path& file) {
  core::AssignmentLoad l = core::load_assignment(file, bundled().exercises);
  for (const auto& e : l.errors) INFO(e.what());
  REQUIRE(l.errors.empty());
  return std::move(*l.assignment);
}

double sum_points(const core::Exercise& ex) {
  double s = 0;
  for (const auto& c : ex.checks) s += c.points;
  return s;
}

// Grades the reference kernels under `a` as a variant declaring `caps`.
grade::GradeReport grade_as(const core::Assignment& a, uint64_t caps) {
  grade::GradeReport r;
  core::GradeOptions o;
  o.every_check_counts = true;
  o.subject_capabilities = caps;
  o.scalar = a.scalar;
  for (const auto& ae : a.exercises) {
    core::ReferenceSubject subject(caps);
    r.exercises.push_back(core::grade_exercise(ae.exercise, subject, o));
  }
  return r;
}

}  // namespace

TEST_CASE("assignment: every bundled assignment loads, one per variant kind", "[assignment]") {
  REQUIRE(bundled().errors.empty());
  for (const char* kind : {"parameter-free", "qkv", "multi-head", "causal"}) {
    INFO(kind);
    const core::Assignment a =
        load_ok(core::bundled_assignment_dir() / (std::string(kind) + ".yaml"));
    CHECK(a.id == kind);
    CHECK_FALSE(a.exercises.empty());
    CHECK(a.max_points() > 0);
  }
}

TEST_CASE("assignment: the qkv assignment meets stability-free lessons with causal and training",
          "[assignment]") {
  const core::Assignment a = load_ok(core::bundled_assignment_dir() / "qkv.yaml");
  CHECK(a.trainable);
  CHECK((a.requires_capabilities & AWB_CAP_CAUSAL) != 0);
  CHECK(a.variant_capabilities == AWB_CAP_QKV);
  // Every check of its exercises is required: nothing is left out.
  for (const auto& e : a.exercises) CHECK(e.left_out == 0);
}

TEST_CASE(
    "assignment: every submission has the same maximum, what it cannot run scores 0 with "
    "the reason",
    "[assignment]") {
  const core::Assignment a = load_ok(core::bundled_assignment_dir() / "qkv.yaml");
  constexpr uint64_t kFull = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_CAUSAL;
  const grade::GradeReport full = grade_as(a, kFull);
  const grade::GradeReport no_causal = grade_as(a, kFull & ~AWB_CAP_CAUSAL);
  const grade::GradeReport f32_only = grade_as(a, AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_CAUSAL);
  CHECK(full.max_score() == Approx(a.max_points()));
  CHECK(no_causal.max_score() == Approx(a.max_points()));
  CHECK(f32_only.max_score() == Approx(a.max_points()));
  CHECK(full.score() == Approx(a.max_points()));
  CHECK(no_causal.score() < full.score());
  // It earns only the checks graded in f32 (qkv-stability's and causal-single-head's).
  CHECK(f32_only.score() > 0);
  CHECK(f32_only.score() < no_causal.score());

  bool said_causal = false;
  for (const auto& e : no_causal.exercises)
    for (const auto& c : e.checks) {
      CHECK(c.status != grade::Status::kNotRun);  // nothing is left uncounted
      if (c.summary == "the assignment requires causal; your variant does not declare it") {
        said_causal = true;
        CHECK(c.points == 0);
        CHECK(c.max_points > 0);
        CHECK(c.status == grade::Status::kFailed);
      }
    }
  CHECK(said_causal);
  CHECK(f32_only.exercises.front().checks.front().summary ==
        "the assignment requires f64; your variant does not declare it");
}

TEST_CASE("assignment: checks it does not require are left out, points are scaled",
          "[assignment]") {
  const fs::path file = write_temp("no-causal.yaml", R"(awb-assignment: 1
id: no-causal
title: "Q/K/V without the mask"
requires: [f64, qkv]
trainable: false
exercises:
  - {id: river-bank, points: 20}
  - resolve-it
)");
  const core::Assignment a = load_ok(file);
  REQUIRE(a.exercises.size() == 2);
  CHECK(sum_points(a.exercises[0].exercise) == Approx(20));
  CHECK(a.exercises[0].points == Approx(20));
  // resolve-it's gradient checks need training, which this assignment does not require.
  const auto& resolve = a.exercises[1];
  CHECK(resolve.left_out > 0);
  for (const auto& c : resolve.exercise.checks) CHECK(c.kind != grade::CheckKind::kGradient);
  CHECK(a.max_points() == Approx(20 + resolve.points));
}

TEST_CASE("assignment: errors name the file, line and column, with a did-you-mean",
          "[assignment]") {
  const fs::path file = write_temp("bad.yaml", R"(awb-assignment: 1
id: bad
title: "bad"
exercises:
  - river-bnak
  - {id: journey, points: -1}
due: "next friday"
late: {percent_per_day: 10, max_days: 3}
requirez: [qkv]
)");
  const core::AssignmentLoad l = core::load_assignment(file, bundled().exercises);
  CHECK_FALSE(l.assignment);
  std::string all;
  for (const auto& e : l.errors) all += std::string(e.what()) + "\n";
  INFO(all);
  CHECK_THAT(all, Catch::Contains("[assignment.unknown_key]") && Catch::Contains("bad.yaml:9:1") &&
                      Catch::Contains("'requires'"));
  CHECK_THAT(all, Catch::Contains("[assignment.unknown_exercise]") &&
                      Catch::Contains("bad.yaml:5:5") && Catch::Contains("'river-bank'"));
  CHECK_THAT(all, Catch::Contains("exercises[1].points: must be > 0"));
  CHECK_THAT(all, Catch::Contains("[assignment.value]") && Catch::Contains("next friday"));
}

// Points beyond any course's (1e308 twice made the total infinite: a perfect submission scored 0
// in JSON and PrairieLearn, "?/?" in the table), a version written as a fraction, a YAML tag and
// a NUL byte are refused, each at its place.
TEST_CASE("assignment: points are bounded, the version whole, no tag and no NUL byte",
          "[assignment]") {
  auto errors_of = [](const std::string& name, const std::string& text) {
    const core::AssignmentLoad l =
        core::load_assignment(write_temp(name, text), bundled().exercises);
    CHECK_FALSE(l.assignment);
    std::string all;
    for (const auto& e : l.errors) all += std::string(e.what()) + "\n";
    return all;
  };
  const std::string huge = errors_of("huge.yaml", R"(awb-assignment: 1
id: huge
title: "huge"
exercises:
  - {id: journey, points: 1e308}
  - {id: river-bank, points: 1e308}
)");
  INFO(huge);
  CHECK_THAT(huge, Catch::Contains("[assignment.value]") && Catch::Contains("huge.yaml:5:27") &&
                       Catch::Contains("exercises[0].points: must be at most 1000000"));
  CHECK_THAT(huge, Catch::Contains("huge.yaml:6:30: exercises[1].points: must be at most 1000000"));
  const std::string total = errors_of("total.yaml", R"(awb-assignment: 1
id: total
title: "total"
exercises:
  - {id: journey, points: 600000}
  - {id: river-bank, points: 600000}
)");
  CHECK_THAT(total,
             Catch::Contains("[assignment.value]") &&
                 Catch::Contains("the exercises' points add up to 1200000; at most 1000000"));
  const std::string version = errors_of("version.yaml", R"(awb-assignment: 1.0
id: version
title: "version"
exercises: [journey]
)");
  CHECK_THAT(version, Catch::Contains("[assignment.type]") &&
                          Catch::Contains("version.yaml:1:17") &&
                          Catch::Contains("must be a whole number"));
  const std::string tag = errors_of("tag.yaml", R"(awb-assignment: 1
id: tag
title: !python/object:os.system "x"
exercises: [journey]
)");
  CHECK_THAT(tag,
             Catch::Contains("[assignment.tag]") && Catch::Contains("'!python/object:os.system'"));
  const std::string nul =
      errors_of("nul.yaml", "awb-assignment: 1\nid: nul\ntitle: \"a" + std::string(1, '\0') +
                                "b\"\nexercises: [journey]\n");
  CHECK_THAT(nul, Catch::Contains("[assignment.nul_byte]") && Catch::Contains("nul.yaml:3:10"));
}

TEST_CASE("assignment: a misspelt required key is reported as the typo, not as missing",
          "[assignment]") {
  const fs::path file = write_temp("typo.yaml", R"(awb-assignment: 1
id: typo
titel: "typo"
exercises:
  - {idd: journey}
due: 2026-12-15
late: {percent_per_dy: 10, max_days: 3}
)");
  const core::AssignmentLoad l = core::load_assignment(file, bundled().exercises);
  CHECK_FALSE(l.assignment);
  std::string all;
  for (const auto& e : l.errors) all += std::string(e.what()) + "\n";
  INFO(all);
  CHECK_THAT(all, Catch::Contains("[assignment.unknown_key] " + file.string() +
                                  ":3:1: titel: unknown key (did you mean 'title'?)"));
  CHECK_THAT(all, Catch::Contains(":5:6: exercises[0].idd: unknown key (did you mean 'id'?)"));
  CHECK_THAT(all, Catch::Contains(
                      ":7:8: late.percent_per_dy: unknown key (did you mean 'percent_per_day'?)"));
  CHECK(l.errors.size() == 3);  // and no missing title, id or percent_per_day besides
  CHECK_THAT(all, !Catch::Contains("missing_key"));
}

TEST_CASE("assignment: lateness counts started days and applies the policy", "[assignment]") {
  core::Assignment a;
  a.due = core::parse_utc_time("2026-12-15T23:59:00Z");
  REQUIRE(a.due);
  CHECK(core::format_utc_time(*a.due) == "2026-12-15T23:59:00Z");
  CHECK(core::parse_utc_time("2026-12-15") == *a.due + 59);
  CHECK_FALSE(core::parse_utc_time("2026-02-31"));
  CHECK_FALSE(core::parse_utc_time("tomorrow"));
  CHECK(core::lateness(a, *a.due).days == 0);
  const auto late = core::lateness(a, *a.due + 86400 + 1);  // a day and a second: 2 days
  CHECK(late.days == 2);
  CHECK(late.kept == 1.0);  // policy none: the score stays, the roster says how late
  a.late = {10, 3};
  CHECK(core::lateness(a, *a.due + 86400 + 1).kept == Approx(0.8));
  CHECK(core::lateness(a, *a.due + 4 * 86400).kept == 0);
}

TEST_CASE("assignment: the graded variant is the one named, the others are listed",
          "[assignment]") {
  core::PluginDesc plugin;
  plugin.id = "edu.student";
  plugin.variants = {{"pf", "", "", AWB_CAP_F64}, {"mine", "", "", AWB_CAP_F64 | AWB_CAP_QKV}};
  const std::vector<core::VariantRef> found = {{&plugin, &plugin.variants[0]},
                                               {&plugin, &plugin.variants[1]}};
  core::Assignment by_caps;
  by_caps.variant_capabilities = AWB_CAP_QKV;
  auto c = core::choose_variant(by_caps, found);
  REQUIRE(c.chosen);
  CHECK(c.chosen->variant->id == "mine");
  CHECK(c.others == std::vector<std::string>{"edu.student:pf"});
  CHECK(c.note.empty());
  core::Assignment by_id;
  by_id.variant_id = "edu.student:pf";
  CHECK(core::choose_variant(by_id, found).chosen->variant->id == "pf");
  core::Assignment missing;
  missing.variant_capabilities = AWB_CAP_MULTI_HEAD | AWB_CAP_QKV;
  c = core::choose_variant(missing, found);
  CHECK(c.chosen->variant->id == "pf");  // the first, so the student still gets feedback
  CHECK(c.note == "no variant declares qkv multi-head; graded edu.student:pf");
}

TEST_CASE("assignment: a capability's earlier spelling still reads (w_o is output-projection)",
          "[assignment]") {
  const std::string head = "awb-assignment: 1\nid: mh\ntitle: \"mh\"\nvariant:\n  capabilities: ";
  const std::string tail = "\nexercises:\n  - multi-head\n";
  const core::Assignment now =
      load_ok(write_temp("now.yaml", head + "[qkv, multi-head, output-projection]" + tail));
  const core::Assignment before =
      load_ok(write_temp("before.yaml", head + "[qkv, multi-head, w_o]" + tail));
  CHECK(now.variant_capabilities == (AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_OUTPUT_PROJ));
  CHECK(before.variant_capabilities == now.variant_capabilities);
  // Printed and listed by the name of today.
  CHECK(core::describe_capabilities(AWB_CAP_OUTPUT_PROJ) == "output-projection");
}
