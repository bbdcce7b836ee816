// blas_gemm.hpp: the second yardstick of `awb bench`, the best GEMM this machine has from its
// distribution's packages: OpenBLAS (libopenblas0, from libopenblas-dev), loaded at run time so
// that awb neither links nor starts it outside the bench, and the bench still runs where it is
// not installed (its column is then empty and the header says why).
#ifndef AWB_CORE_BENCH_BLAS_GEMM_HPP_
#define AWB_CORE_BENCH_BLAS_GEMM_HPP_

#include <map>
#include <memory>
#include <string>
#include <utility>

#include "graders/model/problem.hpp"

namespace awb::core {

class BlasGemm {
 public:
  // Loads the library (nothing is thrown: a failure is kept as the reason).
  BlasGemm();
  ~BlasGemm();
  bool available() const { return lib_ != nullptr; }
  // "OpenBLAS 0.3.21 DYNAMIC_ARCH NO_AFFINITY Zen MAX_THREADS=64 (kernels: Zen)", or why not.
  const std::string& description() const { return description_; }
  // GFLOP/s of C = A·B, square row-major n × n, on `threads` threads (OpenBLAS's own): the
  // median of 7 calls after one untimed, measured once per (scalar, threads) and kept. 0 when
  // the library is not available.
  double gflops(Scalar scalar, int threads, int64_t n);

 private:
  struct Library;
  std::unique_ptr<Library> lib_;
  std::string description_;
  std::map<std::pair<Scalar, int>, double> rates_;
};

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_BLAS_GEMM_HPP_
