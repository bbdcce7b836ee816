// gemm_world.cpp: one world's yardstick GEMM (gemm_world.hpp): Eigen's, on views of the caller's
// buffers (memory allocated in one world is never freed by another).
// SPDX-License-Identifier: MIT
#include "core/bench/gemm_world.hpp"

#include <Eigen/Core>

namespace awb::core {
namespace {

template <class T>
void gemm_rows(const T* a, const T* b, T* c, int64_t n, int64_t r0, int64_t r1) {
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const Matrix> ma(a + r0 * n, r1 - r0, n), mb(b, n, n);
  Eigen::Map<Matrix> mc(c + r0 * n, r1 - r0, n);
  mc.noalias() = ma * mb;
}

constexpr GemmWorld kWorld{isa::kCompiledLevel, AWB_ISA_WORLD_NAME, &gemm_rows<float>,
                           &gemm_rows<double>};

}  // namespace
}  // namespace awb::core

extern "C" const awb::core::GemmWorld* AWB_ISA_WORLD_ENTRY() { return &awb::core::kWorld; }
