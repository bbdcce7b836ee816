// blas_gemm.cpp: OpenBLAS as a yardstick (blas_gemm.hpp), through its C interface (CBLAS), whose
// entry points are declared here rather than included: the bench needs the library at run time
// only.
#include "core/bench/blas_gemm.hpp"

#include <algorithm>
#include <awb/isa.hpp>
#include <boost/dll/shared_library.hpp>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

namespace awb::core {
namespace {

// CBLAS's enumerations (cblas.h): row-major storage, no transposition.
constexpr int kRowMajor = 101, kNoTrans = 111;
using Sgemm = void(int, int, int, int, int, int, float, const float*, int, const float*, int, float,
                   float*, int);
using Dgemm = void(int, int, int, int, int, int, double, const double*, int, const double*, int,
                   double, double*, int);
using SetThreads = void(int);
using Text = char*();

constexpr const char* kSoname = "libopenblas.so.0";

}  // namespace

struct BlasGemm::Library {
  boost::dll::shared_library so;
  Sgemm* sgemm = nullptr;
  Dgemm* dgemm = nullptr;
  SetThreads* set_threads = nullptr;
};

BlasGemm::BlasGemm() {
  // OpenBLAS's idle threads spin for about 2^28 cycles after each call before they sleep: on a
  // machine of few cores they would take time from the next kernel measured. 2^4 cycles instead
  // (OPENBLAS_THREAD_TIMEOUT, read when the library starts), unless the user set it.
  ::setenv("OPENBLAS_THREAD_TIMEOUT", "4", 0);
  // OpenBLAS 0.3.21 picks its kernels by CPU model, and takes an AVX-512 CPU it does not know (a
  // recent AMD EPYC) for a Haswell: its AVX2 kernels. Where the CPU runs AVX-512 (F, CD, BW, DQ,
  // VL: isa::Level::kAvx512), its SkylakeX kernels are the best it has, unless the user chose.
  const bool chosen_here = !std::getenv("OPENBLAS_CORETYPE") && isa::supported(isa::Level::kAvx512);
  if (chosen_here) ::setenv("OPENBLAS_CORETYPE", "SkylakeX", 1);
  auto lib = std::make_unique<Library>();
  boost::dll::fs::error_code ec;
  lib->so.load(kSoname, boost::dll::load_mode::search_system_folders, ec);
  if (ec) {
    description_ = std::string("not measured: ") + kSoname + " could not be loaded (" +
                   ec.message() + "; Debian's libopenblas-dev installs it)";
    return;
  }
  try {
    lib->sgemm = &lib->so.get<Sgemm>("cblas_sgemm");
    lib->dgemm = &lib->so.get<Dgemm>("cblas_dgemm");
    lib->set_threads = &lib->so.get<SetThreads>("openblas_set_num_threads");
    description_ = std::string(lib->so.get<Text>("openblas_get_config")()) +
                   " (kernels: " + lib->so.get<Text>("openblas_get_corename")() +
                   (chosen_here ? ", by OPENBLAS_CORETYPE for this AVX-512 CPU)" : ")");
  } catch (const std::exception& e) {
    description_ = std::string("not measured: ") + kSoname + " lacks " + e.what();
    return;
  }
  lib_ = std::move(lib);
}

BlasGemm::~BlasGemm() = default;

double BlasGemm::gflops(Scalar scalar, int threads, int64_t n) {
  if (!lib_) return 0;
  threads =
      threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  const auto key = std::pair{scalar, threads};
  if (auto it = rates_.find(key); it != rates_.end()) return it->second;
  lib_->set_threads(threads);
  const int m = static_cast<int>(n);
  auto time = [&](auto zero) {
    using T = decltype(zero);
    std::mt19937 rng(1);
    std::uniform_real_distribution<T> unit(-1, 1);
    std::vector<T> a(static_cast<size_t>(n * n)), b(a.size()), c(a.size(), T(0));
    for (T& e : a) e = unit(rng);
    for (T& e : b) e = unit(rng);
    std::vector<double> seconds;
    for (int i = 0; i < 8; ++i) {
      const auto t0 = std::chrono::steady_clock::now();
      if constexpr (std::is_same_v<T, double>)
        lib_->dgemm(kRowMajor, kNoTrans, kNoTrans, m, m, m, 1, a.data(), m, b.data(), m, 0,
                    c.data(), m);
      else
        lib_->sgemm(kRowMajor, kNoTrans, kNoTrans, m, m, m, 1, a.data(), m, b.data(), m, 0,
                    c.data(), m);
      if (i > 0)  // the first call is untimed: OpenBLAS's buffers, its threads' first work
        seconds.push_back(
            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
    }
    // A yardstick that computes something else measures nothing: a few entries against their
    // dot products.
    for (int64_t i : {int64_t{0}, n / 2, n - 1}) {
      double dot = 0;
      for (int64_t k = 0; k < n; ++k) dot += double(a[i * n + k]) * double(b[k * n + n - 1 - i]);
      if (std::abs(dot - double(c[i * n + n - 1 - i])) > 1e-3 * double(n)) return 0.0;
    }
    std::nth_element(seconds.begin(), seconds.begin() + 3, seconds.end());
    return 2.0 * double(n) * double(n) * double(n) / seconds[3] * 1e-9;
  };
  return rates_[key] = scalar == Scalar::kF64 ? time(0.0) : time(0.0f);
}

}  // namespace awb::core
