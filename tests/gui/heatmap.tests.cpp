// heatmap.tests.cpp: what a class reads off a projected heatmap and bar chart: token labels that
// fit and never overlap, values in cells in a colour that contrasts, the colour range in force
// and its legend, value labels on bars, and a compare view whose maps and table use the window.
#include <QApplication>
#include <QComboBox>
#include <catch2/catch.hpp>

#include "core/grading/subject_factory.hpp"
#include "core/plugins/subjects.hpp"
#include "gui/charts/colormap.hpp"
#include "gui/charts/labels.hpp"
#include "gui/charts/layout_check.hpp"
#include "gui_support.hpp"

using namespace awb;
using gui::ColorRange;

namespace {

using Explore = test::ExploreWindow;

// The reference's weights and tokens of an exercise's first case.
struct Reference {
  Matrix a;
  QStringList tokens;
};
Reference reference_of(const char* exercise) {
  const auto& ex = *test::gui_session().exercise(exercise);
  core::ReferenceSubject subject(ex.reference_capabilities);
  const auto input = core::case_input(ex);
  Reference out{subject.run(input, Scalar::kF64).layers.back().result.weights[0], {}};
  for (const auto& t : input.tokens) out.tokens << QString::fromStdString(t);
  return out;
}

// Pixels of `box` (logical coordinates) farther than `tolerance` in some channel from `ground`:
// the ink of whatever is drawn there.
int ink(const QImage& img, const QRectF& box, QRgb ground, int tolerance = 60) {
  const double dpr = img.devicePixelRatio();
  int n = 0;
  for (int y = static_cast<int>(box.top() * dpr); y < static_cast<int>(box.bottom() * dpr); ++y)
    for (int x = static_cast<int>(box.left() * dpr); x < static_cast<int>(box.right() * dpr); ++x) {
      if (x < 0 || y < 0 || x >= img.width() || y >= img.height()) continue;
      const QRgb p = img.pixel(x, y);
      if (std::abs(qRed(p) - qRed(ground)) > tolerance ||
          std::abs(qGreen(p) - qGreen(ground)) > tolerance ||
          std::abs(qBlue(p) - qBlue(ground)) > tolerance)
        ++n;
    }
  return n;
}

std::string text(const QRectF& r) {
  return "(" + std::to_string(r.x()) + ", " + std::to_string(r.y()) + ", " +
         std::to_string(r.width()) + " × " + std::to_string(r.height()) + ")";
}

// Every drawn label lies inside the widget, off the plot, and overlaps no other label.
// Returns how many were drawn.
int check_labels(const gui::HeatmapWidget& map) {
  std::vector<QRectF> boxes;
  for (int r = 0; r < map.matrix().rows; ++r)
    if (!map.rowLabelRect(r).isEmpty()) boxes.push_back(map.rowLabelRect(r));
  for (int c = 0; c < map.matrix().cols; ++c)
    if (!map.columnLabelRect(c).isEmpty()) boxes.push_back(map.columnLabelRect(c));
  const QRectF inside = QRectF(map.rect());
  for (size_t i = 0; i < boxes.size(); ++i) {
    INFO("label box " << text(boxes[i]) << " in " << text(inside) << ", plot "
                      << text(map.plotArea()));
    CHECK(inside.contains(boxes[i]));
    CHECK_FALSE(boxes[i].intersects(map.plotArea()));
    CHECK_FALSE(boxes[i].intersects(map.legendRect()));
    CHECK_FALSE(boxes[i].intersects(map.captionRect()));
    for (size_t j = i + 1; j < boxes.size(); ++j) CHECK_FALSE(boxes[i].intersects(boxes[j]));
  }
  return static_cast<int>(boxes.size());
}

// The layout check finds no text of `w` (and its children) cut off; names what it finds.
bool no_text_cut_off(QWidget* w) {
  const auto clipped = gui::find_clipped_text(w);
  for (const auto& c : clipped) UNSCOPED_INFO(c.describe().toStdString());
  return clipped.empty();
}

QComboBox* range_box(QWidget* view) {
  for (auto* box : view->findChildren<QComboBox*>())
    if (box->count() == 4 && box->itemText(3) == "per row") return box;
  return nullptr;
}

QRgb top_colour() { return gui::ColorMap::instance().entry(gui::ColorMap::kSize - 1); }
QRgb bottom_colour() { return gui::ColorMap::instance().entry(0); }

}  // namespace

