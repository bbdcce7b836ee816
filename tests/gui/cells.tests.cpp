// cells.tests.cpp: what a cell, a number and a name say: masked and out-of-window cells hatched
// in every map, the floor of the difference maps, compare checking each variant against its own
// reference with the parameters set in explore, titles by what a variant computes, a row with
// no weight, the number format and ties.
#include <QComboBox>
#include <QLabel>
#include <QRegularExpression>
#include <catch2/catch.hpp>

#include "gui/charts/colormap.hpp"
#include "gui/charts/labels.hpp"
#include "gui/views/compare/compare_view.hpp"
#include "gui/views/explore/heads_grid.hpp"
#include "gui/views/explore/layer_view.hpp"
#include "gui_support.hpp"

using namespace awb;

namespace {

using Explore = test::ExploreWindow;

QString title_of(const gui::BarChart* chart) { return chart->drawnTexts().front().text; }

// The pixel at the centre of cell (r, c) is the masked grey or its hatch, never a colour of the
// map.
bool drawn_masked(gui::HeatmapWidget* map, const QImage& img, int r, int c) {
  const QRgb got = test::pixel_at(img, map->cellRect(r, c).center());
  return got == gui::masked_color().rgb() || got == qRgb(70, 70, 70);
}

void run_compare(gui::MainWindow& w, const QString& exercise, const QStringList& variants) {
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("compare"));
  REQUIRE(w.selectExercise(exercise));
  REQUIRE(w.selectVariants(variants));
  REQUIRE(test::wait_for([&] { return !w.busy(); }));
}

// A number in scientific notation: "5.15e-45", "1e+03".
bool has_e(const QString& text) {
  return text.contains(QRegularExpression(QStringLiteral("[0-9][eE][+-]?[0-9]")));
}

}  // namespace

TEST_CASE("sliding-window in explore: keys outside the window are hatched, with a legend entry",
          "[gui][cells][explore]") {
  Explore e("sliding-window", "sliding-window");  // window = 3, from the exercise
  auto* map = e.view->heatmap();
  const Matrix& a = map->matrix();
  const QImage img = test::grab(map);
  for (int r = 0; r < a.rows; ++r)
    for (int c = 0; c < a.cols; ++c) {
      INFO("cell " << r << "," << c);
      const bool outside = std::abs(r - c) > 3;
      CHECK(map->cellMasked(r, c) == outside);
      if (outside) {
        CHECK(a(r, c) == 0.0);
        CHECK(drawn_masked(map, img, r, c));
      }
    }
  CHECK(map->maskedLegend() == "out of window");
  bool legend = false;
  for (const auto& t : map->drawnTexts()) legend |= t.text == "out of window";
  CHECK(legend);
  // The bars of "it" mark "animal", six keys back, as out of the window, not as a zero weight.
  e.view->setQuery(7);
  CHECK(e.view->weightsChart()->valueLabel(1).isEmpty());
  CHECK_FALSE(e.view->weightsChart()->valueLabel(7).isEmpty());
}

TEST_CASE("the heads grid and the layer view hatch and mark the cells a mask leaves 0",
          "[gui][cells]") {
  // A window of 1 over four tokens: keys two or more away are outside.
  Matrix a(4, 4);
  for (int r = 0; r < 4; ++r)
    for (int c = 0; c < 4; ++c) a(r, c) = std::abs(r - c) <= 1 ? 0.5 : 0.0;
  const gui::CellMask window{1, 1};
  const QStringList tokens{"a", "b", "c", "d"};
  gui::HeadsGrid grid;
  grid.resize(600, 400);
  grid.setHeads({a, a}, tokens, 0, 0, window, 0);
  grid.show();
  for (int h = 0; h < 2; ++h) {
    CHECK(grid.map(h)->cellMasked(0, 2));
    CHECK(grid.map(h)->cellMasked(3, 0));
    CHECK_FALSE(grid.map(h)->cellMasked(1, 2));
    CHECK(grid.map(h)->maskedLegend() == "out of window");
  }
  gui::LayerView layers;
  layers.resize(600, 400);
  layers.setTrace({{{0.5, 0.5, 0.0, 0.0}, {}}}, tokens, 0, 0, window);
  CHECK(layers.weightsChart(0)->valueLabel(2).isEmpty());  // masked: no "0" of a weight
  CHECK(layers.weightsChart(0)->valueLabel(1) == "0.500");
}

