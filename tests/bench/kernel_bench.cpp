// kernel_bench.cpp: Google Benchmark of the bundled attention kernel itself, called directly
// (no plugin boundary, no host): the streaming, materialised and causal paths, f32 and f64.
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "common/kernel_world.hpp"

// The SDK's C++ layer and the host's model both define awb::ScaleMode, so this file, a plugin
// side translation unit, cannot include host headers: the two helpers below stay local.
namespace {

awb_tensor dense(void* data, int32_t rank, int64_t d0, int64_t d1, int64_t d2) {
  awb_tensor t{};
  t.data = data;
  t.rank = rank;
  t.shape[0] = d0;
  t.shape[1] = d1;
  t.shape[2] = d2;
  t.stride[rank - 1] = 1;
  t.stride[rank - 2] = rank == 2 ? d1 : d2;
  if (rank == 3) t.stride[0] = d1 * d2;
  return t;
}

// What a case measures: the mask on or off, and the kernel's path: streaming when A is not
// wanted, materialised when it is.
enum class Masking { kNone, kCausal };
enum class Path { kStreaming, kMaterialised };

// The count of `awb bench` (core/bench/bench.hpp): 4·T²·d, or 4·d·T(T+1)/2 with the mask.
double attention_flops(int64_t tokens, int64_t d, Masking masking) {
  const double t = static_cast<double>(tokens);
  return 4.0 * (masking == Masking::kCausal ? t * (t + 1) / 2 : t * t) * static_cast<double>(d);
}

// X (T × d) as Q = K = V, the parameter-free variant's problem; A wanted or not.
template <class Scalar>
struct Case {
  std::vector<Scalar> x, z, a;
  awb_problem problem{};
  awb_results results{};
  awb::kernels::WorldWorkspaces state;  // the world AWB_KERNEL_ISA or the CPU picks

  Case(int64_t tokens, int64_t d, Masking masking, Path path, int threads) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<Scalar> unit(-1, 1);
    x.resize(static_cast<size_t>(tokens * d));
    for (Scalar& e : x) e = unit(rng);
    z.assign(x.size(), Scalar(0));
    problem.struct_size = sizeof problem;
    problem.scalar = std::is_same_v<Scalar, double> ? AWB_SCALAR_F64 : AWB_SCALAR_F32;
    problem.n_heads = 1;
    problem.causal = masking == Masking::kCausal;
    problem.scale_mode = AWB_SCALE_INV_SQRT_DK;
    problem.n_threads = threads;
    problem.sharpness = 1;
    problem.x = dense(x.data(), 2, tokens, d, 1);
    results.struct_size = sizeof results;
    results.z = dense(z.data(), 2, tokens, d, 1);
    if (path == Path::kMaterialised) {
      a.assign(static_cast<size_t>(tokens * tokens), Scalar(0));
      results.a = dense(a.data(), 3, 1, tokens, tokens);
    }
  }
  void run() {
    awb::Problem<Scalar> p(problem);
    awb::Results<Scalar> r(results);
    state.world.kernels<Scalar>().softmax(p, r, awb::kernels::Inputs::kParameterFree,
                                          awb::kernels::Mask::kAsProblemSays, *state.workspaces);
  }
};

// Arguments: T, d, threads. Reports FLOP/s with the count of `awb bench`.
template <class Scalar, Path kPath, Masking kMasking>
void BM_attention(benchmark::State& state) {
  const int64_t tokens = state.range(0), d = state.range(1);
  Case<Scalar> c(tokens, d, kMasking, kPath, static_cast<int>(state.range(2)));
  c.run();  // the workspace is allocated once, as in a warm plugin instance
  for (auto _ : state) {
    c.run();
    benchmark::DoNotOptimize(c.z.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(attention_flops(tokens, d, kMasking),
                                                benchmark::Counter::kIsIterationInvariantRate);
}

void sizes(benchmark::internal::Benchmark* b) {
  for (int64_t tokens : {256, 1024, 4096})
    for (int64_t threads : {1, 2}) b->Args({tokens, 64, threads});
  b->ArgNames({"T", "d", "threads"})->UseRealTime()->Unit(benchmark::kMillisecond);
}

BENCHMARK(BM_attention<float, Path::kStreaming, Masking::kNone>)->Name("stream/f32")->Apply(sizes);
BENCHMARK(BM_attention<double, Path::kStreaming, Masking::kNone>)->Name("stream/f64")->Apply(sizes);
BENCHMARK(BM_attention<float, Path::kMaterialised, Masking::kNone>)
    ->Name("materialised/f32")
    ->Apply(sizes);
BENCHMARK(BM_attention<float, Path::kStreaming, Masking::kCausal>)
    ->Name("causal/f32")
    ->Apply(sizes);

}  // namespace

BENCHMARK_MAIN();
