// train.tests.cpp: the train view on resolve-it through the bundled Q/K/V plugin: Start against
// what core::train reports, the speed pacing Start a step per tick, Pause, Resume and Step, the
// saved weights loading back, the disabled states; an untrusted plugin's runners ending with
// their jobs; `awb-gui --view train --screenshot`.
#include <unistd.h>

#include <QElapsedTimer>
#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>

#include "core/plugins/subjects.hpp"
#include "core/runner_client/runner_zygote.hpp"
#include "gui/app/headless.hpp"
#include "gui_support.hpp"

using namespace awb;
using Catch::Matchers::WithinRel;

namespace {

// The window on the train tab with `exercise` and `variant` selected, its other views idle.
struct TrainWindow {
  gui::MainWindow window;
  TrainWindow(const QString& exercise, const QString& variant,
              gui::Session& session = test::gui_session())
      : window(session) {
    window.resize(1280, 800);
    window.show();
    REQUIRE(window.setView("train"));
    REQUIRE(window.selectExercise(exercise));
    REQUIRE(window.selectVariants({variant}));
    REQUIRE(test::wait_for([&] { return !window.busy(); }));
  }
  gui::TrainView* view() const { return window.train(); }
};

const core::Exercise& resolve_it() {
  const core::Exercise* ex = test::gui_session().exercise("resolve-it");
  REQUIRE(ex);
  REQUIRE(ex->train);
  return *ex;
}

// The exercise's text with its layers: section replaced by `layers_file`, parsed again.
core::ExerciseLoad with_layers(const core::Exercise& ex, const std::string& layers_file) {
  std::ifstream in(ex.file);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const size_t from = text.find("\nlayers:"), to = text.find("\ncases:");
  REQUIRE((from != std::string::npos && to != std::string::npos));
  return core::parse_exercise(text.substr(0, from + 1) + layers_file + text.substr(to + 1),
                              "learned.yaml");
}

// The awb-runner processes this process has started and not yet reaped.
std::set<int> runner_children() {
  std::set<int> pids;
  for (const auto& entry : std::filesystem::directory_iterator("/proc")) {
    std::ifstream stat(entry.path() / "stat");
    std::string comm, state;
    int pid = 0, ppid = 0;
    if (stat >> pid >> comm >> state >> ppid && ppid == getpid() && comm == "(awb-runner)" &&
        pid != core::zygote_spare_pid())  // the zygote's spare waits for the next runner's job
      pids.insert(pid);
  }
  return pids;
}

// The runners in `now` that were not in `before`.
std::vector<int> new_runners(const std::set<int>& before, const std::set<int>& now) {
  std::vector<int> out;
  std::set_difference(now.begin(), now.end(), before.begin(), before.end(),
                      std::back_inserter(out));
  return out;
}

}  // namespace