TEST_CASE("compare: sliding-window on river-bank is exact against its own reference, hatched",
          "[gui][cells][compare]") {
  gui::MainWindow w(test::gui_session());
  run_compare(w, "river-bank", {"sliding-window", "qkv"});
  auto* cv = w.compare();
  const auto& c = cv->comparison();
  REQUIRE(c.entries.size() == 2);
  REQUIRE(c.entries[0].error.empty());
  CHECK(c.entries[0].metrics.max_abs_error <= 1e-12);
  CHECK(cv->metricsTable()->item(1, 1)->text() == "≤ 10⁻¹²");
  // Its map: keys more than the default window (2) away are hatched; the reference's (softmax)
  // has none.
  auto* map = cv->heatmap(1);
  REQUIRE(map);
  const QImage img = test::grab(map);
  int outside = 0;
  for (int r = 0; r < 6; ++r)
    for (int col = 0; col < 6; ++col) {
      INFO("cell " << r << "," << col);
      CHECK(map->cellMasked(r, col) == (std::abs(r - col) > 2));
      if (std::abs(r - col) > 2) {
        ++outside;
        CHECK(drawn_masked(map, img, r, col));
      }
    }
  CHECK(outside == 12);
  CHECK(map->maskedLegend() == "out of window");
  CHECK(cv->heatmap(0)->maskedLegend().isEmpty());
}

TEST_CASE("compare: a causal-only variant's masked cells are hatched on a non-causal exercise",
          "[gui][cells][compare]") {
  gui::MainWindow w(test::gui_session());
  run_compare(w, "river-bank", {"causal"});
  auto* cv = w.compare();
  auto* map = cv->heatmap(1);
  REQUIRE(map);
  const QImage img = test::grab(map);
  for (int r = 0; r < 6; ++r)
    for (int c = r + 1; c < 6; ++c) {
      INFO("cell " << r << "," << c);
      CHECK(map->cellMasked(r, c));
      CHECK(drawn_masked(map, img, r, c));
    }
  CHECK(map->maskedLegend() == "masked");
  // The reference attends everywhere: its difference there is real, so it is not hatched.
  CHECK_FALSE(cv->diffHeatmap(0)->cellMasked(0, 5));
  CHECK(cv->diffHeatmap(0)->matrix()(0, 5) > 0);
}

TEST_CASE("compare: causal on the causal exercise hatches the masked cells of every map",
          "[gui][cells][compare]") {
  gui::MainWindow w(test::gui_session());
  run_compare(w, "causal", {"causal"});
  auto* cv = w.compare();
  for (auto* map : {cv->heatmap(0), cv->heatmap(1), cv->diffHeatmap(0)}) {
    REQUIRE(map);
    const QImage img = test::grab(map);
    for (int r = 0; r < map->matrix().rows; ++r)
      for (int c = r + 1; c < map->matrix().cols; ++c) {
        INFO("cell " << r << "," << c);
        CHECK(map->cellMasked(r, c));
        CHECK(drawn_masked(map, img, r, c));
      }
  }
}

TEST_CASE("difference maps have a floor: rounding noise is drawn as 0, and the legend says so",
          "[gui][cells][compare]") {
  Matrix a(1, 3), b(1, 3);
  a.data = {0.25, 0.5, 0.25};
  b.data = {0.25 + 1e-17, 0.5 - 3e-13, 0.25 + 1e-6};
  const Matrix d = gui::floored_difference(a, b);
  CHECK(d.data[0] == 0.0);
  CHECK(d.data[1] == 0.0);
  CHECK(d.data[2] == Approx(1e-6));

  // Q/K/V against the reference: only rounding between them, so every cell is the map's 0.
  gui::MainWindow w(test::gui_session());
  run_compare(w, "river-bank", {"qkv"});
  auto* diff = w.compare()->diffHeatmap(0);
  REQUIRE(diff);
  const QImage img = test::grab(diff);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      CHECK(diff->matrix()(r, c) == 0.0);
      CHECK(test::pixel_at(img, diff->swatchPoint(r, c)) == diff->colorFor(0));
    }
  CHECK(diff->colorFor(0) == gui::ColorMap::instance().entry(0));
  CHECK(diff->rangeCaption().contains("differences ≤ 10⁻¹² (the f64 tolerance) drawn as 0"));
}

TEST_CASE("a parameter set in explore reaches compare", "[gui][cells][compare][params]") {
  Explore e("linear", "linear");
  auto* cv = e.window.compare();
  auto shown_compare = [&](const char* feature_map) {
    REQUIRE(e.window.setView("compare"));
    REQUIRE(test::wait_for([&] {
      return !e.window.busy() && !cv->comparison().entries.empty() &&
             cv->comparison().entries[0].params.variant.at("feature_map") == feature_map;
    }));
  };
  shown_compare("elu+1");  // the exercise's
  REQUIRE(e.window.setView("explore"));
  auto* box = qobject_cast<QComboBox*>(e.view->paramEditor()->editor("feature_map"));
  REQUIRE(box);
  const int relu = box->findText("relu");
  REQUIRE(relu >= 0);
  box->setCurrentIndex(relu);
  emit box->activated(relu);
  e.settle();
  shown_compare("relu");
  CHECK(cv->params().at("feature_map") == "relu");
  // Run with relu and checked against linear attention with relu: exact.
  CHECK(cv->comparison().entries[0].error.empty());
  CHECK(cv->comparison().entries[0].metrics.max_abs_error <= 1e-12);
}

