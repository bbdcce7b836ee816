// gemm_world.cpp: one world's yardstick GEMM (gemm_world.hpp): Eigen's, on views of the caller's
// buffers (memory allocated in one world is never freed by another).
// SPDX-License-Identifier: MIT
#include "core/bench/gemm_world.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <memory>

namespace awb::core {
namespace {

// What `c = a * b` runs for these shapes, Eigen's GEMM routine, with the packing buffers kept by
// the calling thread (the yardstick's threads are kept too): the expression allocates them on
// every call, and the page faults of fresh buffers, not the product, then set the yardstick's
// speed. Eigen's blocking as its product expression chooses it; C is zeroed first, as the
// expression does, since the routine accumulates.
template <class T>
void gemm_rows(const T* a, const T* b, T* c, int64_t n, int64_t r0, int64_t r1) {
  using namespace Eigen::internal;
  using Eigen::Dynamic, Eigen::Index, Eigen::RowMajor;
  using Blocking = gemm_blocking_space<RowMajor, T, T, Dynamic, Dynamic, Dynamic>;
  using Gemm =
      general_matrix_matrix_product<Index, T, RowMajor, false, T, RowMajor, false, RowMajor, 1>;
  struct Kept {
    Index rows = -1, cols = -1;
    std::unique_ptr<Blocking> blocking;
  };
  thread_local Kept kept;
  const Index rows = r1 - r0, cols = n, depth = n;
  if (!kept.blocking || kept.rows != rows || kept.cols != cols) {
    kept.blocking = std::make_unique<Blocking>(rows, cols, depth, 1, true);
    kept.blocking->allocateAll();
    kept.rows = rows;
    kept.cols = cols;
  }
  T* band = c + r0 * n;
  std::fill_n(band, rows * n, T(0));
  Gemm::run(rows, cols, depth, a + r0 * n, n, b, n, band, 1, n, T(1), *kept.blocking, nullptr);
}

constexpr GemmWorld kWorld{isa::kCompiledLevel, AWB_ISA_WORLD_NAME, &gemm_rows<float>,
                           &gemm_rows<double>};

}  // namespace
}  // namespace awb::core

extern "C" const awb::core::GemmWorld* AWB_ISA_WORLD_ENTRY() { return &awb::core::kWorld; }
