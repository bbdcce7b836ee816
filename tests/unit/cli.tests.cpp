// cli.tests.cpp: one CLI vocabulary: the exit-code table keyed by error id, and the
// did-you-mean of every name the command line takes (variants, cases, examples).
#include <catch2/catch.hpp>
#include <functional>

#include "cli/exit_codes.hpp"
#include "core/base/did_you_mean.hpp"
#include "core/exercises/problem_file.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/error.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

Error error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected an awb::Error");
  return Error("none", "");
}

}  // namespace

TEST_CASE("one exit code per error id, whatever the command", "[cli][exit]") {
  using namespace awb::cli;
  // A name that names nothing is the command line's fault.
  CHECK(exit_code_for("exercise.not_found") == kExitUsage);
  CHECK(exit_code_for("exercise.case_not_found") == kExitUsage);
  CHECK(exit_code_for("example.unknown") == kExitUsage);
  CHECK(exit_code_for("assignment.not_found") == kExitUsage);
  // A reader's ids go by their family; an exact row wins over it.
  CHECK(exit_code_for("problem.shape") == kExitBadInput);
  CHECK(exit_code_for("exercise.unknown_key") == kExitBadInput);
  CHECK(exit_code_for("assignment.type") == kExitBadInput);
  CHECK(exit_code_for("exercise.unknown_case") == kExitBadInput);
  CHECK(exit_code_for("plugin.variant_not_found") == kExitPluginError);
  CHECK(exit_code_for("plugin.load_failed") == kExitPluginError);
  // The same condition in run, compare and train.
  CHECK(exit_code_for("run.cannot_run") == kExitCannotRun);
  CHECK(exit_code_for("plugin.no_backward") == kExitCannotRun);
  CHECK(exit_code_for("plugin.forward_failed") == kExitFailed);
  CHECK(exit_code_for("runner.wall_limit") == kExitFailed);
  CHECK(exit_code_for("no.such_id") == kExitFailed);
  CHECK(exit_code_for("plugin") == kExitFailed);  // a family needs its dot
}

TEST_CASE("did-you-mean suggests only names within two edits", "[cli][did_you_mean]") {
  CHECK(core::did_you_mean("qvk", {"qkv", "causal"}) == "qkv");
  CHECK(core::did_you_mean("zzzzzz", {"qkv", "causal"}).empty());
  CHECK(core::did_you_mean_note("casual", {"qkv", "causal"}) == " (did you mean 'causal'?)");
  CHECK(core::did_you_mean_note("zzzzzz", {"qkv"}).empty());
}

TEST_CASE("an unknown variant is named with the closest one", "[cli][did_you_mean][plugin]") {
  const auto& cat = test::bundled_catalog();
  Error e = error_of([&] { core::find_variant(cat, "qvk"); });
  CHECK(e.id() == "plugin.variant_not_found");
  CHECK_THAT(e.message(), Catch::Contains("'qvk' (did you mean 'qkv'?)"));
  e = error_of([&] { core::find_variant(cat, "org.awb.qkv:qvk"); });
  CHECK_THAT(e.message(), Catch::Contains("(did you mean 'org.awb.qkv:qkv'?)"));
  e = error_of([&] { core::find_variant(cat, "something-else-entirely"); });
  CHECK_THAT(e.message(), !Catch::Contains("did you mean"));
}

TEST_CASE("an unknown case or example is named with the closest one", "[cli][did_you_mean]") {
  const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  const core::Exercise& ex = core::find_exercise(set, "animal-road");
  Error e = error_of([&] { core::case_input(ex, "wdie"); });
  CHECK(e.id() == "exercise.case_not_found");
  CHECK_THAT(e.message(), Catch::Contains("no case 'wdie' (did you mean 'wide'?)"));
  CHECK_THAT(e.message(), Catch::Contains("its cases: "));
  e = error_of([&] { core::example_problem("journy"); });
  CHECK(e.id() == "example.unknown");
  CHECK_THAT(e.message(), Catch::Contains("(did you mean 'journey'?)"));
  CHECK(error_of([&] { core::find_exercise(set, "river-bnak"); })
            .message()
            .find("did you mean 'river-bank'") != std::string::npos);
}
