// teaching_screenshots.tests.cpp: the screenshots of the workbench as a classroom sees it,
// rendered by `awb-gui --screenshot --check-layout` into the build folder's screenshots/ (each
// must show no text cut off), and what each must show checked on the same window built here.
#include <QFile>
#include <QImage>
#include <catch2/catch.hpp>

#include "gui/app/headless.hpp"
#include "gui/views/explore/heads_grid.hpp"
#include "gui/views/explore/layer_view.hpp"
#include "gui/views/explore/question_panel.hpp"
#include "gui/views/train/train_view.hpp"
#include "gui_support.hpp"

using namespace awb;

namespace {

struct Shot {
  const char* file;
  QStringList args;
};

// Renders one screenshot with the layout check; the check's report line is returned.
QString render(const Shot& s) {
  const QString file = QStringLiteral(AWB_TEST_SCREENSHOT_DIR "/") + s.file;
  QFile::remove(file);
  const test::GuiRun gui =
      test::run_gui(s.args + QStringList{"--screenshot", file, "--check-layout"});
  REQUIRE(gui.finished);
  const QString out = gui.out;
  INFO(s.file << ":\n" << out.toStdString() << gui.err.toStdString());
  CHECK(gui.exit_code == 0);
  CHECK(out.contains("no text cut off"));
  const QImage png(file);
  REQUIRE_FALSE(png.isNull());
  return out;
}

gui::ViewOptions options(QString exercise, QStringList variants, QString view, QSize size) {
  gui::ViewOptions o;
  o.exercise = exercise;
  o.plugins = variants;
  o.view = view;
  o.size = size;
  return o;
}

}  // namespace

TEST_CASE("explore on journey: token labels and values on the heatmap",
          "[gui][screenshot][teaching]") {
  render({"teach-explore-journey.png",
          {"--exercise", "journey", "--variant", "parameter-free", "--query", "1"}});
  gui::MainWindow w(test::gui_session());
  QString error;
  REQUIRE(gui::prepare_window(w, options("journey", {"parameter-free"}, "explore", {1280, 800}),
                              &error));
  auto* map = w.explore()->heatmap();
  for (int i = 0; i < 6; ++i) {
    CHECK_FALSE(map->rowLabelRect(i).isEmpty());
    CHECK_FALSE(map->columnLabelRect(i).isEmpty());
    CHECK_FALSE(map->cellText(i, i).isEmpty());  // every value printed in its cell
  }
}

TEST_CASE("compare of four variants at 1920x1080 uses the window", "[gui][screenshot][teaching]") {
  const QStringList variants{"parameter-free", "qkv", "multi-head", "causal"};
  QStringList args{"--view", "compare", "--exercise", "river-bank", "--size", "1920x1080"};
  for (const auto& v : variants) args << "--variant" << v;
  render({"teach-compare-four.png", args});
  gui::MainWindow w(test::gui_session());
  QString error;
  REQUIRE(gui::prepare_window(w, options("river-bank", variants, "compare", {1920, 1080}), &error));
  CHECK(w.compare()->metricsTable()->rowCount() == 5);
  for (int i = 0; i < 5; ++i) CHECK(w.compare()->heatmap(i)->width() > 300);
}

TEST_CASE("the heads grid on multi-head", "[gui][screenshot][teaching]") {
  render({"teach-heads-multi-head.png",
          {"--view", "explore-heads", "--exercise", "multi-head", "--variant", "multi-head"}});
  gui::MainWindow w(test::gui_session());
  QString error;
  REQUIRE(gui::prepare_window(
      w, options("multi-head", {"multi-head"}, "explore-heads", {1280, 800}), &error));
  CHECK(w.explore()->headsGrid()->count() == 2);
}

TEST_CASE("the layer view on animal-road for \"it\"", "[gui][screenshot][teaching]") {
  render({"teach-layers-animal-road.png",
          {"--view", "explore-layers", "--exercise", "animal-road", "--case", "tired", "--variant",
           "qkv", "--query", "7"}});
  auto o = options("animal-road", {"qkv"}, "explore-layers", {1280, 800});
  o.case_id = "tired";
  o.query = 7;
  gui::MainWindow w(test::gui_session());
  QString error;
  REQUIRE(gui::prepare_window(w, o, &error));
  CHECK(w.explore()->layerView()->layers() == 2);
}

TEST_CASE("predict, then reveal: before and after the answer", "[gui][screenshot][teaching]") {
  const QStringList ask{"--exercise", "animal-road", "--variant", "qkv", "--question", "it-tired"};
  render({"teach-question-before.png", ask});
  render({"teach-question-after.png", ask + QStringList{"--answer", "1"}});
  auto o = options("animal-road", {"qkv"}, "explore", {1280, 800});
  o.question = "it-tired";
  gui::MainWindow w(test::gui_session());
  QString error;
  REQUIRE(gui::prepare_window(w, o, &error));
  CHECK(w.explore()->weightsHidden());
  w.explore()->answerQuestion(1);  // "animal"
  CHECK_FALSE(w.explore()->weightsHidden());
  CHECK(w.explore()->questionPanel()->verdictLabel()->text().contains("Right."));
}

TEST_CASE("the training view after training resolve-it", "[gui][screenshot][teaching]") {
  render({"teach-train-resolve-it.png",
          {"--view", "train", "--exercise", "resolve-it", "--variant", "qkv"}});
  gui::MainWindow w(test::gui_session());
  QString error;
  REQUIRE(gui::prepare_window(w, options("resolve-it", {"qkv"}, "train", {1280, 800}), &error));
  REQUIRE(w.train()->outcome());
  CHECK(w.train()->outcome()->succeeded());
  CHECK(w.train()->losses().size() > 2);
}

TEST_CASE("presentation mode on 1920x1080: type of 24 px (zoom 200 %)",
          "[gui][screenshot][teaching]") {
  const QString out = render({"teach-presentation-1080.png",
                              {"--exercise", "animal-road", "--case", "tired", "--variant", "qkv",
                               "--query", "7", "--presentation", "--size", "1920x1080"}});
  CHECK(out.contains("zoom 200%"));
}