TEST_CASE("heatmap on journey: token labels beside the plot, drawn, inside, never overlapping",
          "[gui][heatmap]") {
  Explore e("journey", "parameter-free");
  auto* map = e.view->heatmap();
  REQUIRE(map->matrix().rows == 6);
  // Six tokens in a large map: every label drawn, side by side.
  CHECK(check_labels(*map) == 12);
  CHECK_FALSE(map->columnLabelsTurned());
  const QImage img = test::grab(map);
  const QRgb ground = map->palette().window().color().rgb();
  for (int i = 0; i < 6; ++i) {
    CHECK(ink(img, map->rowLabelRect(i), ground) > 5);
    CHECK(ink(img, map->columnLabelRect(i), ground) > 5);
    // Rows to the left of their row, columns below their column.
    CHECK(map->rowLabelRect(i).right() < map->plotArea().left());
    CHECK(map->rowLabelRect(i).center().y() == Approx(map->cellRect(i, 0).center().y()));
    CHECK(map->columnLabelRect(i).top() > map->plotArea().bottom());
    CHECK(map->columnLabelRect(i).center().x() == Approx(map->cellRect(0, i).center().x()));
  }
  CHECK(no_text_cut_off(map));
  CHECK(no_text_cut_off(e.view->weightsChart()));
  CHECK(no_text_cut_off(e.view->scoresChart()));
}

TEST_CASE("heatmap labels: long tokens turn, crowded ones thin out, a larger font grows them",
          "[gui][heatmap]") {
  const int n = 40;
  Matrix m(n, n);
  QStringList tokens;
  for (int r = 0; r < n; ++r) {
    tokens << QStringLiteral("token-number-%1").arg(r);
    for (int c = 0; c < n; ++c) m(r, c) = 1.0 / n;
  }
  gui::HeatmapWidget map;
  map.setTitle("forty tokens");
  map.setMatrix(m, 0, 1, true);
  map.setLabels(tokens, tokens);
  // As small as a layout may make it: cells of its least size, under a line.
  map.resize(map.minimumSizeHint());
  map.show();
  QApplication::processEvents();
  CHECK(map.columnLabelsTurned());  // "token-number-17" is wider than a cell
  const int drawn = check_labels(map);
  CHECK(drawn > 4);
  CHECK(drawn < 2 * n);  // cells are smaller than a line: every k-th label only
  // The turned labels read in full: each box is as long as its text.
  const QFontMetricsF fm(map.font());
  CHECK(map.columnLabelRect(0).height() == gui::text_width(map.font(), tokens[0]));
  CHECK(map.rowLabelRect(0).width() == gui::text_width(map.font(), tokens[0]));
  CHECK(no_text_cut_off(&map));
  const double cell = map.cellRect(0, 0).width();

  CHECK(cell >= map.minimumCell());

  // The application's zoom makes the font larger: labels grow, the least cell grows with the
  // type (the layout gives the map its new least size), and still nothing overlaps or leaves
  // the widget.
  QFont big = map.font();
  big.setPointSizeF(big.pointSizeF() * 2);
  map.setFont(big);
  QApplication::processEvents();
  map.resize(map.minimumSizeHint());
  QApplication::processEvents();
  CHECK(map.rowLabelRect(0).height() > 1.6 * fm.height());
  CHECK(map.cellRect(0, 0).width() >= map.minimumCell());
  CHECK(map.minimumCell() > cell);
  CHECK(check_labels(map) > 2);
  CHECK(no_text_cut_off(&map));
}

