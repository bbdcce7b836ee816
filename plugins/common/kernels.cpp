// kernels.cpp: the one compiled copy of the bundled kernels, for f32 and f64. Every bundled plugin
// links it (each gets its own hidden copy), so the Eigen code is instantiated once per build
// instead of once per plugin.
// SPDX-License-Identifier: MIT
#define AWB_KERNELS_INSTANTIATE
#include "common/attention_backward.hpp"

namespace awb::kernels {

template void attention_forward<float>(const Problem<float>&, Results<float>&, Inputs, Mask,
                                       Workspaces&);
template void attention_forward<double>(const Problem<double>&, Results<double>&, Inputs, Mask,
                                        Workspaces&);
template void attention_backward<float>(const Problem<float>&, const Upstream<float>&,
                                        Gradients<float>&, Inputs, Mask, Workspaces&);
template void attention_backward<double>(const Problem<double>&, const Upstream<double>&,
                                         Gradients<double>&, Inputs, Mask, Workspaces&);

}  // namespace awb::kernels
