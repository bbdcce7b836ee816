// bench_plan.cpp: grids and presets of `awb bench`.
#include "core/bench/bench_plan.hpp"

#include <algorithm>
#include <thread>

#include "graders/model/error.hpp"

namespace awb::core {

std::vector<BenchShape> expand(const BenchGrid& g) {
  std::vector<BenchShape> out;
  for (Scalar scalar : g.scalars)
    for (bool want : g.want_weights)
      for (bool causal : g.causal)
        for (int heads : g.heads)
          for (int64_t d : g.dims)
            for (int64_t tokens : g.tokens) {
              BenchShape s;
              s.tokens = tokens;
              s.d = d;
              s.heads = heads;
              s.causal = causal;
              s.scalar = scalar;
              s.want_weights = want;
              s.want_scores = want && g.with_scores;
              out.push_back(s);
            }
  return out;
}

BenchGrid quick_grid() {
  BenchGrid g;
  g.want_weights = {false, true};
  g.causal = {false, true};
  g.dims = {16};
  g.tokens = {33, 100};
  return g;
}

std::vector<PlannedPoint> goal_points() {
  auto shape = [](int64_t tokens, int heads, bool causal, Scalar scalar, bool want) {
    BenchShape s;
    s.tokens = tokens;
    s.d = 64;
    s.heads = heads;
    s.causal = causal;
    s.scalar = scalar;
    s.want_weights = want;
    return s;
  };
  const Scalar f32 = Scalar::kF32, f64 = Scalar::kF64;
  std::vector<PlannedPoint> out{
      {"parameter-free", shape(4096, 1, false, f32, false), "streaming >= 90% of GEMM"},
      {"parameter-free", shape(4096, 1, false, f32, true), "materialised (A) >= 70% of GEMM"},
      {"parameter-free", shape(4096, 1, true, f32, false), "causal >= 85% of GEMM (unmasked)"},
      {"multi-head", shape(1024, 8, false, f32, false), "8 heads + projections >= 80% of GEMM"},
      {"parameter-free", shape(1024, 1, false, f32, false), "T=1024 streaming >= 80% of GEMM"},
      {"parameter-free", shape(1024, 1, false, f64, false), "f64 >= 45% of f32 throughput"},
  };
  for (int64_t tokens : {2048, 8192})
    out.push_back({"parameter-free", shape(tokens, 1, false, f32, false),
                   tokens == 8192 ? "memory <= 16 MB above I/O; slope 2 +- 0.15" : "slope"});
  return out;
}

BenchSettings bench_settings(bool quick, int threads, int warmup, int reps, double target,
                             double max_seconds) {
  BenchSettings s;
  s.threads =
      threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s.warmup = warmup >= 0 ? warmup : (quick ? 1 : 2);
  s.reps = std::max(0, reps);
  s.target = target > 0 ? target : (quick ? 0.05 : 0.02);
  s.max_seconds = max_seconds > 0 ? max_seconds : (quick ? 0.25 : 1.0);
  return s;
}

Scalar parse_scalar(const std::string& s) {
  if (const auto scalar = awb::parse<Scalar>(s)) return *scalar;
  throw Error("bench.usage", "scalar '" + s + "' is not f32 or f64");
}

}  // namespace awb::core
