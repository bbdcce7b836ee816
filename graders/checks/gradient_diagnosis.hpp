// gradient_diagnosis.hpp: names a backward-pass mistake from the gradients themselves.
#ifndef AWB_GRADERS_CHECKS_GRADIENT_DIAGNOSIS_HPP_
#define AWB_GRADERS_CHECKS_GRADIENT_DIAGNOSIS_HPP_

#include <string>

#include "graders/model/gradients.hpp"
#include "graders/model/problem.hpp"

namespace awb::grade {

// Tests the subject's gradients (`got`) against the classic mistakes: gradients exactly negated
// (the wrong sign), a weight gradient holding the transpose of the right one's numbers, and the
// reference backward redone with each mistake (no −A·(A·dA) softmax term, no 1/sqrt(d_k), no causal
// mask). Returns what matches, in a student's words, or "" when nothing does. `expected` is the
// exact reference's gradients.
std::string diagnose_gradients(const ProblemSpec& problem, const BackwardSeed& upstream,
                               const LayerGradients& got, const LayerGradients& expected);

// Whether two tensors agree to 1e-4 of the larger's largest magnitude (loose enough for f32,
// tight enough that a mistake's factor or missing term never passes).
bool close_in_shape(const Matrix& got, const Matrix& hypothesis);

}  // namespace awb::grade

#endif  // AWB_GRADERS_CHECKS_GRADIENT_DIAGNOSIS_HPP_
