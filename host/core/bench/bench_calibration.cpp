// bench_calibration.cpp: the Eigen GEMM and the FMA loop that `awb bench` measures against.
#include "core/bench/bench_calibration.hpp"

#include <immintrin.h>

#include <algorithm>
#include <barrier>
#include <chrono>
#include <cstring>
#include <functional>
#include <random>
#include <thread>
#include <vector>

// The GEMM's worlds (gemm_world.hpp), one per x86-64 level built.
#define AWB_ISA_WORLD(entry) extern "C" const awb::core::GemmWorld* entry();
#include "awb_gemm_world_worlds.inc"
#undef AWB_ISA_WORLD

namespace awb::core {
namespace {

int resolve(int threads) {
  return threads > 0 ? threads
                     : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

// Vector FMA chains: kChains independent accumulators hide the instruction latency (4 cycles at
// 2 per cycle needs 8). acc = acc·a + b converges to b/(1−a) = 1: no overflow, no subnormals.
// Each function returns the floating-point operations it did. A macro, because a function's
// target attribute does not pass to the templates or lambdas it calls.
constexpr int kChains = 12;
constexpr long kIterations = 1 << 22;
volatile double g_sink;  // keeps the loop's result observable

#define AWB_FMA_LOOP(NAME, ISA, V, SET1, FMA, LANES)                    \
  __attribute__((target(ISA))) double NAME() {                          \
    V acc[kChains];                                                     \
    const V a = SET1(0.999), b = SET1(0.001);                           \
    for (int c = 0; c < kChains; ++c) acc[c] = b;                       \
    for (long i = 0; i < kIterations; ++i) {                            \
      _Pragma("GCC unroll 16") /* chains in registers, not memory */    \
          for (int c = 0; c < kChains; ++c) acc[c] = FMA(acc[c], a, b); \
    }                                                                   \
    for (int c = 1; c < kChains; ++c) acc[0] = FMA(acc[0], a, acc[c]);  \
    unsigned char bytes[sizeof(V)];                                     \
    std::memcpy(bytes, &acc[0], sizeof(V));                             \
    g_sink = bytes[0];                                                  \
    return 2.0 * (LANES)*kChains * static_cast<double>(kIterations);    \
  }

// The x86-64 baseline has no FMA: a multiply and an add, two operations, as compiled code does.
#define AWB_MUL_ADD_PS(c, a, b) _mm_add_ps(_mm_mul_ps(c, a), b)
#define AWB_MUL_ADD_PD(c, a, b) _mm_add_pd(_mm_mul_pd(c, a), b)
AWB_FMA_LOOP(fma_avx512_f32, "avx512f", __m512, _mm512_set1_ps, _mm512_fmadd_ps, 16)
AWB_FMA_LOOP(fma_avx512_f64, "avx512f", __m512d, _mm512_set1_pd, _mm512_fmadd_pd, 8)
AWB_FMA_LOOP(fma_avx2_f32, "avx2,fma", __m256, _mm256_set1_ps, _mm256_fmadd_ps, 8)
AWB_FMA_LOOP(fma_avx2_f64, "avx2,fma", __m256d, _mm256_set1_pd, _mm256_fmadd_pd, 4)
AWB_FMA_LOOP(fma_sse2_f32, "sse2", __m128, _mm_set1_ps, AWB_MUL_ADD_PS, 4)
AWB_FMA_LOOP(fma_sse2_f64, "sse2", __m128d, _mm_set1_pd, AWB_MUL_ADD_PD, 2)
#undef AWB_MUL_ADD_PS
#undef AWB_MUL_ADD_PD
#undef AWB_FMA_LOOP

using isa::Level;

// Each level's FMA loop is the `peak` column of isa_levels.def.
double fma_run(Level level, bool f64) {
  switch (level) {
#define AWB_ISA_LEVEL(enumerator, name, architecture, flags, cpu, fused, peak, ...) \
  case Level::enumerator:                                                           \
    return f64 ? peak##_f64() : peak##_f32();
#include <awb/isa_levels.def>
#undef AWB_ISA_LEVEL
  }
  return f64 ? fma_sse2_f64() : fma_sse2_f32();
}

#define AWB_ISA_WORLD(entry) entry(),
const auto& built_gemms() {
  static const GemmWorld* const worlds[] = {
#include "awb_gemm_world_worlds.inc"
  };
  return worlds;
}
#undef AWB_ISA_WORLD

template <class T>
std::vector<T> random_matrix(int64_t n, std::mt19937& rng) {
  std::uniform_real_distribution<T> unit(-1, 1);
  std::vector<T> m(static_cast<size_t>(n * n));
  for (T& e : m) e = unit(rng);
  return m;
}

}  // namespace

const GemmWorld* gemm_world_at(isa::Level level) {
  if (!isa::supported(level)) return nullptr;
  for (const GemmWorld* w : built_gemms())
    if (w->level == level) return w;
  return nullptr;
}

// Threads kept for the yardsticks' timed runs: run(fn) calls fn(slot) on each (the caller is
// slot 0) and returns the wall seconds. Threads started for every run cost the GEMM their start
// and, in Eigen's packing buffers, fresh pages at every call; and how much those pages cost
// depended on what the process had allocated before (after the T = 8192 point the GEMM read
// 170-190 GFLOP/s instead of about 300, on a VM where a page fault costs some 25 µs).
class EigenYardstick::Crew {
 public:
  explicit Crew(int threads) : start_(threads), finish_(threads) {
    for (int slot = 1; slot < threads; ++slot)
      workers_.emplace_back([this, slot] {
        for (;;) {
          start_.arrive_and_wait();
          if (!job_) return;
          (*job_)(slot);
          finish_.arrive_and_wait();
        }
      });
  }
  ~Crew() {
    job_ = nullptr;
    start_.arrive_and_wait();  // the workers see no job and leave
  }
  double run(const std::function<void(int)>& fn) {
    const auto t0 = std::chrono::steady_clock::now();
    job_ = &fn;
    start_.arrive_and_wait();
    fn(0);
    finish_.arrive_and_wait();
    job_ = nullptr;
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }

