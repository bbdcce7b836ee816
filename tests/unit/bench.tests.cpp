// bench.tests.cpp: the cost model's figures `awb bench` divides by, its parameters and plan, its
// memory probe, one real point, and when the repetition of timed calls stops.
#include "core/bench/bench.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <limits>
#include <random>
#include <thread>
#include <vector>

#include "core/bench/bench_calibration.hpp"
#include "core/bench/bench_plan.hpp"
#include "core/bench/peak_memory.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

constexpr uint64_t kParameterFree = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL;

core::BenchShape shape(int64_t tokens, int64_t d, int heads, bool causal, bool want_a = false) {
  core::BenchShape s;
  s.tokens = tokens;
  s.d = d;
  s.heads = heads;
  s.causal = causal;
  s.want_weights = want_a;
  return s;
}

// A yardstick with fixed answers: the bench's arithmetic is checked, not this machine.
struct FixedYardstick : core::Yardstick {
  double gemm_seconds(Scalar, int) override { return 0.25; }
  int64_t gemm_n() const override { return 100; }
  double fma_peak_gflops(Scalar, int) override { return 50; }
  std::string fma_isa() const override { return "test"; }
};

// What a cost query saw: the problem (its pointers valid only during the query) and the
// parameter values it carried.
struct Asked {
  awb_problem problem;
  std::vector<double> values;
};

// A subject that sleeps `pause` a call and answers cost queries with `cost` (none: no model),
// keeping what each query saw.
core::ForwardFactory costing(std::optional<awb_cost> cost, std::vector<Asked>* asked,
                             std::chrono::microseconds pause = {}) {
  return [cost, asked, pause] {
    return core::BenchSubject(
        [pause](const awb_problem&, awb_results&) {
          if (pause.count() > 0) std::this_thread::sleep_for(pause);
        },
        [cost, asked](const awb_problem& p, bool) {
          Asked a{p, {}};
          for (size_t i = 0; i < p.n_params; ++i) a.values.push_back(p.params[i].value);
          asked->push_back(a);
          return cost;
        });
  };
}

core::BenchSettings three_reps() {
  core::BenchSettings settings;
  settings.threads = 1;
  settings.warmup = 0;
  settings.reps = 3;
  return settings;
}

}  // namespace

TEST_CASE("a point's FLOPs and bytes are the variant's cost model's, asked with shapes only",
          "[bench][cost]") {
  FixedYardstick yardstick;
  std::vector<Asked> asked;
  const std::vector<ParamDecl> decls{{"window", ParamType::kInt, "", 2, 0, 100, {}}};
  auto s = shape(40, 8, 1, true);
  s.params = {{"window", "16"}};
  // 1 ms a call: 4e6 FLOPs then make about 4 GFLOP/s, below the fixed peak of 50.
  const auto m = core::measure_point(
      costing(awb_cost{sizeof(awb_cost), 4e6, 3e3}, &asked, std::chrono::microseconds(1000)),
      kParameterFree, s, three_reps(), yardstick, {decls, "variant 'banded'", true});
  REQUIRE(asked.size() == 1);
  const awb_problem& p = asked[0].problem;
  CHECK(p.x.data == nullptr);
  CHECK(p.x.rank == 2);
  CHECK(p.x.shape[0] == 40);
  CHECK(p.x.shape[1] == 8);
  CHECK(p.causal == 1);
  CHECK(asked[0].values == std::vector<double>{16});
  CHECK(m.flops == 4e6);
  CHECK(m.cost_bytes == 3e3);
  CHECK(m.has_cost());
  REQUIRE_FALSE(m.above_peak());
  CHECK(m.gflops() == Approx(4e6 / m.median * 1e-9));
  CHECK(m.gbytes_per_s() == Approx(3e3 / m.median * 1e-9));
  CHECK(m.peak_share() == Approx(m.gflops() / 50));
}

TEST_CASE("without a cost model a point has time but no FLOPs, GFLOP/s or ratios",
          "[bench][cost]") {
  FixedYardstick yardstick;
  std::vector<Asked> asked;
  const auto m = core::measure_point(costing(std::nullopt, &asked), kParameterFree,
                                     shape(16, 4, 1, false), three_reps(), yardstick);
  CHECK(asked.size() == 1);
  CHECK(m.median > 0);
  CHECK_FALSE(m.has_cost());
  CHECK(std::isnan(m.gflops()));
  CHECK(std::isnan(m.gemm_ratio()));
  CHECK(std::isnan(m.peak_share()));
  CHECK(m.gemm_gflops() > 0);  // the yardstick is measured all the same
}

