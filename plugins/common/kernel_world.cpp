// kernel_world.cpp: a world's entry (compiled into every world; AWB_ISA_WORLD_ENTRY names it):
// the kernels of this world's translation units, and its workspaces' making and freeing.
// SPDX-License-Identifier: MIT
#include "common/kernel_world.hpp"

namespace awb::kernels {
namespace {

template <class W>
W* make() {
  return new W();
}
template <class W>
void destroy(W* w) noexcept {
  delete w;
}

template <class Scalar>
void shared_lhs_product(ConstMatrixView<Scalar> a, std::span<const ConstMatrixView<Scalar>> b,
                        std::span<const MatrixView<Scalar>> c, int threads) {
  ThreadTeam team;
  fused::GemmScratch<Scalar> scratch;
  auto run = [&](size_t first, size_t count) {
    if constexpr (fused::kEnabled)
      fused::multiply_shared_lhs<Scalar>(a, b.subspan(first, count), c.subspan(first, count), team,
                                         threads, scratch);
    else
      for (size_t i = first; i < first + count; ++i) {
        MatrixView<Scalar> out = c[i];  // a copy of the view: written through
        multiply(a, b[i], out);
      }
  };
  for (size_t i = 0; i < b.size(); ++i) run(i, 1);
  run(0, b.size());
}

template <class Scalar>
constexpr WorldKernels<Scalar> kKernels{
    &attention_forward<Scalar>,      &attention_backward<Scalar>,
    &sliding_window_forward<Scalar>, &linear_forward<Scalar>,
    &exp_shifted_sum<Scalar>,        &exp_shifted_sum<Scalar, ExpBase::kTwo>,
    &shared_lhs_product<Scalar>};

constexpr KernelWorld kWorld{
    isa::kCompiledLevel,     AWB_ISA_WORLD_NAME,         &make<Workspaces>, &destroy<Workspaces>,
    &make<LinearWorkspaces>, &destroy<LinearWorkspaces>, kKernels<float>,   kKernels<double>};

}  // namespace
}  // namespace awb::kernels

extern "C" const awb::kernels::KernelWorld* AWB_ISA_WORLD_ENTRY() { return &awb::kernels::kWorld; }
