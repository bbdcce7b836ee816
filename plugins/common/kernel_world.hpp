// kernel_world.hpp: the bundled kernels as compiled for one x86-64 level (a "world": baseline,
// avx2, avx512, or the one native world of an AWB_NATIVE build), and the world this process runs.
//
// Every world is the same source (kernels.cpp, sliding_window_kernel.cpp, linear_kernel.cpp,
// kernel_world.cpp) compiled with its level's flags and linked beside the others with its
// symbols renamed (cmake/AwbIsaWorlds.cmake); its entry hands out the function pointers below.
// A world's workspaces are made and freed by that world: Eigen's aligned allocation differs with
// the vector width, so memory one world allocates must not be freed by code of another.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_KERNEL_WORLD_HPP_
#define AWB_PLUGINS_COMMON_KERNEL_WORLD_HPP_

#include <awb/isa.hpp>
#include <memory>
#include <span>

#include "common/attention_backward.hpp"
#include "common/linear_kernel.hpp"
#include "common/sliding_window_kernel.hpp"
#include "common/softmax_exp.hpp"

namespace awb::kernels {

template <class Scalar>
struct WorldKernels {
  void (*softmax)(const Problem<Scalar>&, Results<Scalar>&, Inputs, Mask, Workspaces&);
  void (*softmax_backward)(const Problem<Scalar>&, const Upstream<Scalar>&, Gradients<Scalar>&,
                           Inputs, Mask, Workspaces&);
  void (*sliding_window)(const Problem<Scalar>&, Results<Scalar>&, Eigen::Index, Workspaces&);
  void (*linear)(const Problem<Scalar>&, Results<Scalar>&, FeatureMap, LinearWorkspaces&);
  // For this world's own tests: the softmax's vectorised exp and 2^x (softmax_exp.hpp), and the
  // projections' product c[i] = a · b[i] (projections.hpp) on `threads` threads, run for each i
  // alone and then for all at once, through one scratch.
  Scalar (*exp_shifted_sum)(Scalar*, Eigen::Index, Scalar);
  Scalar (*exp2_shifted_sum)(Scalar*, Eigen::Index, Scalar);
  void (*shared_lhs_product)(ConstMatrixView<Scalar>, std::span<const ConstMatrixView<Scalar>>,
                             std::span<const MatrixView<Scalar>>, int);
};

struct KernelWorld {
  isa::Level level;
  const char* name;  // "baseline", "avx2", "avx512" or "native"
  Workspaces* (*new_workspaces)();
  void (*delete_workspaces)(Workspaces*) noexcept;
  LinearWorkspaces* (*new_linear_workspaces)();
  void (*delete_linear_workspaces)(LinearWorkspaces*) noexcept;
  WorldKernels<float> f32;
  WorldKernels<double> f64;

  template <class Scalar>
  const WorldKernels<Scalar>& kernels() const {
    if constexpr (std::is_same_v<Scalar, double>)
      return f64;
    else
      return f32;
  }
};

// The world of `level` when it is built in and this CPU runs it, else nullptr.
const KernelWorld* kernel_world(isa::Level level);
// The world this process runs: AWB_KERNEL_ISA's, else the best built in that this CPU runs.
// Throws PluginError (INVALID_ARGUMENT) when AWB_KERNEL_ISA names one that cannot run here.
const KernelWorld& kernel_world();

// A world's workspaces, freed by that world.
template <class W>
class WorldOwned {
 public:
  WorldOwned(W* (*make)(), void (*free)(W*) noexcept) : p_(make(), free) {}
  W& operator*() const { return *p_; }

 private:
  std::unique_ptr<W, void (*)(W*) noexcept> p_;
};

// What a bundled variant holds: the world it runs, and its workspaces there.
struct WorldWorkspaces {
  const KernelWorld& world = kernel_world();
  WorldOwned<Workspaces> workspaces{world.new_workspaces, world.delete_workspaces};
};
struct WorldLinearWorkspaces {
  const KernelWorld& world = kernel_world();
  WorldOwned<LinearWorkspaces> workspaces{world.new_linear_workspaces,
                                          world.delete_linear_workspaces};
};

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_KERNEL_WORLD_HPP_
