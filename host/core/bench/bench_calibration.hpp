// bench_calibration.hpp: the yardsticks of `awb bench`: an Eigen GEMM, OpenBLAS's GEMM
// (blas_gemm.hpp) and an FMA loop. Built as
// its own library (awb_bench_calibration) so that awb_core stays free of Eigen.
#ifndef AWB_CORE_BENCH_BENCH_CALIBRATION_HPP_
#define AWB_CORE_BENCH_BENCH_CALIBRATION_HPP_

#include <map>
#include <memory>
#include <utility>

#include "core/bench/bench.hpp"
#include "core/bench/blas_gemm.hpp"
#include "core/bench/gemm_world.hpp"

namespace awb::core {

// GEMM: C = A·B with square row-major Eigen matrices (n = 1024 unless told), the rows of C split
// into one contiguous band per thread (Eigen itself parallelises only under OpenMP), compiled
// once per x86-64 level as the bundled kernels are and run at the level they run
// (gemm_world.hpp). The matrices are allocated and touched once per
// (scalar, threads) and kept, and so are the threads (a crew per thread count) and, in each,
// Eigen's packing buffers: no timed run pays for first touches, thread starts or allocation.
// FMA peak: on each thread, 12 independent chains of vector fused multiply-adds, at the widest
// instruction set this CPU has (AVX-512F, else AVX2+FMA, else SSE2 multiply + add), chosen at
// run time; the best of five runs of a few milliseconds.
// The yardstick GEMM compiled for `level` when it is built in and this CPU runs it, else nullptr
// (for tests; EigenYardstick runs the best one, or AWB_KERNEL_ISA's).
const GemmWorld* gemm_world_at(isa::Level level);

class EigenYardstick : public Yardstick {
 public:
  explicit EigenYardstick(int64_t n = 1024);
  ~EigenYardstick() override;
  double gemm_seconds(Scalar scalar, int threads) override;
  int64_t gemm_n() const override { return n_; }
  double fma_peak_gflops(Scalar scalar, int threads) override;
  std::string fma_isa() const override;
  double best_gemm_gflops(Scalar scalar, int threads) override {
    return blas_.gflops(scalar, threads, n_);
  }
  // What the best packaged GEMM is (blas_gemm.hpp), or why it is not measured.
  const std::string& best_gemm() const { return blas_.description(); }
  // The GEMM's world: "avx512", "avx2", "baseline" (or "native" in an AWB_NATIVE build).
  std::string gemm_world() const;

 private:
  struct Gemm;
  class Crew;
  Crew& crew(int threads);
  int64_t n_;
  const GemmWorld* world_;
  std::map<std::pair<Scalar, int>, std::unique_ptr<Gemm>> gemms_;
  std::map<std::pair<Scalar, int>, double> peaks_;
  std::map<int, std::unique_ptr<Crew>> crews_;
  BlasGemm blas_;
};

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_BENCH_CALIBRATION_HPP_
