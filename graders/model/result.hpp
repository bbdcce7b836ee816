// result.hpp: the outputs of one forward pass, in double, as grading reads them.
#ifndef AWB_GRADERS_MODEL_RESULT_HPP_
#define AWB_GRADERS_MODEL_RESULT_HPP_

#include <vector>

#include "graders/model/tensor.hpp"

namespace awb {

// Results converted to double. `weights` and `scores` hold one T × T matrix per head, or are
// empty when not requested.
struct ForwardResult {
  Matrix z;
  std::vector<Matrix> weights;
  std::vector<Matrix> scores;
};

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_RESULT_HPP_