TEST_CASE("a cost model claiming more than the FMA peak is not reported", "[bench][cost]") {
  FixedYardstick yardstick;  // peak 50 GFLOP/s
  std::vector<Asked> asked;
  const auto m =
      core::measure_point(costing(awb_cost{sizeof(awb_cost), 1e18, 1}, &asked), kParameterFree,
                          shape(16, 4, 1, false), three_reps(), yardstick);
  CHECK(m.flops == 1e18);
  CHECK(m.above_peak());
  CHECK(m.claimed_gflops() > 50);
  CHECK(std::isnan(m.gflops()));
  CHECK(std::isnan(m.peak_share()));
}

TEST_CASE("a point's parameters are resolved strictly against the variant's declarations",
          "[bench][params]") {
  const std::vector<ParamDecl> decls{{"window", ParamType::kInt, "", 2, 0, 100, {}}};
  const core::ParamBinding binding{decls, "variant 'banded'", true};
  auto s = shape(8, 4, 1, false);
  CHECK(core::bench_param_values(s, binding) == std::vector<double>{2});  // the default
  s.params = {{"window", "64"}};
  CHECK(core::bench_param_values(s, binding) == std::vector<double>{64});
  s.params = {{"widow", "64"}};
  CHECK_THROWS_WITH(core::bench_param_values(s, binding), Catch::Contains("[param.unknown]"));
  s.params = {{"window", "1000"}};
  CHECK_THROWS_WITH(core::bench_param_values(s, binding), Catch::Contains("[param.invalid]"));
  // A variant without parameters takes none.
  s.params = {{"window", "4"}};
  CHECK_THROWS_WITH(core::bench_param_values(s, {}), Catch::Contains("[param.unknown]"));
}

TEST_CASE("parameter sweeps expand to every combination, crossed with the shapes",
          "[bench][params]") {
  CHECK(core::param_grid({}) == std::vector<ParamValues>{{}});
  const auto grid = core::param_grid({"window=16,64,256", "feature_map=relu,elu+1"});
  REQUIRE(grid.size() == 6);
  CHECK(grid[0] == ParamValues{{"window", "16"}, {"feature_map", "relu"}});
  CHECK(grid[1] == ParamValues{{"window", "16"}, {"feature_map", "elu+1"}});
  CHECK(grid[5] == ParamValues{{"window", "256"}, {"feature_map", "elu+1"}});
  CHECK(core::param_grid({"window=1,2", "window=8"}) ==
        std::vector<ParamValues>{{{"window", "8"}}});  // the later list
  for (const char* bad : {"window", "window=", "=16", "window=16,", "window=,16", "window=1,,2"})
    CHECK_THROWS_WITH(core::param_grid({bad}), Catch::Contains("[param.syntax]"));

  core::BenchGrid g;
  g.tokens = {10, 20};
  g.params = core::param_grid({"window=16,64"});
  const auto points = core::expand(g);
  REQUIRE(points.size() == 4);
  CHECK(points[0].params.at("window") == "16");
  CHECK(points[1].params.at("window") == "16");  // tokens innermost
  CHECK(points[2].params.at("window") == "64");
  CHECK(points[3].tokens == 20);
}

TEST_CASE("bytes of a point: T × T planes only when A or S is requested", "[bench]") {
  auto s = shape(1000, 64, 2, false);
  CHECK(core::materialised_bytes(s) == 0);
  s.want_weights = true;
  CHECK(core::materialised_bytes(s) == 2.0 * 1000 * 1000 * 4);
  s.want_scores = true;
  s.scalar = Scalar::kF64;
  CHECK(core::materialised_bytes(s) == 2 * 2.0 * 1000 * 1000 * 8);
  // Inputs and outputs of the parameter-free variant: X and Z, T × d each.
  CHECK(core::io_bytes(shape(1000, 64, 1, false), kParameterFree) == 2.0 * 1000 * 64 * 4);
}

TEST_CASE("bench points a variant cannot run say why", "[bench]") {
  CHECK_FALSE(core::bench_fit_reason(shape(8, 4, 1, true), kParameterFree));
  CHECK(core::bench_fit_reason(shape(8, 4, 2, false), kParameterFree) ==
        std::optional<std::string>("the variant has one head"));
  CHECK(core::bench_fit_reason(shape(8, 4, 1, false), kParameterFree | AWB_CAP_CAUSAL_ONLY) ==
        std::optional<std::string>("the variant always masks"));
  CHECK(core::bench_fit_reason(shape(8, 4, 1, true), AWB_CAP_F32) ==
        std::optional<std::string>("the variant has no causal mask"));
}

