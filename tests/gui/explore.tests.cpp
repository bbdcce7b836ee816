// explore.tests.cpp: the explore view driven like a student would: queries, keys, the slider
// to its ends, heads, the causal mask; bars and heatmap pixels read back from the screen.
#include <QApplication>
#include <QHelpEvent>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <QToolTip>
#include <catch2/catch.hpp>
#include <cmath>

#include "core/grading/subject_factory.hpp"
#include "core/plugins/subjects.hpp"
#include "gui/charts/colormap.hpp"
#include "gui/charts/labels.hpp"
#include "gui_support.hpp"

using namespace awb;
using Catch::Matchers::WithinAbs;

namespace {

using Explore = test::ExploreWindow;

double sum(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return s;
}

}  // namespace

TEST_CASE("journey: the query's weight bars are the lesson's and sum to 1", "[gui][explore]") {
  Explore e("journey", "parameter-free");
  e.view->setQuery(1);  // "journey"
  const auto w = e.weights();
  const double expected[] = {0.1385, 0.2379, 0.2333, 0.1240, 0.1082, 0.1581};
  REQUIRE(w.size() == 6);
  for (size_t i = 0; i < 6; ++i) CHECK_THAT(w[i], WithinAbs(expected[i], 5e-5));
  CHECK_THAT(sum(w), WithinAbs(1.0, 1e-12));
  CHECK(e.view->sumLabel()->text().endsWith("sum to " + gui::value_text(sum(w))));
  CHECK(e.view->weightsChart()->caption() == "sum = " + gui::value_text(sum(w)));

  // The drawn bars: their lengths in pixels add up to the length of 1 on the axis.
  auto* chart = e.view->weightsChart();
  const QImage img = test::grab(chart);
  double total = 0;
  for (int i = 0; i < 6; ++i) {
    const QRectF bar = chart->barRect(i);
    const int x = static_cast<int>(bar.center().x());
    int pixels = 0;
    for (int y = 0; y < chart->height(); ++y)
      pixels += test::pixel_at(img, QPointF(x, y)) == gui::BarChart::barColor().rgb();
    CHECK(std::abs(pixels - bar.height()) <= 1);
    total += pixels;
  }
  CHECK(std::abs(total - chart->pixelsPerUnit()) <= 6);  // one rounding per bar
}

TEST_CASE("selecting a query changes the bars, arrow keys move between tokens", "[gui][explore]") {
  Explore e("journey", "parameter-free");
  e.view->setQuery(0);
  const auto first = e.weights();
  auto* chip = qobject_cast<QToolButton*>(e.view->chip(3));
  REQUIRE(chip);
  QTest::mouseClick(chip, Qt::LeftButton);
  CHECK(e.view->query() == 3);
  CHECK(e.weights() != first);
  QTest::keyClick(e.view->chip(3), Qt::Key_Right);
  CHECK(e.view->query() == 4);
  QTest::keyClick(e.view->chip(4), Qt::Key_Home);
  CHECK(e.view->query() == 0);
  CHECK(e.weights() == first);
  QTest::keyClick(e.view->chip(0), Qt::Key_End);
  CHECK(e.view->query() == 5);
}

TEST_CASE("the sharpness slider's ends give near-uniform and near-one-hot rows", "[gui][explore]") {
  Explore e("journey", "parameter-free");
  auto* slider = e.view->slider();
  slider->setValue(slider->minimum());  // sharpness 10^-3
  e.settle();
  CHECK_THAT(e.view->sharpness(), WithinAbs(1e-3, 1e-12));
  for (int q = 0; q < 6; ++q) {
    e.view->setQuery(q);
    for (double w : e.weights()) CHECK_THAT(w, WithinAbs(1.0 / 6, 1e-3));
  }
  slider->setValue(slider->maximum());  // sharpness 10^3
  e.settle();
  for (int q = 0; q < 6; ++q) {
    e.view->setQuery(q);
    const auto w = e.weights();
    CHECK(*std::max_element(w.begin(), w.end()) > 0.99);
    CHECK_THAT(sum(w), WithinAbs(1.0, 1e-12));
  }
}

