// bench_json.hpp: one measured point's statistics as `awb bench --format json` writes them, for
// every front end that reports a point.
#ifndef AWB_CORE_BENCH_BENCH_JSON_HPP_
#define AWB_CORE_BENCH_BENCH_JSON_HPP_

#include <nlohmann/json.hpp>

#include "core/bench/bench.hpp"
#include "core/bench/torch_peer.hpp"

namespace awb::core {

// flops, cost_bytes, gbytes_per_s, first_call_ms, median_ms, n, ci_low_ms, ci_high_ms,
// ci_coverage, min_ms, max_ms, gflops, gemm_median_ms, gemm_gflops, gemm_ratio, blas_gflops,
// blas_ratio, fma_peak_gflops, peak_share, io_bytes, peak_first_bytes, peak_warm_bytes and
// samples_ms. NaN (no cost model, or a figure above the peak) is written as null.
nlohmann::json measure_json(const BenchMeasure& m);

// A run's peer (`--peer torch`): its name, interpreter, and torch's settings, or why it was
// skipped; the run header's "peer" object.
nlohmann::json peer_json(const PeerInfo& p);
// Reads those keys back into `p`, each that `j` has (the others keep their values): a saved run's
// header, or the peer driver's result (which names torch's settings by the same keys).
void read_peer(const nlohmann::json& j, PeerInfo& p);

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_BENCH_JSON_HPP_
