// bench_json.hpp: one measured point's statistics as `awb bench --format json` writes them, for
// every front end that reports a point.
#ifndef AWB_CORE_BENCH_BENCH_JSON_HPP_
#define AWB_CORE_BENCH_BENCH_JSON_HPP_

#include <nlohmann/json.hpp>

#include "core/bench/bench.hpp"

namespace awb::core {

// flops, cost_bytes, gbytes_per_s, first_call_ms, median_ms, n, ci_low_ms, ci_high_ms,
// ci_coverage, min_ms, max_ms, gflops, gemm_median_ms, gemm_gflops, gemm_ratio, blas_gflops,
// blas_ratio, fma_peak_gflops, peak_share, io_bytes, peak_first_bytes, peak_warm_bytes and
// samples_ms. NaN (no cost model, or a figure above the peak) is written as null.
nlohmann::json measure_json(const BenchMeasure& m);

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_BENCH_JSON_HPP_
