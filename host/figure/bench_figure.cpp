// bench_figure.cpp: the run is read back as `awb bench --from` reads it (cli/bench_report.hpp),
// its series are the scaling fits' groups over every T, and the chart is the GUI's bench chart.
#include "figure/bench_figure.hpp"

#include <QLabel>
#include <QStringList>
#include <QVBoxLayout>
#include <vector>

#include "cli/bench_report.hpp"
#include "gui/charts/loglog_chart.hpp"

namespace awb::figure {

std::unique_ptr<QWidget> bench_figure(const nlohmann::json& spec) {
  const cli::BenchRun run = cli::bench_run_from_json(spec.at("run"));
  std::vector<gui::LogLogChart::Series> series;
  for (const auto& rows : cli::bench_series(run)) {
    const cli::BenchRow& first = *rows.front();
    QString label = QString::fromStdString(cli::shape_label(first));
    if (first.mode != "in-process") label += QStringLiteral(" (%1)").arg(first.mode.c_str());
    gui::LogLogChart::Series s{label, {}, {}};
    std::vector<double> t, ms;
    for (const cli::BenchRow* r : rows) {
      const auto& ci = r->measure.interval;
      t.push_back(static_cast<double>(r->shape.tokens));
      ms.push_back(r->measure.median * 1e3);
      s.points.emplace_back(t.back(), ms.back());
      s.intervals.emplace_back(ci.low * 1e3, ci.high * 1e3);
    }
    s.note = gui::loglog_slope_note(t, ms);
    series.push_back(std::move(s));
  }
  QStringList left_out;
  for (const auto& r : run.rows)
    if (r.status != "ok")
      left_out << QStringLiteral("%1 T=%2 (%3)")
                      .arg(QString::fromStdString(cli::shape_label(r)))
                      .arg(r.shape.tokens)
                      .arg(QString::fromStdString(r.status));

  auto figure = std::make_unique<QWidget>();
  figure->setWindowTitle(QObject::tr("Time per call against sequence length"));
  auto* chart = new gui::LogLogChart;
  chart->setTitle(
      QObject::tr("Time per call (ms) against T: median of the warm calls, bars its "
                  "95 % interval"));
  chart->setAxisTitle(QObject::tr("T (tokens)"));
  const int lines = static_cast<int>(series.size());
  chart->setSeries(std::move(series));
  chart->setLegendBelow(true);
  chart->setFixedSize(760, 420 + lines * (chart->fontMetrics().height() + 2));

  const auto& m = run.machine;
  QString caption =
      QObject::tr(
          "%1, %2 logical CPUs, kernels %3; %4 threads; awb %5%6. Intervals: "
          "distribution-free 95 % intervals of the median (order statistics). Slope: "
          "least-squares fit of log time on log T over every point of the series (from "
          "three points on), with its R².")
          .arg(QString::fromStdString(m.cpu_model))
          .arg(m.logical_cpus)
          .arg(QString::fromStdString(m.kernels.empty() ? "unknown" : m.kernels))
          .arg(run.settings.threads > 0 ? QString::number(run.settings.threads)
                                        : QObject::tr("all"))
          .arg(QString::fromStdString(run.awb_version))
          .arg(run.quick ? QObject::tr(", --quick") : QString());
  if (!left_out.isEmpty()) caption += QObject::tr(" Not plotted: %1.").arg(left_out.join("; "));
  auto* caption_label = new QLabel(caption);
  caption_label->setTextFormat(Qt::PlainText);
  caption_label->setWordWrap(true);
  caption_label->setFixedWidth(chart->width());

  auto* layout = new QVBoxLayout(figure.get());
  layout->setContentsMargins(12, 12, 12, 12);
  layout->addWidget(chart);
  layout->addWidget(caption_label);
  layout->setSizeConstraint(QLayout::SetFixedSize);
  return figure;
}

}  // namespace awb::figure