TEST_CASE("journey heatmap pixels have the map's colours for the reference's weights",
          "[gui][explore][heatmap]") {
  Explore e("journey", "parameter-free");
  e.view->setQuery(2);
  const auto& ex = *test::gui_session().exercise("journey");
  core::ReferenceSubject reference(ex.reference_capabilities);
  const Matrix a = reference.run(core::case_input(ex), Scalar::kF64).layers[0].result.weights[0];
  auto* map = e.view->heatmap();
  // On the 0–1 range the map's colours are the weights' own (auto would span their min–max).
  map->setColorRange(gui::ColorRange::kScale);
  const QImage img = test::grab(map);
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      const QRgb got = test::pixel_at(img, map->swatchPoint(r, c));
      INFO("cell " << r << "," << c << " A = " << a(r, c));
      CHECK(test::rgb_text(got) == test::rgb_text(gui::ColorMap::instance().rgb(a(r, c))));
    }
  // The tooltip over a cell gives its exact value.
  const QPoint at = map->cellRect(1, 2).center().toPoint();
  QHelpEvent help(QEvent::ToolTip, at, map->mapToGlobal(at));
  QApplication::sendEvent(map, &help);
  CHECK(
      QToolTip::text() ==
      QString("query journey, key starts: %1").arg(QString::number(map->matrix()(1, 2), 'g', 10)));
  CHECK_THAT(map->matrix()(1, 2), WithinAbs(a(1, 2), 1e-15));
}

TEST_CASE("multi-head: the head selector switches the heatmap and bars", "[gui][explore]") {
  Explore e("multi-head", "multi-head");
  REQUIRE(e.view->headSelector()->count() == 2);
  e.view->setQuery(7);  // "it"
  const Matrix head1 = e.view->heatmap()->matrix();
  const auto w1 = e.weights();
  e.view->setHead(1);
  CHECK(e.view->heatmap()->matrix().data != head1.data);
  CHECK(e.weights() != w1);
  CHECK_THAT(sum(e.weights()), WithinAbs(1.0, 1e-12));
}

TEST_CASE("causal: masked cells are drawn apart from the map, masked bars marked",
          "[gui][explore][heatmap]") {
  Explore e("causal", "causal");
  e.view->setQuery(2);
  auto* map = e.view->heatmap();
  const QImage img = test::grab(map);
  const QRgb masked = gui::masked_color().rgb();
  for (int r = 0; r < 6; ++r)
    for (int c = r + 1; c < 6; ++c) {
      // Grey or its hatch, never an entry of the map (the map's entry for 0 is dark violet).
      const QRgb got = test::pixel_at(img, map->cellRect(r, c).center());
      CHECK((got == masked || got == qRgb(70, 70, 70)));
      CHECK(got != gui::ColorMap::instance().rgb(0));
    }
  // Weights after the query are masked: exactly 0, and not drawn as bars.
  const auto w = e.weights();
  for (size_t c = 3; c < w.size(); ++c) CHECK(w[c] == 0.0);
  CHECK(e.view->weightsChart()->barRect(4).height() == 0);
}

TEST_CASE("raw scores below zero are drawn below the zero line", "[gui][explore]") {
  Explore e("multi-head", "multi-head");
  auto* chart = e.view->scoresChart();
  bool seen = false;
  for (int q = 0; q < 11 && !seen; ++q) {
    e.view->setQuery(q);
    const auto& s = chart->values();
    for (size_t i = 0; i < s.size(); ++i)
      if (s[i] < -0.05) {
        const QRectF neg = chart->barRect(static_cast<int>(i));
        const QImage img = test::grab(chart);
        CHECK(neg.top() == chart->zeroLine());
        CHECK(neg.height() > 0);
        CHECK(test::pixel_at(img, neg.center()) == qRgb(0xc0, 0x7a, 0x20));
        seen = true;
        break;
      }
  }
  CHECK(seen);
}

TEST_CASE("a variant's parameters get editors, and a wider window lets 'it' reach 'animal'",
          "[gui][explore][params]") {
  Explore e("sliding-window", "sliding-window");
  auto* editor = e.view->paramEditor();
  REQUIRE(editor->isVisible());
  auto* window = qobject_cast<QSpinBox*>(editor->editor("window"));
  REQUIRE(window);
  CHECK(window->value() == 3);  // the exercise's variant.params
  CHECK(window->maximum() == 1048576);
  CHECK(window->toolTip().contains("keys each query sees on either side"));
  e.view->setQuery(7);              // "it"
  CHECK(e.weights().at(1) == 0.0);  // "animal" is six tokens back: out of the window
  window->setValue(6);
  e.settle();
  CHECK(e.weights().at(1) > 0.2);  // now in reach, and the strongest noun match

  // A variant without parameters shows no editor.
  e.view->setVariant("qkv");
  e.settle();
  CHECK_FALSE(editor->isVisible());
}
