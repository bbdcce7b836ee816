// bench.tests.cpp: the counts `awb bench` divides by, its plan, its memory probe, one real point,
// and when the repetition of timed calls stops.
#include "core/bench/bench.hpp"

#include <catch2/catch.hpp>
#include <chrono>
#include <cmath>
#include <thread>
#include <vector>

#include "core/bench/bench_plan.hpp"
#include "core/bench/peak_memory.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

constexpr uint64_t kParameterFree = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL;
constexpr uint64_t kMultiHead =
    kParameterFree | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_OUTPUT_PROJ;

// Multiply-adds of attention counted the slow way: every (query, key) pair the mask lets
// through costs d for its score and d for its share of the output.
double counted_attention_flops(int64_t tokens, int64_t d, int heads, bool causal) {
  double multiply_adds = 0;
  for (int h = 0; h < heads; ++h)
    for (int64_t t = 0; t < tokens; ++t)
      for (int64_t t2 = 0; t2 < tokens; ++t2)
        if (!causal || t2 <= t) multiply_adds += 2.0 * static_cast<double>(d);
  return 2 * multiply_adds;
}

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

}  // namespace

TEST_CASE("attention FLOPs are 4·T²·d per head, the unmasked pairs with the mask", "[bench]") {
  for (int64_t tokens : {1, 2, 7, 64, 100})
    for (int heads : {1, 3})
      for (bool causal : {false, true}) {
        INFO("T=" << tokens << " h=" << heads << " causal=" << causal);
        CHECK(core::attention_flops(tokens, 5, heads, causal) ==
              counted_attention_flops(tokens, 5, heads, causal));
      }
  CHECK(core::attention_flops(4096, 64, 1, false) == 4.0 * 4096 * 4096 * 64);
  // About half with the mask: T(T+1)/2 of T² pairs.
  CHECK(core::attention_flops(4096, 64, 1, true) / core::attention_flops(4096, 64, 1, false) ==
        Approx(0.5).epsilon(1e-3));
}

TEST_CASE("a point's FLOPs add the projections its variant applies", "[bench]") {
  const auto s = shape(1024, 64, 8, false);  // d_model = 8 · 64 = 512
  const double attention = core::attention_flops(1024, 64, 8, false);
  CHECK(core::projection_flops(1024, 512, 512) == 2.0 * 1024 * 512 * 512);
  // Q, K, V: 512 → 8·64 each; W_o: 8·64 → 512.
  CHECK(core::point_flops(s, kMultiHead) == attention + 4 * 2.0 * 1024 * 512 * 512);
  CHECK(core::point_flops(s, kMultiHead & ~AWB_CAP_OUTPUT_PROJ) ==
        attention + 3 * 2.0 * 1024 * 512 * 512);
  // Without projections X is T × d and nothing else is counted.
  CHECK(core::point_flops(shape(1024, 64, 1, false), kParameterFree) ==
        core::attention_flops(1024, 64, 1, false));
  // A causal-only variant masks whatever the point says.
  CHECK(core::point_flops(shape(100, 8, 1, false), kParameterFree | AWB_CAP_CAUSAL_ONLY) ==
        core::attention_flops(100, 8, 1, true));
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
  CHECK(m.flops == core::point_flops(s, ref.variant->capabilities));
  CHECK(m.first_call > 0);
  CHECK(m.min <= m.median);
  CHECK(m.median <= m.max);
  CHECK(m.gemm_gflops() == Approx(2e6 / 0.25 * 1e-9));
  CHECK(m.gemm_ratio() == Approx(m.gflops() / m.gemm_gflops()));
  CHECK(m.peak_share() == Approx(m.gflops() / 50));
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
  SECTION("a fixed count is exactly that, even below the adaptive minimum") {
    settings.reps = 4;
    const auto m = core::measure_point(counting({}), kParameterFree, s, settings, yardstick);
    CHECK(m.samples.size() == 4);
    CHECK(m.interval.coverage < 0.95);  // four samples make no 95 % interval
  }
}
