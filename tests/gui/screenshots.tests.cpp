// screenshots.tests.cpp: the five acceptance screenshots, rendered by `awb-gui --screenshot`
// into the build folder, then checked pixel by pixel against the same window built here.
#include <QFile>
#include <catch2/catch.hpp>

#include "gui/colormap.hpp"
#include "gui/headless.hpp"
#include "gui_support.hpp"

using namespace awb;

namespace {

struct Shot {
  const char* file;
  gui::ViewOptions options;
};

// The acceptance list: explore on journey, explore on animal/road (the top layer, "it"), compare of
// parameter-free vs Q/K/V on river-bank, multi-head explore on head 1, grade of a mutant.
std::vector<Shot> shots() {
  auto opts = [](QString ex, QStringList plugins, QString view, int query = -1, int head = 0,
                 QString case_id = {}) {
    gui::ViewOptions o;
    o.exercise = ex;
    o.plugins = plugins;
    o.view = view;
    o.query = query;
    o.head = head;
    o.case_id = case_id;
    return o;
  };
  return {
      {"explore-journey.png", opts("journey", {"parameter-free"}, "explore", 1)},
      {"explore-animal-road.png", opts("animal-road", {"qkv"}, "explore", 7, 0, "tired")},
      {"compare-river-bank.png", opts("river-bank", {"parameter-free", "qkv"}, "compare")},
      {"explore-multi-head.png", opts("multi-head", {"multi-head"}, "explore", 7, 1)},
      {"grade-mutant.png",
       opts("journey", {"org.awb.mutant.divide-by-sum:parameter-free"}, "grade")},
  };
}

QStringList arguments(const Shot& s, const QString& file) {
  const auto& o = s.options;
  QStringList args{"--exercise", o.exercise, "--view", o.view, "--screenshot", file};
  if (o.view == "grade") args << "--plugin-dir" << AWB_TEST_MUTANT;
  for (const auto& p : o.plugins) args << "--variant" << p;
  if (o.query >= 0) args << "--query" << QString::number(o.query);
  if (o.head > 0) args << "--head" << QString::number(o.head);
  if (!o.case_id.isEmpty()) args << "--case" << o.case_id;
  return args;
}

// The largest weight of the highlighted row: its cell in the screenshot has the map's colour.
void check_largest_cell(const QImage& png, gui::MainWindow& w, gui::HeatmapWidget* map, int row) {
  const Matrix& a = map->matrix();
  int best = 0;
  for (int c = 1; c < a.cols; ++c)
    if (a(row, c) > a(row, best)) best = c;
  const QPointF at = test::map_to(map, &w, map->swatchPoint(row, best));
  INFO("row " << row << " largest weight " << a(row, best) << " at column " << best);
  CHECK(test::rgb_text(test::pixel_at(png, at)) == test::rgb_text(map->colorFor(a(row, best))));
}

// The weight bars in the screenshot add up to the length of 1.
void check_bar_total(const QImage& png, gui::MainWindow& w, gui::BarChart* chart) {
  double total = 0;
  for (size_t i = 0; i < chart->values().size(); ++i) {
    const QRectF bar = chart->barRect(static_cast<int>(i));
    int pixels = 0;
    for (int y = 0; y < chart->height(); ++y) {
      const QPointF at = test::map_to(chart, &w, QPointF(bar.center().x(), y));
      pixels += test::pixel_at(png, at) == gui::BarChart::barColor().rgb();
    }
    total += pixels;
  }
  CHECK(std::abs(total - chart->pixelsPerUnit()) <= static_cast<double>(chart->values().size()));
}

}  // namespace

TEST_CASE("the five acceptance screenshots render and show what they should", "[gui][screenshot]") {
  for (const Shot& s : shots()) {
    const QString file = QStringLiteral(AWB_TEST_SCREENSHOT_DIR "/") + s.file;
    QFile::remove(file);
    const test::GuiRun gui = test::run_gui(arguments(s, file));
    REQUIRE(gui.finished);
    INFO(s.file << ": " << gui.err.toStdString());
    REQUIRE(gui.exit_code == 0);
    QImage png(file);
    REQUIRE_FALSE(png.isNull());

    gui::MainWindow window(s.options.view == "grade" ? test::mutant_session()
                                                     : test::gui_session());
    QString error;
    REQUIRE(gui::prepare_window(window, s.options, &error));
    REQUIRE(png.size() == test::grab(&window).size());
    const QString view = s.options.view;
    if (view == "explore") {
      auto* ex = window.explore();
      check_largest_cell(png, window, ex->heatmap(), ex->query());
      check_bar_total(png, window, ex->weightsChart());
      if (s.options.head > 0) CHECK(ex->headSelector()->currentIndex() == s.options.head);
    } else if (view == "compare") {
      auto* cv = window.compare();
      REQUIRE(cv->metricsTable()->rowCount() == 3);
      check_largest_cell(png, window, cv->heatmap(0), 0);
      // Q/K/V is the exercise's own variant: its difference map is the colour of 0 throughout.
      auto* diff = cv->diffHeatmap(1);
      REQUIRE(diff);
      const QPointF at = test::map_to(diff, &window, diff->swatchPoint(2, 3));
      CHECK(test::pixel_at(png, at) == gui::ColorMap::instance().rgb(0));
    } else {
      auto* tree = window.grade()->checksTree();
      bool failed_seen = false;
      for (QTreeWidgetItemIterator it(tree); *it; ++it) {
        if ((*it)->text(1) != "failed" || (*it)->parent() == nullptr) continue;
        const QRect cell = tree->visualRect(tree->indexFromItem(*it, 1));
        const QPointF at =
            test::map_to(tree->viewport(), &window, QPointF(cell.left() + 3, cell.top() + 2));
        CHECK(test::pixel_at(png, at) == gui::GradeView::statusColor(grade::Status::kFailed).rgb());
        failed_seen = true;
        break;
      }
      CHECK(failed_seen);
      REQUIRE(window.grade()->report());
      CHECK(window.grade()->report()->score() < window.grade()->report()->max_score());
    }
  }
}

TEST_CASE("a high-DPI screenshot has twice the pixels and the same colours", "[gui][screenshot]") {
  const Shot s = shots().front();  // explore on journey
  const QString file = QStringLiteral(AWB_TEST_SCREENSHOT_DIR "/explore-journey@2x.png");
  const test::GuiRun gui = test::run_gui(arguments(s, file), {"QT_SCALE_FACTOR=2"});
  REQUIRE(gui.finished);
  REQUIRE(gui.exit_code == 0);
  QImage png(file);
  REQUIRE_FALSE(png.isNull());
  gui::MainWindow window(test::gui_session());
  QString error;
  REQUIRE(gui::prepare_window(window, s.options, &error));
  REQUIRE(png.size() == window.size() * 2);
  png.setDevicePixelRatio(2);  // logical coordinates below, as in the 1x check
  auto* ex = window.explore();
  check_largest_cell(png, window, ex->heatmap(), ex->query());
}