TEST_CASE("charts are titled by what the variant computes, and a row of no weight says why",
          "[gui][cells][explore]") {
  Explore e("linear", "linear");
  CHECK(title_of(e.view->weightsChart()).startsWith("kernel weights A of "));
  auto* box = qobject_cast<QComboBox*>(e.view->paramEditor()->editor("feature_map"));
  REQUIRE(box);
  box->setCurrentIndex(box->findText("relu"));
  emit box->activated(box->currentIndex());
  e.settle();
  // With relu a query whose every feature is ≤ 0 scores 0 with every key: its row is all 0.
  int empty = -1;
  const Matrix& a = e.view->output().layers.back().result.weights[0];
  for (int q = 0; q < a.rows && empty < 0; ++q) {
    double s = 0;
    for (int c = 0; c < a.cols; ++c) s += a(q, c);
    if (s == 0) empty = q;
  }
  REQUIRE(empty >= 0);
  e.view->setQuery(empty);
  CHECK(e.view->weightsChart()->caption() == "no weight: every kernel score is 0");
  CHECK(e.view->sumLabel()->text().endsWith("no weight: every kernel score is 0"));
  CHECK_FALSE(e.view->contextSwatch()->contextColor().isValid());  // no black blend
  CHECK(e.view->contextSwatch()->legend().contains("no weight: every kernel score is 0"));
}

TEST_CASE("numbers: three decimals, '< 0.001' for tiny weights, 0 as 0, plain slider numbers",
          "[gui][cells][numbers]") {
  CHECK(gui::value_text(5.15e-45) == "< 0.001");
  CHECK(gui::value_text(1.51e-198) == "< 0.001");
  CHECK(gui::value_text(0.0) == "0");
  CHECK(gui::value_text(1.0) == "1");
  CHECK(gui::value_text(0.201) == "0.201");
  CHECK(gui::value_text(0.21) == "0.210");
  CHECK(gui::value_text(-2.35) == "-2.350");
  CHECK(gui::plain_number(1000) == "1000");
  CHECK(gui::plain_number(0.001) == "0.001");
  CHECK(gui::plain_number(1.5849) == "1.58");

  Explore e("journey", "parameter-free");
  CHECK(title_of(e.view->weightsChart()).startsWith("softmax weights A of "));
  auto* slider = e.view->slider();
  slider->setValue(slider->maximum());  // sharpness 10^3: most weights underflow to tiny
  e.settle();
  QStringList labels;
  for (auto* l : e.view->findChildren<QLabel*>()) labels << l->text();
  CHECK(labels.contains("1000"));
  for (const auto& t : labels) CHECK_FALSE(t.contains("e+"));
  bool tiny = false;
  for (int q = 0; q < 6; ++q) {
    e.view->setQuery(q);
    for (const auto* chart : {e.view->weightsChart(), e.view->scoresChart()})
      for (const auto& t : chart->drawnTexts()) {
        INFO(t.text.toStdString());
        CHECK_FALSE(has_e(t.text));
      }
    for (int i = 0; i < 6; ++i) tiny |= e.view->weightsChart()->valueLabel(i) == "< 0.001";
  }
  CHECK(tiny);
  auto* map = e.view->heatmap();
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) CHECK_FALSE(has_e(map->cellText(r, c)));
  for (const auto& t : map->legendTicks()) CHECK_FALSE(has_e(t));

  // The context swatch numbers embedding dimensions from 0, as everything else counts.
  CHECK(e.view->contextSwatch()->legend().contains("dims 0, 1, 2"));
}

TEST_CASE("ties are named as ties", "[gui][cells][numbers]") {
  const QStringList tokens{"Your", "journey", "starts", "with", "one", "step"};
  CHECK(gui::most_text(std::vector<double>(6, 1.0 / 6), tokens) ==
        "tie: 'Your', 'journey', … (0.167 each)");
  CHECK(gui::most_text({0.5, 0.5, 0}, tokens) == "tie: 'Your', 'journey' (0.500 each)");
  CHECK(gui::most_text({0.1, 0.7, 0.2}, tokens) == "most: 'journey' (0.700)");
  gui::LayerView layers;
  layers.setTrace({{std::vector<double>(6, 1.0 / 6), {}}}, tokens, 0, 0, {});
  CHECK(layers.weightsChart(0)->caption() == "tie: 'Your', 'journey', … (0.167 each)");
}
