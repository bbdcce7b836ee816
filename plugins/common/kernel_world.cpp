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
constexpr WorldKernels<Scalar> kKernels{&attention_forward<Scalar>, &attention_backward<Scalar>,
                                        &sliding_window_forward<Scalar>, &linear_forward<Scalar>,
                                        &exp_shifted_sum<Scalar>};

constexpr KernelWorld kWorld{
    isa::kCompiledLevel,     AWB_ISA_WORLD_NAME,         &make<Workspaces>, &destroy<Workspaces>,
    &make<LinearWorkspaces>, &destroy<LinearWorkspaces>, kKernels<float>,   kKernels<double>};

}  // namespace
}  // namespace awb::kernels

extern "C" const awb::kernels::KernelWorld* AWB_ISA_WORLD_ENTRY() { return &awb::kernels::kWorld; }
