// kernel_dispatch.cpp: the world this process runs (kernel_world.hpp), chosen once, by CPUID and
// AWB_KERNEL_ISA. Compiled for the baseline: it runs before anything knows the CPU.
// SPDX-License-Identifier: MIT
#include "common/kernel_world.hpp"

using awb::kernels::KernelWorld;

#define AWB_ISA_WORLD(entry) extern "C" const KernelWorld* entry();
#include "awb_kernel_world_worlds.inc"
#undef AWB_ISA_WORLD

namespace awb::kernels {
namespace {

// The worlds built in (a function's static: plugins may be created during static initialisation).
#define AWB_ISA_WORLD(entry) entry(),
const auto& built() {
  static const KernelWorld* const worlds[] = {
#include "awb_kernel_world_worlds.inc"
  };
  return worlds;
}
#undef AWB_ISA_WORLD

}  // namespace

const KernelWorld* kernel_world(isa::Level level) { return isa::find_world(built(), level); }

const KernelWorld& kernel_world() {
  static const KernelWorld* const chosen = [] {
    try {
      return &isa::choose_world(built());
    } catch (const std::runtime_error& e) {
      throw PluginError(AWB_ERR_INVALID_ARGUMENT, e.what());
    }
  }();
  return *chosen;
}

}  // namespace awb::kernels
