// bench.tests.cpp: the bench view: a tiny sweep through the core's bench drawn as log-log lines,
// the chart's decade geometry, skipped points as notes, cancelling, and the PNG and CSV exports.
#include <QFile>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

#include "gui/views/bench/bench_view.hpp"
#include "gui_support.hpp"

using namespace awb;
using Catch::Matchers::WithinAbs;

namespace {

// The sweep of the acceptance: small T, one timed call, no warm-up (nothing is timed
// against a goal here; the points only have to be real measurements).
gui::BenchRequest tiny(gui::BenchView* view) {
  QString error;
  auto r = view->request(&error);
  INFO(error.toStdString());
  REQUIRE(r);
  r->quick = true;
  r->warmup = 0;
  r->reps = 1;
  return *r;
}

}  // namespace

TEST_CASE("bench view: a tiny sweep of parameter-free is one line of three points",
          "[gui][bench]") {
  gui::MainWindow w(test::gui_session());
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("bench"));
  REQUIRE(w.selectVariants({"parameter-free"}));
  auto* bv = w.bench();
  REQUIRE(bv->checkedVariants().size() == 1);
  CHECK(bv->checkedVariants().front().endsWith(":parameter-free"));

  // The controls' defaults are the issue's, and the T list parses.
  QString error;
  auto defaults = bv->request(&error);
  REQUIRE(defaults);
  CHECK(defaults->tokens == std::vector<int64_t>{128, 256, 512, 1024, 2048, 4096});
  CHECK(defaults->d == 64);
  CHECK(defaults->scalar == Scalar::kF32);
  CHECK_FALSE(defaults->causal);
  CHECK_FALSE(defaults->want_weights);
  bv->tokensEdit()->setText("16, 32 64");
  const gui::BenchRequest r = tiny(bv);
  CHECK(r.tokens == std::vector<int64_t>{16, 32, 64});

  bv->start(r);
  CHECK(bv->busy());
  REQUIRE(test::wait_for([&] { return !bv->busy(); }, 180000));
  REQUIRE(bv->points().size() == 3);
  for (const auto& p : bv->points()) {
    INFO(p.result.note);
    CHECK(p.result.status == "ok");
    CHECK(p.result.measure.median > 0);
  }
  CHECK(bv->progress()->value() == 3);
  CHECK(bv->progress()->maximum() == 3);
  CHECK(bv->notes()->text().isEmpty());

  for (auto* chart : {bv->timeChart(), bv->memoryChart()}) {
    const auto& series = chart->series();
    REQUIRE(series.size() == 1);
    CHECK(series[0].label == "parameter-free");
    CHECK(series[0].note.startsWith("slope "));
    REQUIRE(series[0].points.size() == 3);
    for (size_t i = 1; i < 3; ++i) {
      CHECK(series[0].points[i].x() > series[0].points[i - 1].x());
      CHECK(chart->toPixel(series[0].points[i]).x() > chart->toPixel(series[0].points[i - 1]).x());
    }
    CHECK(chart->decadeLow(Qt::Horizontal) == 1);  // 16 … 64 lies in 10 … 100
    CHECK(chart->decadeHigh(Qt::Horizontal) == 2);
  }
  // The chart shows the core's numbers: the median in ms, the footprint in MiB.
  const auto& first = bv->points().front().result.measure;
  CHECK(bv->timeChart()->series()[0].points[0].y() == Approx(first.median * 1e3));
  CHECK(bv->memoryChart()->series()[0].points[0].y() ==
        Approx(first.footprint_bytes() / (1024.0 * 1024.0)));

  QTemporaryDir dir;
  const QString csv = dir.filePath("bench.csv");
  // Kept beside the acceptance screenshots, to be looked at.
  const QString png = QStringLiteral(AWB_TEST_SCREENSHOT_DIR "/bench-parameter-free@2x.png");
  REQUIRE(bv->exportCsv(csv));
  QFile f(csv);
  REQUIRE(f.open(QIODevice::ReadOnly));
  const QStringList lines = QString::fromUtf8(f.readAll()).split('\n', Qt::SkipEmptyParts);
  REQUIRE(lines.size() == 4);
  const QStringList header = lines[0].split(',');
  CHECK(header.front() == "variant");
  CHECK(header.contains("tokens"));
  CHECK(header.contains("median_ms"));
  CHECK(header.back() == "peak_mib");
  const int t_col = static_cast<int>(header.indexOf("tokens"));
  for (int i = 1; i <= 3; ++i) {
    const QStringList cells = lines[i].split(',');
    REQUIRE(cells.size() == header.size());
    CHECK(cells[0].endsWith(":parameter-free"));
    CHECK(cells[t_col].toInt() == (16 << (i - 1)));
  }

  CHECK(header.contains("mode"));
  CHECK(header.contains("n"));
  CHECK(lines[1].split(',')[static_cast<int>(header.indexOf("mode"))] == "in-process");

  // The run's settings are drawn under the charts, inside the exported widget: the PNG says
  // how its numbers were made.
  const QString caption = bv->caption();
  INFO(caption.toStdString());
  for (const char* words : {"d = 64", "f32", "causal off", "A off", "quick on", "threads",
                            "timed calls", "run in-process", "awb "})
    CHECK(caption.contains(QString::fromUtf8(words)));
  CHECK(bv->captionLabel()->text() == caption);
  CHECK(bv->captionLabel()->isVisible());
  CHECK(bv->plots()->isAncestorOf(bv->captionLabel()));

  REQUIRE(bv->exportPng(png));
  const QImage image(png);
  REQUIRE_FALSE(image.isNull());
  CHECK(image.size() == bv->plots()->size() * 2);
}