TEST_CASE("train view: Start trains resolve-it live to what core::train reports", "[gui][train]") {
  TrainWindow tw("resolve-it", "qkv");
  gui::TrainView* tv = tw.view();
  REQUIRE(tv->whyNot().isEmpty());
  REQUIRE(tv->startButton()->isEnabled());
  CHECK_FALSE(tv->saveButton()->isEnabled());  // nothing learned yet
  tv->setStepsPerSecond(0);                    // as fast as possible: one job to the end
  QSignalSpy progressed(tv, &gui::TrainView::progressed);
  tv->start();
  CHECK_FALSE(tv->pacer()->isActive());
  CHECK(tv->busy());
  CHECK(tv->stopButton()->isEnabled());
  REQUIRE(test::wait_for([&] { return !tv->busy(); }));
  CHECK(progressed.count() >= 2);  // drawn as it went, not once at the end

  const core::Exercise& ex = resolve_it();
  const int steps = ex.train->steps;
  CHECK(tv->stepsTaken() == steps);
  // A point per step and the final loss, as the chart draws them.
  REQUIRE(tv->losses().size() == size_t(steps) + 1);
  CHECK(tv->lossChart()->points() == tv->losses());
  CHECK(tv->losses().back().y() < tv->losses().front().y());

  // The same loop as `awb train`: its trace and criteria, number for number.
  core::VariantSubject subject(core::find_variant(*test::gui_session().catalog(), "qkv"), {});
  const core::TrainOutcome expected = core::train(ex, subject);
  for (const auto& [step, loss] : expected.trace)
    CHECK_THAT(tv->losses()[size_t(step)].y(), WithinRel(loss, 1e-9));
  REQUIRE(tv->outcome());
  CHECK(tv->judgedAt() == steps);
  const core::TrainOutcome& got = *tv->outcome();
  CHECK_THAT(got.final_loss, WithinRel(expected.final_loss, 1e-9));
  CHECK(got.loss_met == expected.loss_met);
  REQUIRE(got.success_checks.checks.size() == expected.success_checks.checks.size());
  for (size_t i = 0; i < got.success_checks.checks.size(); ++i)
    CHECK(got.success_checks.checks[i].status == expected.success_checks.checks[i].status);
  CHECK(expected.succeeded());
  CHECK(got.succeeded());

  // Every criterion ticked: loss_below and the four success checks.
  auto* table = tv->criteriaTable();
  REQUIRE(table->rowCount() == 5);
  for (int r = 0; r < table->rowCount(); ++r) {
    INFO(table->item(r, 0)->text().toStdString()
         << ": " << table->item(r, 1)->text().toStdString());
    CHECK(table->item(r, 1)->text().startsWith("✓"));
  }
  // The targets' attention: "it" on "animal" (tired) and on "road" (wide), row outlined.
  REQUIRE(tv->targetHeatmaps().size() == 2);
  for (size_t i = 0; i < 2; ++i) {
    const core::TrainTarget& t = ex.train->targets[i];
    const Matrix& a = tv->targetHeatmaps()[i]->matrix();
    REQUIRE(a.rows == int64_t(ex.cases[size_t(t.case_index)].tokens.size()));
    CHECK(a(t.query, t.key) > 0.9);
    CHECK_THAT(a(t.query, t.key), WithinRel(expected.targets[i].weights(t.query, t.key), 1e-9));
  }
  CHECK(tv->saveButton()->isEnabled());
  CHECK_FALSE(tv->stepButton()->isEnabled());  // the budget is spent; Start begins again
}

TEST_CASE("train view: Pause ends a run within a step, and Step runs kStepSteps and pauses",
          "[gui][train]") {
  // resolve-it with a budget no test waits for: only Stop can end this run.
  core::Exercise long_run = resolve_it();
  long_run.train->steps = 100000;
  gui::TrainView tv(test::gui_session());
  tv.setVariant("qkv");
  tv.setExercise(&long_run);
  REQUIRE(tv.whyNot().isEmpty());
  tv.start();
  REQUIRE(test::wait_for([&] { return tv.stepsTaken() >= 3; }));
  QElapsedTimer timer;
  timer.start();
  tv.stop();
  CHECK_FALSE(tv.playing());
  CHECK_FALSE(tv.pacer()->isActive());
  CHECK_FALSE(tv.stopButton()->isEnabled());
  REQUIRE(test::wait_for([&] { return !tv.busy(); }, 5000));
  // A step of resolve-it takes milliseconds; a second is a wide margin for a loaded machine.
  CHECK(timer.elapsed() < 1000);
  const int stopped_at = tv.stepsTaken();
  CHECK(stopped_at < 1000);
  CHECK(tv.startButton()->isEnabled());
  CHECK(tv.startButton()->text() == "Re&sume");

  const size_t points = tv.losses().size();
  const std::vector<double> map_before = tv.targetHeatmaps()[0]->matrix().data;
  tv.step();
  CHECK(tv.stepping());
  CHECK_FALSE(tv.playing());  // one step, then paused
  REQUIRE(test::wait_for([&] { return !tv.busy(); }));
  CHECK(tv.stepsTaken() == stopped_at + gui::TrainView::kStepSteps);
  // A point per step and one at the weights it paused at, as the chart draws them.
  CHECK(tv.losses().size() > points);
  CHECK(tv.losses().size() == size_t(tv.stepsTaken()) + 1);
  CHECK(tv.losses().back().x() == tv.stepsTaken());
  CHECK(tv.lossChart()->points() == tv.losses());
  // Step ends judged: the criteria and the maps shown are those of the weights it paused at.
  CHECK(tv.judgedAt() == tv.stepsTaken());
  REQUIRE(tv.outcome());
  for (size_t i = 0; i < tv.targetHeatmaps().size(); ++i)
    CHECK(tv.targetHeatmaps()[i]->matrix().data == tv.outcome()->targets[i].weights.data);
  CHECK(tv.targetHeatmaps()[0]->matrix().data != map_before);
  tv.step();
  REQUIRE(test::wait_for([&] { return !tv.busy(); }));
  CHECK(tv.stepsTaken() == stopped_at + 2 * gui::TrainView::kStepSteps);

  SECTION("Reset goes back to step 0") {
    tv.reset();
    CHECK(tv.stepsTaken() == 0);
    CHECK(tv.losses().empty());
    CHECK_FALSE(tv.outcome());
    CHECK_FALSE(tv.saveButton()->isEnabled());
  }
}