TEST_CASE("log-log slopes recover the exponent", "[bench]") {
  const std::vector<double> t{1024, 2048, 4096, 8192};
  std::vector<double> square, linear;
  for (double x : t) {
    square.push_back(3e-9 * x * x);
    linear.push_back(5 * x + 0);
  }
  CHECK(core::loglog_fit(t, square)->slope == Approx(2.0));
  CHECK(core::loglog_fit(t, linear)->slope == Approx(1.0));
}

TEST_CASE("bench grids expand to every combination, the goals preset names its points", "[bench]") {
  core::BenchGrid g;
  g.tokens = {10, 20, 30};
  g.causal = {false, true};
  g.want_weights = {false, true};
  g.with_scores = true;
  const auto points = core::expand(g);
  REQUIRE(points.size() == 12);
  CHECK(points[0].tokens == 10);
  CHECK(points[2].tokens == 30);  // tokens vary fastest
  for (const auto& p : points) CHECK(p.want_scores == p.want_weights);
  const auto goals = core::goal_points();
  REQUIRE(goals.size() >= 8);
  CHECK(goals[0].shape.tokens == 4096);
  CHECK(goals[3].shape.heads == 8);
}

TEST_CASE("the memory probe sees pages written between start and stop", "[bench][memory]") {
  core::PeakMemoryProbe probe;
  REQUIRE(probe.start());  // Linux: /proc/self/clear_refs
  {
    std::vector<char> block(32 << 20);
    for (size_t i = 0; i < block.size(); i += 4096) block[i] = 1;
    CHECK(probe.stop() >= (30 << 20));
  }
  probe.start();
  CHECK(probe.stop() < (30 << 20));  // the block is gone, and so is its mark
}

TEST_CASE("one bench point runs a bundled variant and fills every figure", "[bench][plugin]") {
  const auto ref = core::find_variant(test::bundled_catalog(), "multi-head");
  FixedYardstick yardstick;
  core::BenchSettings settings;
  settings.threads = 2;
  settings.warmup = 1;
  settings.reps = 3;
  const auto s = shape(70, 8, 2, true, true);
  const auto m = core::measure_point(core::session_factory(ref), ref.variant->capabilities, s,
                                     settings, yardstick);
  // FLOPs only from the variant's own cost model; none is asked of the host.
  CHECK(m.has_cost() == ref.variant->has_cost);
  if (m.has_cost()) CHECK(m.gflops() == Approx(m.flops / m.median * 1e-9));
  CHECK(m.first_call > 0);
  CHECK(m.min <= m.median);
  CHECK(m.median <= m.max);
  CHECK(m.gemm_gflops() == Approx(2e6 / 0.25 * 1e-9));
  if (m.has_cost()) {
    CHECK(m.gemm_ratio() == Approx(m.gflops() / m.gemm_gflops()));
    CHECK(m.peak_share() == Approx(m.gflops() / 50));
  }
  CHECK(m.io_bytes == core::io_bytes(s, ref.variant->capabilities));
}

