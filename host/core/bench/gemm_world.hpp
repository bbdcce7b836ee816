// gemm_world.hpp: the yardstick GEMM of `awb bench` as compiled for one x86-64 level (a world,
// cmake/AwbIsaWorlds.cmake), so that in a build for any x86-64 it runs at the level the bundled
// kernels run, and the ratio between them compares like with like.
// SPDX-License-Identifier: MIT
#ifndef AWB_CORE_BENCH_GEMM_WORLD_HPP_
#define AWB_CORE_BENCH_GEMM_WORLD_HPP_

#include <awb/isa.hpp>
#include <cstdint>

namespace awb::core {

struct GemmWorld {
  isa::Level level;
  const char* name;
  // Rows [r0, r1) of C = A·B, all n × n and row-major.
  void (*f32)(const float* a, const float* b, float* c, int64_t n, int64_t r0, int64_t r1);
  void (*f64)(const double* a, const double* b, double* c, int64_t n, int64_t r0, int64_t r1);
};

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_GEMM_WORLD_HPP_