TEST_CASE("train view: the speed paces Start one step per tick, and full speed runs to the end",
          "[gui][train][speed]") {
  gui::TrainView tv(test::gui_session());
  tv.setVariant("qkv");
  tv.setExercise(&resolve_it());
  REQUIRE(tv.whyNot().isEmpty());
  // Slow enough to watch unless asked otherwise; the box offers each speed.
  CHECK(tv.stepsPerSecond() == gui::TrainView::kDefaultSpeed);
  CHECK(tv.speedBox()->count() == int(gui::TrainView::kSpeeds.size()));
  CHECK(tv.speedBox()->currentData().toInt() == gui::TrainView::kDefaultSpeed);
  tv.speedBox()->setCurrentIndex(tv.speedBox()->findData(2));  // as a click would
  CHECK(tv.stepsPerSecond() == 2);
  tv.setStepsPerSecond(3);  // not offered: ignored
  CHECK(tv.stepsPerSecond() == 2);

  tv.start();
  CHECK(tv.playing());
  CHECK(tv.stepping());  // the first step at once
  REQUIRE(tv.pacer()->isActive());
  CHECK(tv.pacer()->interval() == 500);
  tv.pacer()->stop();  // the test holds the clock from here: each tick is a call
  REQUIRE(test::wait_for([&] { return !tv.stepping(); }));
  CHECK(tv.stepsTaken() == 1);
  CHECK(tv.busy());  // playing between its steps
  CHECK(tv.stopButton()->isEnabled());
  CHECK_FALSE(tv.stepButton()->isEnabled());

  std::vector<double> map_before = tv.targetHeatmaps()[1]->matrix().data;
  for (int k = 2; k <= 4; ++k) {
    tv.tick();
    CHECK(tv.stepping());
    tv.tick();  // the step still runs: this tick passes
    REQUIRE(test::wait_for([&] { return !tv.stepping(); }));
    CHECK(tv.stepsTaken() == k);
    // Each paced step is drawn: its loss point, the criteria and both maps at its weights.
    CHECK(tv.losses().size() == size_t(k) + 1);
    CHECK(tv.lossChart()->points() == tv.losses());
    CHECK(tv.judgedAt() == k);
    REQUIRE(tv.outcome());
    REQUIRE(tv.targetHeatmaps().size() == 2);
    for (size_t i = 0; i < 2; ++i)
      CHECK(tv.targetHeatmaps()[i]->matrix().data == tv.outcome()->targets[i].weights.data);
    CHECK(tv.targetHeatmaps()[1]->matrix().data != map_before);
    map_before = tv.targetHeatmaps()[1]->matrix().data;
  }

  // A change of speed while it plays retimes the pacer.
  tv.setStepsPerSecond(10);
  CHECK(tv.pacer()->interval() == 100);
  CHECK(tv.pacer()->isActive());
  tv.pacer()->stop();

  // Pause, then Resume from the same step.
  tv.stop();
  CHECK_FALSE(tv.busy());
  tv.tick();  // a tick after the pause runs nothing
  CHECK_FALSE(tv.stepping());
  CHECK(tv.stepsTaken() == 4);
  CHECK(tv.startButton()->text() == "Re&sume");
  tv.start();
  tv.pacer()->stop();
  REQUIRE(test::wait_for([&] { return !tv.stepping(); }));
  CHECK(tv.stepsTaken() == 5);

  // As fast as possible: no pacer, one job to the end of the budget.
  tv.setStepsPerSecond(0);
  CHECK_FALSE(tv.pacer()->isActive());
  CHECK(tv.stepping());
  REQUIRE(test::wait_for([&] { return !tv.busy(); }));
  CHECK(tv.stepsTaken() == resolve_it().train->steps);
  CHECK_FALSE(tv.playing());
  CHECK(tv.judgedAt() == tv.stepsTaken());
  CHECK(tv.startButton()->text() == "&Start");  // the budget is spent: Start begins again
}