TEST_CASE("log-log chart: each decade is as wide as the next, markers in the series' colour",
          "[gui][bench]") {
  gui::LogLogChart chart;
  chart.resize(600, 320);
  chart.setSeries({{"a", "slope 2.00", {{16, 0.5}, {1000, 20}, {5000, 300}}}});
  chart.show();
  CHECK(chart.decadeLow(Qt::Horizontal) == 1);
  CHECK(chart.decadeHigh(Qt::Horizontal) == 4);
  CHECK(chart.decadeLow(Qt::Vertical) == -1);
  CHECK(chart.decadeHigh(Qt::Vertical) == 3);
  const QRectF plot = chart.plotRect();
  auto px = [&](double x) { return chart.toPixel({x, 1}).x(); };
  auto py = [&](double y) { return chart.toPixel({100, y}).y(); };
  CHECK_THAT(px(10), WithinAbs(plot.left(), 1e-9));
  CHECK_THAT(px(1e4), WithinAbs(plot.right(), 1e-9));
  CHECK_THAT(px(100) - px(10), WithinAbs(px(1000) - px(100), 1e-9));
  CHECK_THAT(px(1e4) - px(1e3), WithinAbs(plot.width() / 3, 1e-9));
  CHECK_THAT(py(0.1), WithinAbs(plot.bottom(), 1e-9));
  CHECK_THAT(py(1000), WithinAbs(plot.top(), 1e-9));
  CHECK_THAT(py(1) - py(10), WithinAbs(py(10) - py(100), 1e-9));
  // A power law is a straight line: y = x² through three decades.
  const QPointF a = chart.toPixel({10, 1}), b = chart.toPixel({100, 100}),
                c = chart.toPixel({1000, 10000});
  CHECK_THAT((b - a).x() * (c - b).y() - (b - a).y() * (c - b).x(), WithinAbs(0, 1e-6));

  const QImage image = test::grab(&chart);
  for (QPointF p : chart.series()[0].points) {
    const QRgb at = test::pixel_at(image, chart.toPixel(p));
    INFO(test::rgb_text(at));
    CHECK(at == gui::LogLogChart::seriesColor(0).rgb());
  }
}

TEST_CASE("bench view: points a variant cannot run are notes, not plotted, Cancel stops a sweep",
          "[gui][bench]") {
  gui::MainWindow w(test::gui_session());
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("bench"));
  // The causal variant always masks: without the mask it has nothing to run.
  REQUIRE(w.selectVariants({"parameter-free", "causal"}));
  auto* bv = w.bench();
  bv->tokensEdit()->setText("16");
  bv->start(tiny(bv));
  REQUIRE(test::wait_for([&] { return !bv->busy(); }, 180000));
  REQUIRE(bv->points().size() == 2);
  for (const auto& p : bv->points())
    CHECK(p.result.status == (p.variant == "causal" ? "skipped" : "ok"));
  const auto& series = bv->timeChart()->series();
  REQUIRE(series.size() == 2);
  for (const auto& s : series) CHECK(s.points.size() == (s.label == "causal" ? 0u : 1u));
  CHECK(bv->notes()->text().contains("causal, T = 16: skipped (the variant always masks)"));
  CHECK(bv->csv().count('\n') == 2);  // the header and parameter-free's one point

  // Cancel before the first point is back: the job stops at the next point.
  bv->tokensEdit()->setText("16 32 64 128 256 512");
  const gui::BenchRequest r = tiny(bv);
  REQUIRE(r.total() == 12);
  bv->start(r);
  bv->cancel();
  REQUIRE(test::wait_for([&] { return !bv->busy(); }, 180000));
  CHECK(bv->points().size() < 12);
}

TEST_CASE("bench view: W_o is off for every variant unless asked, and a variant without it skips",
          "[gui][bench]") {
  gui::MainWindow w(test::gui_session());
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("bench"));
  REQUIRE(w.selectVariants({"multi-head", "qkv"}));
  auto* bv = w.bench();
  bv->tokensEdit()->setText("16");
  gui::BenchRequest r = tiny(bv);
  CHECK_FALSE(r.w_o);  // the default, as `awb bench`'s
  r.d = 8;
  r.w_o = true;
  bv->start(r);
  REQUIRE(test::wait_for([&] { return !bv->busy(); }, 180000));
  REQUIRE(bv->points().size() == 2);
  for (const auto& p : bv->points()) {
    INFO(p.variant.toStdString() << ": " << p.result.note);
    CHECK(p.shape.w_o);
    CHECK(p.result.status == (p.variant == "qkv" ? "skipped" : "ok"));
  }
  CHECK(bv->notes()->text().contains("qkv, T = 16: skipped (the variant has no output projection"));
  CHECK(bv->csv().contains(",w_o,"));
}
