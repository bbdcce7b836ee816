// screenshots.tests.cpp: the five acceptance screenshots, rendered by `awb-gui --screenshot`
// into the build folder, then checked pixel by pixel against the same window built here.
#include <QFile>
#include <QFontInfo>
#include <QFontMetricsF>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

#include "gui/app/headless.hpp"
#include "gui/charts/colormap.hpp"
#include "gui/charts/export.hpp"
#include "gui/charts/layout_check.hpp"
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

TEST_CASE("projector screenshots: bars, cells and type at 720p + F5, 800p at 150 %, 1080p at 200 %",
          "[gui][screenshot][layout]") {
  // The sizes a teacher projects at. Each screenshot lands in the build folder with a text file
  // of what it measured: the plots' heights, the tallest weight bar, a heatmap cell and the type.
  struct Projected {
    const char* name;
    QSize screen;
    int zoom;
    bool presentation;
    int type_px;  // the least type size: 24 px per 1080 lines in presentation, else the zoom's
  };
  const Projected shots[] = {{"projector-1280x720-f5", {1280, 720}, 100, true, 16},
                             {"projector-1280x800-150", {1280, 800}, 150, false, 18},
                             {"projector-1920x1080-200", {1920, 1080}, 200, false, 24}};
  for (const auto& p : shots) {
    gui::MainWindow w(test::gui_session());
    gui::ViewOptions o;
    o.exercise = "animal-road";
    o.case_id = "tired";
    o.plugins = {"qkv"};
    o.query = 7;  // "it"
    o.size = p.screen;
    o.zoom = p.zoom;
    o.presentation = p.presentation;
    QString error;
    REQUIRE(gui::prepare_window(w, o, &error));
    const gui::LayoutReport report = gui::check_layout(&w, p.screen);
    INFO(p.name << ": " << report.lines().join('\n').toStdString());
    CHECK(report.ok());
    CHECK(w.size() == p.screen);
    CHECK(w.presenting() == p.presentation);
    const QString file = QStringLiteral(AWB_TEST_SCREENSHOT_DIR "/") + p.name + ".png";
    REQUIRE(gui::save_png(&w, file));

    auto* e = w.explore();
    const int type_px = QFontInfo(e->font()).pixelSize();
    const double line = std::ceil(QFontMetricsF(e->font()).height());
    const auto* weights = e->weightsChart();
    double tallest = 0;
    for (int i = 0; i < static_cast<int>(weights->values().size()); ++i)
      tallest = std::max(tallest, weights->barRect(i).height());
    const double scores_plot = e->scoresChart()->plots().front().size.height();
    const double weights_plot = weights->plots().front().size.height();
    const double cell = e->heatmap()->cellRect(0, 0).height();
    const QString measured =
        QStringLiteral(
            "%1: %2x%3, zoom %4%%5; type %6 px (line %7 px); scores plot %8 px high, weights "
            "plot %9 px high, tallest weight bar %10 px (A = %11); heatmap cell %12 px; bars %13 "
            "the heatmap\n")
            .arg(QString::fromLatin1(p.name))
            .arg(w.width())
            .arg(w.height())
            .arg(w.zoom())
            .arg(p.presentation ? QStringLiteral(", presentation") : QString())
            .arg(type_px)
            .arg(line)
            .arg(scores_plot)
            .arg(weights_plot)
            .arg(tallest)
            .arg(*std::max_element(weights->values().begin(), weights->values().end()), 0, 'f', 3)
            .arg(cell)
            .arg(e->barsBesideHeatmap() ? QStringLiteral("beside") : QStringLiteral("above"));
    QFile notes(QStringLiteral(AWB_TEST_SCREENSHOT_DIR "/") + p.name + ".txt");
    REQUIRE(notes.open(QIODevice::WriteOnly));
    notes.write(measured.toUtf8());
    WARN(measured.toStdString());
    CHECK(type_px >= p.type_px);
    CHECK(scores_plot >= 4 * line);
    CHECK(weights_plot >= 4 * line);
    CHECK(cell >= 0.8 * line);
    // The weight of "it" on "animal" at layer 1 is most of the row: its bar most of the plot.
    CHECK(tallest >= 0.5 * weights_plot);
  }
}
