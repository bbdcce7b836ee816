// bench_sweep.hpp: the bench view's job: a sweep of T on some variants through the core's bench,
// one point at a time (so the window can draw them as they come), and its numbers as CSV.
#ifndef AWB_GUI_BENCH_SWEEP_HPP_
#define AWB_GUI_BENCH_SWEEP_HPP_

#include <QPromise>
#include <QString>
#include <QStringList>
#include <atomic>
#include <memory>
#include <vector>

#include "core/bench/bench.hpp"
#include "gui/session/session.hpp"

namespace awb::gui {

// What to sweep: every T of `tokens` on every variant of `specs`, one head, the rest fixed.
struct BenchRequest {
  QStringList specs;  // "plugin.id:variant-id", as the plugin browser gives them
  std::vector<int64_t> tokens{128, 256, 512, 1024, 2048, 4096};
  int64_t d = 64;
  Scalar scalar = Scalar::kF32;
  bool causal = false;
  bool want_weights = false;   // A requested: the materialised path
  bool w_o = false;            // W_o given (off, as `awb bench`, for every variant)
  bool quick = false;          // fewer calls per point
  int warmup = -1, reps = -1;  // overrides of the core's defaults (< 0: none)
  ParamValues params;          // variant parameters for every point, as written

  int total() const { return static_cast<int>(specs.size() * tokens.size()); }
};

// One point as the job reports it.
struct BenchPoint {
  QString spec;
  QString variant;  // the variant's id: the legend's label
  core::BenchShape shape;
  core::BenchPointResult result;
};

// Parses "128, 256 512": positive integers split by commas or spaces. Empty on an error, with
// `error` saying which entry.
std::vector<int64_t> parse_tokens(const QString& text, QString* error);

// Runs `request` as `awb bench` runs its points (core::bench_settings, core::bench_point, an
// Eigen yardstick, the default memory budget), reporting each point as a result of `promise`
// in order: variants outer, T inner. Stops between points once `cancel` is set.
void bench_sweep_job(QPromise<BenchPoint>& promise, const CatalogPtr& catalog,
                     const BenchRequest& request, std::shared_ptr<std::atomic<bool>> cancel);

// The measured points, one row each; skipped and failed points are left out (the view lists
// them as notes). Peak memory is the point's footprint (core::BenchMeasure::footprint_bytes).
// GFLOP/s and the GEMM ratio are empty cells where the variant has no cost model (or one that
// claims more than the FMA peak), as in `awb bench --format csv`.
QString bench_csv(const std::vector<BenchPoint>& points);

}  // namespace awb::gui

#endif  // AWB_GUI_BENCH_SWEEP_HPP_