TEST_CASE("timed calls repeat until the median's interval meets the target, within bounds",
          "[bench][statistics]") {
  FixedYardstick yardstick;
  int calls = 0;
  auto counting = [&calls](std::chrono::microseconds pause) {
    return core::ForwardFactory([&calls, pause] {
      return core::RawForward([&calls, pause](const awb_problem&, awb_results&) {
        ++calls;
        if (pause.count() > 0) std::this_thread::sleep_for(pause);
      });
    });
  };
  const auto s = shape(16, 4, 1, false);
  core::BenchSettings settings;
  settings.threads = 1;
  settings.warmup = 1;

  SECTION("adaptive: at least min_reps, at most max_reps, stopped by the target or the cap") {
    settings.min_reps = 6;
    settings.max_reps = 200;
    settings.target = 0.5;
    settings.max_seconds = 60;
    const auto m = core::measure_point(counting({}), kParameterFree, s, settings, yardstick);
    const int n = static_cast<int>(m.samples.size());
    CHECK(n >= 6);
    CHECK(n <= 200);
    CHECK(calls == 1 + 1 + 1 + n);  // the first call, the warm-up, the warm memory probe
    CHECK(m.interval.n == n);
    CHECK(m.median == core::median(m.samples));
    if (n < 200) CHECK(m.interval.relative_half_width() <= 0.5);
  }
  SECTION("adaptive: the time budget stops a target that cannot be met, after min_reps") {
    settings.min_reps = 6;
    settings.max_reps = 1000;
    settings.target = 1e-12;
    settings.max_seconds = 0.02;
    const auto m = core::measure_point(counting(std::chrono::microseconds(2000)), kParameterFree, s,
                                       settings, yardstick);
    CHECK(m.samples.size() >= 6);
    CHECK(m.samples.size() < 1000);
  }
  SECTION("the yardstick's GEMMs are timed before the point's calls, outside its budget") {
    // A yardstick whose GEMM takes 50 ms: inside a 0.2 s budget, its seven GEMMs would stop the
    // point at the minimum of six calls (and each call after a GEMM would run on cold caches).
    struct SlowYardstick : FixedYardstick {
      std::string* events;
      explicit SlowYardstick(std::string* e) : events(e) {}
      double gemm_seconds(Scalar, int) override {
        *events += 'g';
        std::this_thread::sleep_for(std::chrono::milliseconds(50));
        return 0.05;
      }
    };
    std::string events;
    SlowYardstick slow(&events);
    settings.min_reps = 6;
    settings.max_reps = 1000;
    settings.target = 1e-12;  // never met: the budget ends the point
    settings.max_seconds = 0.2;
    auto logging = core::ForwardFactory([&events] {
      return core::RawForward([&events](const awb_problem&, awb_results&) {
        events += 'c';
        std::this_thread::sleep_for(std::chrono::microseconds(500));
      });
    });
    const auto m = core::measure_point(logging, kParameterFree, s, settings, slow);
    // The first call, the seven GEMMs, then only calls: the warm-up, the memory probe, the timed.
    REQUIRE(events.size() > 8);
    CHECK(events.substr(0, 8) == "cggggggg");
    CHECK(events.find('g', 8) == std::string::npos);
    // 0.2 s of 0.5 ms calls is a few hundred; 20 is far below what any machine reaches.
    CHECK(m.samples.size() >= 20);
    CHECK(m.gemm_median == Approx(0.05));
  }
  SECTION("a fixed count is exactly that, even below the adaptive minimum") {
    settings.reps = 4;
    const auto m = core::measure_point(counting({}), kParameterFree, s, settings, yardstick);
    CHECK(m.samples.size() == 4);
    CHECK(m.interval.coverage < 0.95);  // four samples make no 95 % interval
  }
}

// The yardstick GEMM computes C = A·B in every world this CPU runs, band by band, as its threads
// call it; its kept packing buffers carry over between calls, between band shapes and from a
// product to one of another size.
template <class T>
void check_yardstick_gemm(const core::GemmWorld& w,
                          void (*gemm)(const T*, const T*, T*, int64_t, int64_t, int64_t)) {
  std::mt19937 rng(5);
  std::uniform_real_distribution<T> unit(-1, 1);
  for (int64_t n : {67, 130, 67}) {
    std::vector<T> a(static_cast<size_t>(n * n)), b(a.size()), c(a.size(), T(7));
    for (T& e : a) e = unit(rng);
    for (T& e : b) e = unit(rng);
    for (int64_t r0 : {int64_t(0), n / 3, n / 2})
      gemm(a.data(), b.data(), c.data(), n, r0, r0 == 0 ? n / 3 : r0 == n / 3 ? n / 2 : n);
    for (int64_t i = 0; i < n; ++i)
      for (int64_t j = 0; j < n; ++j) {
        double want = 0;
        for (int64_t k = 0; k < n; ++k)
          want += static_cast<double>(a[static_cast<size_t>(i * n + k)]) *
                  static_cast<double>(b[static_cast<size_t>(k * n + j)]);
        INFO(w.name << " n " << n << " C(" << i << ", " << j << ")");
        REQUIRE(static_cast<double>(c[static_cast<size_t>(i * n + j)]) ==
                Approx(want).margin(n * 4 * std::numeric_limits<T>::epsilon()));
      }
  }
}

TEST_CASE("the yardstick GEMM multiplies correctly in every world this CPU runs", "[bench][isa]") {
  int worlds = 0;
  for (auto level : isa::levels_here()) {
    const core::GemmWorld* w = core::gemm_world_at(level);
    if (!w) continue;
    ++worlds;
    check_yardstick_gemm<float>(*w, w->f32);
    check_yardstick_gemm<double>(*w, w->f64);
  }
  CHECK(worlds >= 1);
}

TEST_CASE("the Eigen yardstick times its GEMM and FMA loop on kept threads, again and again",
          "[bench]") {
  core::EigenYardstick y(96);
  for (int threads : {1, 2, 1}) {
    const double first = y.gemm_seconds(Scalar::kF32, threads);
    const double again = y.gemm_seconds(Scalar::kF32, threads);
    CHECK(first > 0);
    CHECK(again > 0);
    CHECK(y.gemm_seconds(Scalar::kF64, threads) > 0);
    CHECK(y.fma_peak_gflops(Scalar::kF32, threads) > 0);
  }
}