TEST_CASE("train view: the saved weights are awb train --out's file and load back as layers",
          "[gui][train]") {
  gui::TrainView tv(test::gui_session());
  tv.setVariant("qkv");
  tv.setExercise(&resolve_it());
  QTemporaryDir dir;
  const QString path = dir.filePath("learned.yaml");
  QString error;
  CHECK_FALSE(tv.saveWeights(path, &error));  // nothing learned yet
  CHECK(error.contains("nothing learned"));
  for (int i = 0; i < 3; ++i) {
    tv.step();
    REQUIRE(test::wait_for([&] { return !tv.busy(); }));
  }
  REQUIRE(tv.outcome());
  REQUIRE(tv.judgedAt() == tv.stepsTaken());
  REQUIRE(tv.saveWeights(path, &error));
  QFile file(path);
  REQUIRE(file.open(QIODevice::ReadOnly));
  const std::string text = file.readAll().toStdString();
  const auto& learned = tv.outcome()->layers;  // judged at the weights the view holds now
  CHECK(text == core::learned_weights_file(resolve_it(), learned));

  const core::ExerciseLoad loaded = with_layers(resolve_it(), text);
  REQUIRE(loaded.errors.empty());
  const auto& layers = loaded.exercise->layers;
  REQUIRE(layers.size() == learned.size());
  for (size_t l = 0; l < layers.size(); ++l) {
    CHECK(layers[l].w_q->data == learned[l].w_q->data);
    CHECK(layers[l].w_k->data == learned[l].w_k->data);
    CHECK(layers[l].w_v->data == learned[l].w_v->data);
    CHECK(layers[l].residual == learned[l].residual);
  }
  // Three steps from random weights have moved them.
  CHECK(layers[1].w_q->data != core::initial_weights(resolve_it())[1].w_q->data);
}

TEST_CASE("train view: an exercise without train: and a variant that cannot train say why",
          "[gui][train]") {
  SECTION("no train section") {
    TrainWindow tw("journey", "parameter-free");
    gui::TrainView* tv = tw.view();
    CHECK(tv->whyNot().contains("journey has no train: section"));
    CHECK(tv->whyNot().contains("resolve-it"));  // where to go instead
    CHECK(tv->noteLabel()->isVisibleTo(tv));
    CHECK(tv->noteLabel()->text() == tv->whyNot());
    for (QPushButton* b : {tv->startButton(), tv->stopButton(), tv->stepButton(), tv->saveButton()})
      CHECK_FALSE(b->isEnabled());
    tv->start();  // ignored
    CHECK_FALSE(tv->busy());
    CHECK(tv->criteriaTable()->rowCount() == 0);
    CHECK_FALSE(tv->lossChart()->isVisibleTo(tv));
  }
  SECTION("a variant without the capabilities the exercise needs") {
    TrainWindow tw("resolve-it", "parameter-free");
    gui::TrainView* tv = tw.view();
    CHECK(tv->whyNot().startsWith("parameter-free cannot train on resolve-it: "));
    CHECK_FALSE(tv->startButton()->isEnabled());
    CHECK_FALSE(tv->stepButton()->isEnabled());
  }
}