 private:
  std::barrier<> start_, finish_;
  const std::function<void(int)>* job_ = nullptr;  // written before start_, read after it
  std::vector<std::jthread> workers_;
};

EigenYardstick::Crew& EigenYardstick::crew(int threads) {
  auto& c = crews_[threads];
  if (!c) c = std::make_unique<Crew>(threads);
  return *c;
}

struct EigenYardstick::Gemm {
  int threads;
  std::vector<float> a32, b32, c32;
  std::vector<double> a64, b64, c64;
};

EigenYardstick::EigenYardstick(int64_t n) : n_(n), world_(&isa::choose_world(built_gemms())) {}
EigenYardstick::~EigenYardstick() = default;

std::string EigenYardstick::gemm_world() const { return world_->name; }

double EigenYardstick::gemm_seconds(Scalar scalar, int threads) {
  threads = resolve(threads);
  auto& g = gemms_[{scalar, threads}];
  const bool f64 = scalar == Scalar::kF64;
  if (!g) {
    g = std::make_unique<Gemm>();
    g->threads = threads;
    std::mt19937 rng(1);
    if (f64) {
      g->a64 = random_matrix<double>(n_, rng);
      g->b64 = random_matrix<double>(n_, rng);
      g->c64.assign(g->a64.size(), 0.0);
    } else {
      g->a32 = random_matrix<float>(n_, rng);
      g->b32 = random_matrix<float>(n_, rng);
      g->c32.assign(g->a32.size(), 0.0f);
    }
    gemm_seconds(scalar, threads);  // once untimed: Eigen's packing buffers, thread stacks
  }
  return crew(threads).run([&](int slot) {
    const int64_t r0 = n_ * slot / g->threads, r1 = n_ * (slot + 1) / g->threads;
    if (f64)
      world_->f64(g->a64.data(), g->b64.data(), g->c64.data(), n_, r0, r1);
    else
      world_->f32(g->a32.data(), g->b32.data(), g->c32.data(), n_, r0, r1);
  });
}

double EigenYardstick::fma_peak_gflops(Scalar scalar, int threads) {
  threads = resolve(threads);
  const auto key = std::pair{scalar, threads};
  if (auto it = peaks_.find(key); it != peaks_.end()) return it->second;
  const Level level = isa::best_supported();
  const bool f64 = scalar == Scalar::kF64;
  double best = 0;
  for (int run = 0; run < 5; ++run) {
    std::vector<double> flops(static_cast<size_t>(threads));
    const double s = crew(threads).run(
        [&](int slot) { flops[static_cast<size_t>(slot)] = fma_run(level, f64); });
    double total = 0;
    for (double f : flops) total += f;
    best = std::max(best, total / s * 1e-9);
  }
  return peaks_[key] = best;
}

std::string EigenYardstick::fma_isa() const {
  return std::string(isa::info(isa::best_supported()).peak_label);
}

}  // namespace awb::core