TEST_CASE("heatmap values: T = 6 at 800 × 600 shows every value in a contrasting colour",
          "[gui][heatmap]") {
  const Reference ref = reference_of("journey");
  gui::HeatmapWidget map;
  map.resize(800, 600);
  map.setTitle("journey");
  map.setMatrix(ref.a, 0, 1, false);
  map.setLabels(ref.tokens, ref.tokens);
  map.show();
  QApplication::processEvents();
  const QImage img = test::grab(&map);
  bool dark_on_light = false, light_on_dark = false;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      INFO("cell " << r << "," << c << " = " << ref.a(r, c));
      CHECK(map.cellText(r, c) == gui::value_text(ref.a(r, c)));
      const QRgb cell = map.colorFor(ref.a(r, c), r);
      const QColor ink_colour = map.cellTextColor(r, c);
      const double lum = gui::relative_luminance(cell);
      // Black on light cells, white on dark: the larger WCAG contrast ratio, never below 4.5.
      CHECK(ink_colour == (lum > 0.18 ? QColor(Qt::black) : QColor(Qt::white)));
      const double ratio =
          ink_colour == QColor(Qt::black) ? (lum + 0.05) / 0.05 : 1.05 / (lum + 0.05);
      CHECK(ratio >= 4.5);
      dark_on_light = dark_on_light || (lum > 0.18 && ink_colour == QColor(Qt::black));
      light_on_dark = light_on_dark || (lum < 0.18 && ink_colour == QColor(Qt::white));
      // The number is drawn inside its cell, and the cell's colour still shows beside it.
      const QRectF box = map.cellTextRect(r, c);
      CHECK(map.cellRect(r, c).contains(box));
      CHECK(ink(img, box, cell) > 5);
      CHECK(test::pixel_at(img, map.swatchPoint(r, c)) == cell);
    }
  CHECK(dark_on_light);
  CHECK(light_on_dark);
  CHECK(no_text_cut_off(&map));

  // Masked cells show no number; the rest still do.
  map.setMatrix(ref.a, 0, 1, true);
  CHECK(map.cellText(0, 5).isEmpty());
  CHECK(map.cellText(5, 0) == gui::value_text(ref.a(5, 0)));
  // Cells too small for their text show none.
  map.resize(200, 180);
  QApplication::processEvents();
  CHECK(map.cellText(5, 0).isEmpty());
}

TEST_CASE("heatmap colour range: auto spans journey's min–max, per row each row's",
          "[gui][heatmap]") {
  Explore e("journey", "parameter-free");
  auto* map = e.view->heatmap();
  const Matrix a = map->matrix();
  auto cell_of = [&](auto better) {
    int br = 0, bc = 0;
    for (int r = 0; r < a.rows; ++r)
      for (int c = 0; c < a.cols; ++c)
        if (better(a(r, c), a(br, bc))) br = r, bc = c;
    return std::pair{br, bc};
  };
  const auto [top_r, top_c] = cell_of(std::greater<>());
  const auto [low_r, low_c] = cell_of(std::less<>());
  REQUIRE(a(top_r, top_c) < 0.5);  // journey's weights are all small

  // auto: the matrix's min–max, so the largest weight has the map's top colour.
  CHECK(map->colorRangeChoice() == ColorRange::kAuto);
  CHECK(map->range() == ColorRange::kMatrix);
  QImage img = test::grab(map);
  CHECK(test::pixel_at(img, map->swatchPoint(top_r, top_c)) == top_colour());
  CHECK(test::pixel_at(img, map->swatchPoint(low_r, low_c)) == bottom_colour());
  CHECK(map->rangeCaption().contains("auto"));
  CHECK(map->rangeCaption().contains("min–max"));
  CHECK(map->legendTicks().front() == gui::value_text(a(top_r, top_c)));
  CHECK(map->legendTicks().back() == gui::value_text(a(low_r, low_c)));
  CHECK(ink(img, map->captionRect(), map->palette().window().color().rgb()) > 20);

  // The view's combo box: "per row": every row's largest weight at the top colour, its
  // smallest at the bottom one; the legend says so.
  auto* box = range_box(e.view);
  REQUIRE(box);
  box->setCurrentIndex(3);
  emit box->activated(3);
  CHECK(map->range() == ColorRange::kRow);
  img = test::grab(map);
  for (int r = 0; r < a.rows; ++r) {
    const auto row =
        std::vector<double>(a.data.begin() + r * a.cols, a.data.begin() + (r + 1) * a.cols);
    const int hi = static_cast<int>(std::max_element(row.begin(), row.end()) - row.begin());
    const int lo = static_cast<int>(std::min_element(row.begin(), row.end()) - row.begin());
    INFO("row " << r);
    CHECK(test::pixel_at(img, map->swatchPoint(r, hi)) == top_colour());
    CHECK(test::pixel_at(img, map->swatchPoint(r, lo)) == bottom_colour());
    CHECK(map->colorFor(a(r, hi), r) == top_colour());
  }
  CHECK(map->legendTicks().front() == "row max");
  CHECK(map->legendTicks().back() == "row min");
  CHECK(map->rangeCaption().contains("per row"));
  // ... and the selected query's own numbers.
  e.view->setQuery(1);
  CHECK(map->rangeCaption().endsWith(
      QString("(journey: %1–%2)").arg(gui::value_text(a(1, 4)), gui::value_text(a(1, 1)))));

  // "0–1": the colours of the weights themselves; the largest is far from the top.
  box->setCurrentIndex(1);
  emit box->activated(1);
  CHECK(map->range() == ColorRange::kScale);
  img = test::grab(map);
  CHECK(test::pixel_at(img, map->swatchPoint(top_r, top_c)) ==
        gui::ColorMap::instance().rgb(a(top_r, top_c)));
  CHECK(map->colorFor(a(top_r, top_c)) != top_colour());
  CHECK(map->legendTicks().front() == "1");
  CHECK(map->rangeCaption() == "colour range: 0–1");
}

