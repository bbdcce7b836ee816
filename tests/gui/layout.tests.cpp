// layout.tests.cpp: every view holds its layout where a classroom shows it: no text cut off
// (elided, clipped or drawn outside its widget), no plot or slider squeezed below the room it is
// read in, and a window no larger than the screen, on 1280×720, 1280×800, 1920×1080 and
// 3840×2160 screens at zoom 100, 150 and 200 %, in and out of presentation mode, and at Qt's
// own scale 2 (QT_SCALE_FACTOR, a high-DPI projector). Each view is a real
// `awb-gui --check-layout` process. And the check itself fails where it should.
#include <QLabel>
#include <QSlider>
#include <QVBoxLayout>
#include <catch2/catch.hpp>

#include "gui/charts/bar_chart.hpp"
#include "gui/charts/layout_check.hpp"
#include "gui_support.hpp"

using namespace awb;

namespace {

struct ViewCase {
  const char* name;
  QStringList args;
};

std::vector<ViewCase> views() {
  return {
      {"explore journey", {"--exercise", "journey", "--variant", "parameter-free"}},
      {"explore animal-road",
       {"--exercise", "animal-road", "--case", "tired", "--variant", "qkv", "--query", "7"}},
      {"explore multi-head",
       {"--exercise", "multi-head", "--variant", "multi-head", "--head", "1"}},
      {"compare four variants",
       {"--view", "compare", "--exercise", "river-bank", "--variant", "parameter-free", "--variant",
        "qkv", "--variant", "multi-head", "--variant", "causal"}},
      {"grade a mutant",
       {"--view", "grade", "--exercise", "journey", "--plugin-dir", AWB_TEST_MUTANT, "--variant",
        "org.awb.mutant.divide-by-sum:parameter-free"}},
      {"bench", {"--view", "bench", "--exercise", "journey", "--variant", "parameter-free"}},
      {"every head",
       {"--view", "explore-heads", "--exercise", "multi-head", "--variant", "multi-head"}},
      {"layers",
       {"--view", "explore-layers", "--exercise", "animal-road", "--case", "tired", "--variant",
        "qkv", "--query", "7"}},
      {"a question, answered",
       {"--exercise", "animal-road", "--variant", "qkv", "--question", "it-tired", "--answer",
        "1"}},
      {"train", {"--view", "train", "--exercise", "resolve-it", "--variant", "qkv"}},
  };
}

// Runs the check; returns its report, failing the test when any text is cut off.
void check_layout(const ViewCase& v, const QString& size, const QString& scale,
                  const QStringList& extra = {}) {
  const test::GuiRun gui = test::run_gui(
      v.args + QStringList{"--check-layout", "--size", size} + extra, {"QT_SCALE_FACTOR=" + scale});
  REQUIRE(gui.finished);
  const QString& out = gui.out;
  INFO(v.name << " at " << size.toStdString() << ", scale " << scale.toStdString() << " "
              << extra.join(' ').toStdString() << "\n"
              << out.toStdString() << gui.err.toStdString());
  CHECK(gui.exit_code == 0);
  CHECK(out.contains("no text cut off"));
}

}  // namespace

// Every screen, zoom and mode in one process per view: one line per configuration.
void check_every_screen(const ViewCase& v) {
  const QStringList matrix{"--size", "1280x720",  "--size",       "1280x800",
                           "--size", "1920x1080", "--size",       "3840x2160",
                           "--zoom", "100",       "--zoom",       "150",
                           "--zoom", "200",       "--both-modes", "--check-layout"};
  const test::GuiRun gui = test::run_gui(v.args + matrix, {"QT_SCALE_FACTOR=1"});
  REQUIRE(gui.finished);
  INFO(v.name << "\n" << gui.out.toStdString() << gui.err.toStdString());
  CHECK(gui.exit_code == 0);
  // 4 screens × 3 zooms × 2 modes, each laid out and checked.
  CHECK(gui.out.count("no text cut off, no plot collapsed, fits the screen") == 24);
  CHECK(gui.out.count(", presentation)") == 12);
}

TEST_CASE("no text is cut off at 1280x800, scale 2", "[gui][layout]") {
  for (const auto& v : views()) check_layout(v, "1280x800", "2");
}

TEST_CASE("no text is cut off at 1920x1080, scale 2", "[gui][layout]") {
  for (const auto& v : views()) check_layout(v, "1920x1080", "2");
}

TEST_CASE("explore views hold on every screen, zoom and mode", "[gui][layout]") {
  for (const auto& v : views())
    if (!v.args.contains("--view") || v.args.contains("explore-heads") ||
        v.args.contains("explore-layers"))
      check_every_screen(v);
}

TEST_CASE("compare, grade, bench and train hold on every screen, zoom and mode", "[gui][layout]") {
  for (const auto& v : views())
    if (v.args.contains("--view") && !v.args.contains("explore-heads") &&
        !v.args.contains("explore-layers"))
      check_every_screen(v);
}

TEST_CASE("the layout check fails on a collapsed chart, a short slider and a window too tall",
          "[gui][layout]") {
  // Bars in 60 px of height: the title, values and labels leave the plot a few pixels.
  QWidget window;
  auto* bars = new gui::BarChart(&window);
  bars->setTitle("weights");
  bars->setValues({0.2, 0.5, 0.3}, {false, false, false}, {"a", "b", "c"}, 1);
  bars->setGeometry(0, 0, 300, 60);
  auto* slider = new QSlider(Qt::Horizontal, &window);
  slider->setGeometry(0, 70, 40, 20);
  window.resize(320, 100);
  window.show();
  const auto collapsed = gui::find_collapsed_plots(&window);
  REQUIRE(collapsed.size() == 2);
  CHECK(collapsed[0].widget.contains("bars, height"));
  CHECK(collapsed[0].available < collapsed[0].needed);
  CHECK(collapsed[1].text == "slider");
  CHECK(collapsed[1].available == 40);
  // The same chart given its least size passes.
  bars->resize(bars->minimumSizeHint());
  slider->resize(8 * slider->fontMetrics().height(), 20);
  CHECK(gui::find_collapsed_plots(&window).empty());

  // A window whose layout needs 900 px of height, checked for a 1280 × 720 screen.
  QWidget tall;
  auto* column = new QVBoxLayout(&tall);
  auto* block = new QWidget;
  block->setMinimumHeight(900);
  column->addWidget(block);
  tall.resize(600, 700);
  tall.show();
  const gui::LayoutReport report = gui::check_layout(&tall, QSize(1280, 720));
  CHECK_FALSE(report.ok());
  REQUIRE_FALSE(report.oversized.empty());
  CHECK(report.oversized.front().needed >= 900);
  CHECK(report.oversized.front().available == 720);
  CHECK(report.summary().contains("larger than the screen"));
  // And for a screen that holds it, it fits.
  tall.resize(600, 950);
  CHECK(gui::check_layout(&tall, QSize(1920, 1080)).oversized.empty());
}

TEST_CASE("the layout check finds a label that is cut off", "[gui][layout]") {
  // The checker itself: a label squeezed below its text's width, and one that fits.
  QWidget window;
  auto* cut = new QLabel("a label far too long for forty pixels", &window);
  cut->setGeometry(0, 0, 40, 30);
  auto* fits = new QLabel("ok", &window);
  fits->setGeometry(0, 40, 200, 30);
  window.resize(300, 100);
  window.show();
  const auto clipped = awb::gui::find_clipped_text(&window);
  REQUIRE(clipped.size() == 1);
  CHECK(clipped[0].text == cut->text());
  CHECK(clipped[0].available == 40);
  CHECK(clipped[0].needed > 40);
}
