// bench_sweep.cpp: the sweep runs the CLI's calls (core::bench_point per point); nothing here
// measures or counts anything itself.
#include "gui/views/bench/bench_sweep.hpp"

#include <QRegularExpression>
#include <cmath>

#include "core/bench/bench_calibration.hpp"
#include "core/bench/bench_plan.hpp"
#include "graders/report/format.hpp"

namespace awb::gui {
namespace {

// Measurements, not exact values: six significant digits are more than they carry. NaN (no
// cost model) is an empty cell.
QString number(double v) { return std::isfinite(v) ? QString::number(v, 'g', 6) : QString(); }

}  // namespace

std::vector<int64_t> parse_tokens(const QString& text, QString* error) {
  std::vector<int64_t> out;
  static const QRegularExpression kSeparators(QStringLiteral("[,\\s]+"));
  for (const QString& item : text.split(kSeparators, Qt::SkipEmptyParts)) {
    bool ok = false;
    const qlonglong t = item.toLongLong(&ok);
    if (!ok || t <= 0) {
      if (error) *error = QObject::tr("'%1' is not a positive sequence length").arg(item);
      return {};
    }
    out.push_back(t);
  }
  if (out.empty() && error) *error = QObject::tr("no sequence length given");
  return out;
}

void bench_sweep_job(QPromise<BenchPoint>& promise, const CatalogPtr& catalog,
                     const BenchRequest& request, std::shared_ptr<std::atomic<bool>> cancel) {
  core::BenchGrid grid;
  grid.scalars = {request.scalar};
  grid.want_weights = {request.want_weights};
  grid.w_o = {request.w_o};
  grid.causal = {request.causal};
  grid.dims = {request.d};
  grid.tokens = request.tokens;
  grid.params = {request.params};
  const std::vector<core::BenchShape> shapes = core::expand(grid);
  const core::BenchSettings settings =
      core::bench_settings(request.quick, 0, request.warmup, request.reps);
  const double budget = core::kDefaultBenchBudgetGiB * 1024.0 * 1024.0 * 1024.0;
  core::EigenYardstick yardstick;
  for (const QString& spec : request.specs) {
    std::optional<core::VariantRef> ref;
    QString error;
    try {
      ref = core::find_variant(*catalog, spec.toStdString());
    } catch (const std::exception& e) {
      error = QString::fromUtf8(e.what());
    }
    for (const core::BenchShape& shape : shapes) {
      if (cancel->load()) return;
      BenchPoint p;
      p.spec = spec;
      p.variant = ref ? QString::fromStdString(ref->variant->id) : spec;
      p.shape = shape;
      if (!ref) {
        p.result.status = "failed";
        p.result.note = error.toStdString();
      } else {
        // bench_point turns the plugin's errors into a failed point; anything else (out of
        // memory, say) ends only this point too.
        try {
          p.result = core::bench_point(*ref, shape, settings, yardstick, budget);
        } catch (const std::exception& e) {
          p.result.status = "failed";
          p.result.note = e.what();
        }
      }
      promise.addResult(std::move(p));
    }
  }
}

QString bench_csv(const std::vector<BenchPoint>& points) {
  // The key names of `awb bench --format csv`, so the two files read alike.
  QString out = QStringLiteral(
      "variant,mode,tokens,d,scalar,causal,want_a,w_o,median_ms,n,ci_low_ms,ci_high_ms,min_ms,max_"
      "ms,"
      "gflops,gemm_gflops,gemm_ratio,peak_mib\n");
  for (const auto& p : points) {
    if (p.result.status != "ok") continue;
    const auto& s = p.shape;
    const auto& m = p.result.measure;
    const QStringList cells{QString::fromStdString(grade::csv_field(p.spec.toStdString())),
                            QString::fromStdString(p.result.mode),
                            QString::number(s.tokens),
                            QString::number(s.d),
                            QString::fromUtf8(to_string(s.scalar)),
                            s.causal ? "1" : "0",
                            s.want_weights ? "1" : "0",
                            s.w_o ? "1" : "0",
                            number(m.median * 1e3),
                            QString::number(m.interval.n),
                            number(m.interval.low * 1e3),
                            number(m.interval.high * 1e3),
                            number(m.min * 1e3),
                            number(m.max * 1e3),
                            number(m.gflops()),
                            number(m.gemm_gflops()),
                            number(m.gemm_ratio()),
                            number(m.footprint_bytes() / (1024.0 * 1024.0))};
    out += cells.join(',') + '\n';
  }
  return out;
}

}  // namespace awb::gui
