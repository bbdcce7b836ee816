// gradients.hpp: what a backward pass receives from above and returns, in double, as grading
// and training read it.
#ifndef AWB_GRADERS_MODEL_GRADIENTS_HPP_
#define AWB_GRADERS_MODEL_GRADIENTS_HPP_

#include <optional>
#include <vector>

#include "graders/model/tensor.hpp"

namespace awb {

// The loss's gradient with respect to one layer's outputs: dZ (T × d_out) and, when the loss
// reads the attention weights, dA (one T × T matrix per head; empty when it does not).
struct BackwardSeed {
  Matrix dz;
  std::vector<Matrix> da;
};

// ∂L/∂X and ∂L/∂W for each weight the layer's problem has (unset for the absent ones).
struct LayerGradients {
  Matrix dx;
  std::optional<Matrix> dw_q, dw_k, dw_v, dw_o;
};

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_GRADIENTS_HPP_