TEST_CASE("heatmap auto range: the rule on small, large, flat and masked matrices",
          "[gui][heatmap]") {
  gui::HeatmapWidget map;
  Matrix m(3, 3);
  auto set = [&](std::initializer_list<double> v, bool causal = false) {
    std::copy(v.begin(), v.end(), m.data.begin());
    map.setMatrix(m, 0, 1, causal);
    return map.range();
  };
  CHECK(set({0.1, 0.2, 0.3, 0.2, 0.1, 0.3, 0.4, 0.3, 0.2}) == ColorRange::kMatrix);
  // One weight of 0.5 or more: 0–1 reads well, and keeps it comparable with other rows.
  CHECK(set({0.1, 0.2, 0.3, 0.2, 0.1, 0.3, 0.5, 0.3, 0.2}) == ColorRange::kScale);
  // Nearly uniform: min–max would paint rounding noise as structure.
  CHECK(set({0.333, 0.3331, 0.333, 0.333, 0.3331, 0.333, 0.333, 0.333, 0.3331}) ==
        ColorRange::kScale);
  // Masked cells are not data: a 0.9 above the diagonal does not count.
  CHECK(set({0.1, 0.9, 0.9, 0.2, 0.3, 0.9, 0.1, 0.2, 0.4}, true) == ColorRange::kMatrix);
  // A chosen min–max over all-equal values has nothing to span: the scale, said so.
  map.setColorRange(ColorRange::kMatrix);
  CHECK(set({0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2, 0.2}) == ColorRange::kScale);
  CHECK(map.rangeCaption() == "colour range: 0–1");
}

TEST_CASE("explore bars: every value labelled, inside the chart, clear of bars and each other",
          "[gui][explore]") {
  auto check_chart = [](gui::BarChart* chart) {
    const auto& v = chart->values();
    const QRectF inside = QRectF(chart->rect());
    std::vector<QRectF> boxes;
    for (size_t i = 0; i < v.size(); ++i) {
      const int k = static_cast<int>(i);
      if (chart->valueLabelRect(k).isEmpty()) continue;
      CHECK(chart->valueLabel(k) == gui::value_text(v[i]));
      boxes.push_back(chart->valueLabelRect(k));
      // Past the bar's end: above a bar that rises, below one that falls.
      if (v[i] < 0)
        CHECK(boxes.back().top() >= chart->barRect(k).bottom());
      else
        CHECK(boxes.back().bottom() <= chart->barRect(k).top());
    }
    for (size_t i = 0; i < boxes.size(); ++i) {
      INFO("value box " << text(boxes[i]) << " in " << text(inside));
      CHECK(inside.contains(boxes[i]));
      for (size_t j = 0; j < v.size(); ++j)
        CHECK_FALSE(boxes[i].intersects(chart->barRect(static_cast<int>(j))));
      for (size_t j = i + 1; j < boxes.size(); ++j) CHECK_FALSE(boxes[i].intersects(boxes[j]));
      for (size_t j = 0; j < v.size(); ++j)
        CHECK_FALSE(boxes[i].intersects(chart->tokenLabelRect(static_cast<int>(j))));
    }
    return boxes.size();
  };

  Explore e("journey", "parameter-free");
  e.view->setQuery(1);
  auto* chart = e.view->weightsChart();
  REQUIRE(check_chart(chart) == 6);
  CHECK(chart->valueLabel(1) == "0.238");
  const QImage img = test::grab(chart);
  CHECK(ink(img, chart->valueLabelRect(1), chart->palette().window().color().rgb()) > 5);

  // A larger font: larger labels, still inside and apart (turned or thinned when crowded).
  const double before = chart->valueLabelRect(1).height();
  QFont big = chart->font();
  big.setPointSizeF(big.pointSizeF() * 2.5);
  chart->setFont(big);
  QApplication::processEvents();
  CHECK(check_chart(chart) >= 1);
  CHECK(no_text_cut_off(chart));
  CHECK(std::max(chart->valueLabelRect(0).height(), chart->valueLabelRect(0).width()) >
        1.5 * before);

  // Raw scores with negative values: their labels below the bars, inside the chart.
  Explore m("multi-head", "multi-head");
  bool negative = false;
  for (int q = 0; q < 11; ++q) {
    m.view->setQuery(q);
    for (double s : m.view->scoresChart()->values()) negative = negative || s < 0;
    check_chart(m.view->scoresChart());
  }
  CHECK(negative);
}