TEST_CASE("train view: an untrusted plugin trains in a runner that ends with each job",
          "[gui][train]") {
  // The divide-by-sum mutant's qkv variant, loaded from outside the bundled folder: a runner's.
  TrainWindow tw("resolve-it", "org.awb.mutant.divide-by-sum:qkv", test::mutant_session());
  gui::TrainView* tv = tw.view();
  REQUIRE(tv->whyNot().isEmpty());
  // The other views keep a warm runner for the variant; the train view's are its jobs' own.
  const std::set<int> before = runner_children();
  tv->step();
  REQUIRE(test::wait_for([&] { return !tv->busy(); }));
  CHECK(tv->stepsTaken() == gui::TrainView::kStepSteps);
  CHECK(new_runners(before, runner_children()).empty());
  // Its unnormalised "weights" make the loss undefined within a few steps: the run ends there,
  // saying why, and its runner goes too.
  tv->start();
  REQUIRE(test::wait_for([&] { return !tv->busy(); }));
  CHECK(tv->stepsTaken() < resolve_it().train->steps);
  CHECK(tv->statusLabel()->text().contains("train.diverged"));
  CHECK(new_runners(before, runner_children()).empty());
  CHECK(tv->startButton()->isEnabled());
}

TEST_CASE("train view: a loss that runs uphill is diagnosed in the status line", "[gui][train]") {
  // The mutant whose backward returns every gradient negated (beside divide-by-sum's file, as a
  // submission): Adam climbs the loss.
  const auto sign_flip =
      std::filesystem::path(AWB_TEST_MUTANT).parent_path() / "mutant_gradient_sign_flip.so";
  gui::Session session({AWB_TEST_PLUGIN_DIR, QString::fromStdString(sign_flip.string())},
                       {AWB_TEST_EXERCISE_DIR}, gui::Session::Memory::kThisRunOnly);
  TrainWindow tw("previous-token", "org.awb.mutant.gradient-sign-flip:causal", session);
  gui::TrainView* tv = tw.view();
  REQUIRE(tv->whyNot().isEmpty());
  tv->setStepsPerSecond(0);  // the whole budget: only its end is judged here
  tv->start();
  REQUIRE(test::wait_for([&] { return !tv->busy(); }));
  INFO(tv->statusLabel()->text().toStdString());
  CHECK(
      tv->statusLabel()->text().contains("not trained, a criterion is not met; the loss rose "
                                         "over 200 steps"));
  CHECK(tv->statusLabel()->text().contains("the gradient's sign is likely flipped"));
}

TEST_CASE("awb-gui --view train --screenshot renders a finished run", "[gui][train][screenshot]") {
  const QString file = QStringLiteral(AWB_TEST_SCREENSHOT_DIR "/train-resolve-it.png");
  QFile::remove(file);
  const test::GuiRun gui = test::run_gui(
      {"--exercise", "resolve-it", "--variant", "qkv", "--view", "train", "--screenshot", file});
  REQUIRE(gui.finished);
  INFO(gui.err.toStdString());
  REQUIRE(gui.exit_code == 0);
  QImage png(file);
  REQUIRE_FALSE(png.isNull());

  gui::MainWindow window(test::gui_session());
  gui::ViewOptions o;
  o.exercise = "resolve-it";
  o.plugins = {"qkv"};
  o.view = "train";
  QString error;
  REQUIRE(gui::prepare_window(window, o, &error));
  REQUIRE(png.size() == test::grab(&window).size());
  gui::TrainView* tv = window.train();
  REQUIRE(tv->stepsTaken() == resolve_it().train->steps);
  // The learned target cell ("it" → "animal") in the map's colour for its weight.
  const core::TrainTarget& t = resolve_it().train->targets[0];
  gui::HeatmapWidget* map = tv->targetHeatmaps()[0];
  const QPointF at = test::map_to(map, &window, map->cellRect(t.query, t.key).center());
  CHECK(test::rgb_text(test::pixel_at(png, at)) ==
        test::rgb_text(map->colorFor(map->matrix()(t.query, t.key))));
}
