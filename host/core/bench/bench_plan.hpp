// bench_plan.hpp: which points `awb bench` measures: a grid of shapes, or a named preset.
#ifndef AWB_CORE_BENCH_BENCH_PLAN_HPP_
#define AWB_CORE_BENCH_BENCH_PLAN_HPP_

#include <string>
#include <vector>

#include "core/bench/bench.hpp"

namespace awb::core {

// Every combination of the lists, in this nesting order (tokens innermost, so a variant's
// scaling rows sit together; each parameter setting has its own run of T and d).
struct BenchGrid {
  std::vector<Scalar> scalars{Scalar::kF32};
  std::vector<bool> want_weights{false};
  std::vector<bool> causal{false};
  std::vector<int> heads{1};
  std::vector<int> kv_heads{0};  // 0: as many as heads
  std::vector<int> batch{1};
  std::vector<double> padding{0};
  std::vector<bool> w_o{false};         // W_o given (BenchShape::w_o)
  std::vector<ParamValues> params{{}};  // variant parameter settings (param_grid)
  std::vector<int64_t> dims{64};
  std::vector<int64_t> tokens{128, 256, 512, 1024, 2048, 4096, 8192};
  bool with_scores = false;  // S requested wherever A is
};
std::vector<BenchShape> expand(const BenchGrid& grid);

// The settings a list of sweeps gives, "window=16,64,256" and "feature_map=relu" each one name and
// its values: every combination, the first name outermost, values in the order given (a name
// given twice: the later list). No sweeps: one empty setting. Throws awb::Error("param.syntax")
// for an entry that is not name=v1,v2,... with non-empty values.
std::vector<ParamValues> param_grid(const std::vector<std::string>& sweeps);

// The sweep of --quick when no sweep list is given: tiny shapes (T = 33 and 100, not multiples
// of the kernel's tiles; d = 16), both paths, causal on and off; seconds in all. With any list
// given, the lists not given take BenchGrid's defaults, quick or not.
BenchGrid quick_grid();

// A point with the variant it is about ("" for every chosen variant).
struct PlannedPoint {
  std::string variant;
  BenchShape shape;
  std::string goal;  // what it shows, e.g. "causal >= 1.0x GEMM (unmasked)"
};
// The goal points of the performance issue (f32 unless stated, d = 64): the streaming,
// materialised and causal kernels at T = 4096, multi-head with projections (8 heads, d_model
// 512) at T = 1024, streaming at T = 1024 in f32 and f64, and the scaling run T = 1024…8192.
std::vector<PlannedPoint> goal_points();

// How points are timed unless told: `threads` 0 is every core; `warmup` < 0 takes 2 warm-up
// calls (1 when `quick`); `reps` > 0 is a fixed count of timed calls, else they adapt: until the
// median's 95 % interval is within ±`target` (<= 0: 2 %, 5 % when `quick`), at least 6 calls,
// at most 1000, and after the sixth at most `max_seconds` a point (<= 0: 1 s, 0.25 s when
// `quick`).
BenchSettings bench_settings(bool quick, int threads = 0, int warmup = -1, int reps = -1,
                             double target = -1, double max_seconds = -1);

// GiB the host may allocate for A and S of one point unless told otherwise.
constexpr double kDefaultBenchBudgetGiB = 2.0;

// Parses "f32" / "f64"; throws awb::Error("bench.usage") otherwise.
Scalar parse_scalar(const std::string& s);

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_BENCH_PLAN_HPP_