TEST_CASE("compare of four variants at 1920 × 1080: large heatmaps, every table row shown",
          "[gui][compare]") {
  gui::MainWindow w(test::gui_session());
  w.resize(1920, 1080);
  w.show();
  REQUIRE(w.setView("compare"));
  REQUIRE(w.selectExercise("river-bank"));
  REQUIRE(w.selectVariants({"parameter-free", "qkv", "multi-head", "causal"}));
  REQUIRE(test::wait_for([&] { return !w.busy(); }));
  auto* cv = w.compare();
  REQUIRE(cv->comparison().entries.size() == 4);
  QApplication::processEvents();
  for (int i = 0; i < 5; ++i) {
    auto* map = cv->heatmap(i);
    REQUIRE(map);
    INFO("map " << i << ": " << map->width() << " × " << map->height() << ", plot "
                << text(map->plotArea()));
    CHECK(map->width() > 300);
    CHECK(map->height() > 300);
    CHECK(map->plotArea().width() > 180);
    check_labels(*map);
  }
  CHECK(no_text_cut_off(cv));
  for (int i = 0; i < 4; ++i) {
    auto* diff = cv->diffHeatmap(i);
    REQUIRE(diff);
    CHECK(diff->height() > 300);
    // One range across the differences, said in each legend.
    CHECK(diff->range() == ColorRange::kScale);
    CHECK(diff->rangeCaption().contains("shared by every |A − ref| map"));
    CHECK(diff->legendTicks().front() == cv->diffHeatmap(0)->legendTicks().front());
  }
  // One min–max across the weight maps: the reference's colours compare with each variant's.
  const auto ref_caption = cv->heatmap(0)->rangeCaption();
  for (int i = 1; i < 5; ++i) CHECK(cv->heatmap(i)->rangeCaption() == ref_caption);

  auto* table = cv->metricsTable();
  REQUIRE(table->rowCount() == 5);
  auto rows_visible = [&] {
    const QRect view = table->viewport()->rect();
    for (int r = 0; r < table->rowCount(); ++r) {
      const QRect row = table->visualItemRect(table->item(r, 0));
      INFO("row " << r << " at " << row.top() << ".." << row.bottom() << " of " << view.height());
      CHECK(row.top() >= view.top());
      CHECK(row.bottom() <= view.bottom());
    }
  };
  rows_visible();

  // The window's zoom makes its font larger: taller rows, still all shown, and every map's
  // labels still inside and apart.
  const QFont normal = table->font();
  w.setZoom(150);
  QApplication::processEvents();
  QApplication::processEvents();
  CHECK(table->rowHeight(1) > QFontMetrics(normal).height() * 1.4);
  rows_visible();
  for (int i = 0; i < 5; ++i) check_labels(*cv->heatmap(i));
  CHECK(no_text_cut_off(cv));
  w.setZoom(100);
  QApplication::processEvents();

  // The top row's combo box reaches every weight map.
  cv->setColorRange(ColorRange::kRow);
  for (int i = 0; i < 5; ++i) CHECK(cv->heatmap(i)->range() == ColorRange::kRow);
  CHECK(cv->diffHeatmap(0)->range() == ColorRange::kScale);
}
