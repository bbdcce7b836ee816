// figure.tests.cpp: the parts awb-figure builds its figures from: heatmaps that leave their
// colour bar to one shared beside them, and a log-log chart with intervals and its legend below.
#include <QApplication>
#include <catch2/catch.hpp>

#include "gui/charts/heatmap_widget.hpp"
#include "gui/charts/loglog_chart.hpp"

using namespace awb;

namespace {

Matrix ramp(int n) {
  Matrix m(n, n);
  for (int r = 0; r < n; ++r)
    for (int c = 0; c < n; ++c) m(r, c) = (r * n + c + 1.0) / (n * n * 2.0);
  return m;
}

bool draws(const std::vector<gui::DrawnTextSource::Text>& texts, const QString& text) {
  for (const auto& t : texts)
    if (t.text == text) return true;
  return false;
}

}  // namespace

TEST_CASE("figure heatmap: without its legend it draws no colour bar and gives the cells the room",
          "[figure]") {
  QStringList tokens{"Your", "journey", "starts", "with", "one", "step"};
  gui::HeatmapWidget with, without;
  for (auto* map : {&with, &without}) {
    map->setMatrix(ramp(6), 0, 1, false);
    map->setLabels(tokens, tokens);
    map->resize(420, 380);
  }
  without.setLegendShown(false);
  const QStringList ticks = with.legendTicks();
  CHECK(draws(with.drawnTexts(), ticks.front()));
  CHECK(draws(with.drawnTexts(), with.rangeCaption()));
  CHECK_FALSE(draws(without.drawnTexts(), ticks.front()));
  CHECK_FALSE(draws(without.drawnTexts(), with.rangeCaption()));
  // Every token label is still drawn, and the cells grow into the legend's room.
  for (const auto& t : tokens) CHECK(draws(without.drawnTexts(), t));
  CHECK(without.plotArea().width() > with.plotArea().width());
  CHECK(without.minimumSizeHint().width() < with.minimumSizeHint().width());
}

TEST_CASE("figure log-log chart: intervals widen the decades, a legend below keeps off the plot",
          "[figure]") {
  gui::LogLogChart chart;
  gui::LogLogChart::Series s{QStringLiteral("parameter-free"), QStringLiteral("slope 2.00"), {}};
  s.points = {{100, 1}, {200, 4}, {400, 16}};
  s.intervals = {{0.05, 1.5}, {3, 5}, {12, 300}};
  chart.setSeries({s});
  chart.resize(600, 360);
  CHECK(chart.decadeLow(Qt::Vertical) == -2);  // 0.05 is drawn
  CHECK(chart.decadeHigh(Qt::Vertical) == 3);  // 300 is drawn
  const QString line = QStringLiteral("parameter-free  slope 2.00");
  const QRectF over = chart.plotRect();
  chart.setLegendBelow(true);
  const QRectF plot = chart.plotRect();
  CHECK(plot.height() < over.height());
  bool found = false;
  for (const auto& t : chart.drawnTexts())
    if (t.text == line) {
      found = true;
      CHECK(t.rect.top() > plot.bottom());
      CHECK(t.rect.bottom() <= chart.height());
    }
  CHECK(found);
}
