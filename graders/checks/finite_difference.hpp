// finite_difference.hpp: central differences in f64, the independent check on a backward pass.
#ifndef AWB_GRADERS_CHECKS_FINITE_DIFFERENCE_HPP_
#define AWB_GRADERS_CHECKS_FINITE_DIFFERENCE_HPP_

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "graders/model/gradients.hpp"
#include "graders/model/problem.hpp"
#include "graders/model/result.hpp"

namespace awb::grade {

// The scalar loss whose gradient a backward pass computes for `upstream`:
// L = Σ dZ ∘ Z + Σ_h Σ dA_h ∘ A_h (so ∂L/∂Z = dZ and ∂L/∂A = dA).
double upstream_loss(const ForwardResult& forward, const BackwardSeed& upstream);

// The gradient tensors present, by name: dX, dW_q, dW_k, dW_v, dW_o.
std::vector<std::pair<std::string, const Matrix*>> gradient_tensors(const LayerGradients& g);
// The pointers would outlive a temporary: name the gradients first.
std::vector<std::pair<std::string, const Matrix*>> gradient_tensors(LayerGradients&&) = delete;

struct Probe {
  std::string tensor;  // "dX", "dW_q", ...
  int64_t row = 0, col = 0;
  double numeric = 0;   // (L(w + h) − L(w − h)) / 2h
  double analytic = 0;  // the backward's value
  bool agrees = false;
};

// Probes up to `per_tensor` entries of each gradient tensor (spread evenly over it) with central
// differences of `forward` (which must be f64) at step `step`. An entry agrees when
// |numeric − analytic| ≤ 1e-6 + 1e-5·|analytic|: the truncation error of a central difference is
// O(step²) and its rounding error O(ε·|L| / step), both far below that at step 1e-5.
std::vector<Probe> finite_difference_probes(
    const ProblemSpec& problem, const BackwardSeed& upstream, const LayerGradients& analytic,
    const std::function<ForwardResult(const ProblemSpec&)>& forward, int per_tensor = 24,
    double step = 1e-5);

}  // namespace awb::grade

#endif  // AWB_GRADERS_CHECKS_FINITE_DIFFERENCE_HPP_
