// hand_outputs.hpp: hand-made inputs and outputs for the check tests: four tokens, the outputs
// of a plugin whose weights are a given matrix, a peaked weight matrix, and a subject that
// returns fixed outputs.
#ifndef AWB_TESTS_SUPPORT_HAND_OUTPUTS_HPP_
#define AWB_TESTS_SUPPORT_HAND_OUTPUTS_HPP_

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "graders/model/run.hpp"

namespace awb::test {

// Four tokens a, b, c, d with embeddings no two of which are parallel; no weights.
inline RunInput four_tokens(bool causal = false) {
  RunInput in;
  in.tokens = {"a", "b", "c", "d"};
  in.x = Matrix(4, 2);
  for (int64_t t = 0; t < 4; ++t) {
    in.x(t, 0) = 0.1 * double(t + 1);
    in.x(t, 1) = 0.3 - 0.05 * double(t);
  }
  in.layers.resize(1);
  in.params.causal = causal;
  return in;
}

// The outputs of a plugin whose weights are `a`: S = A and Z = A·X (one layer, one head).
inline RunOutput output_of(const RunInput& in, const Matrix& a) {
  LayerRun l;
  l.input = in.x;
  l.result.weights = {a};
  l.result.scores = {a};
  l.result.z = Matrix(in.x.rows, in.x.cols);
  for (int64_t t = 0; t < a.rows; ++t)
    for (int64_t j = 0; j < a.cols; ++j)
      for (int64_t c = 0; c < in.x.cols; ++c) l.result.z(t, c) += a(t, j) * in.x(j, c);
  return {{l}};
}

// A distinct, valid softmax-like row per query: key (t + 1) % 4 gets 0.4, the others 0.2.
inline Matrix peaked() {
  Matrix a(4, 4, 0.2);
  for (int64_t t = 0; t < 4; ++t) a(t, (t + 1) % 4) = 0.4;
  return a;
}

// A subject that returns the same outputs whatever it is asked.
class FixedSubject : public Subject {
 public:
  explicit FixedSubject(RunOutput out) : out_(std::move(out)) {}
  std::optional<std::string> cannot_run(const RunInput&, Scalar) const override {
    return std::nullopt;
  }
  RunOutput run(const RunInput&, Scalar) override { return out_; }

 private:
  RunOutput out_;
};

}  // namespace awb::test

#endif  // AWB_TESTS_SUPPORT_HAND_OUTPUTS_HPP_
