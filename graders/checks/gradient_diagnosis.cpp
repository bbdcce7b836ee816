// gradient_diagnosis.cpp: hypotheses about a wrong backward pass, each tested on the numbers.
#include "graders/checks/gradient_diagnosis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "graders/checks/finite_difference.hpp"
#include "graders/reference/reference_gradients.hpp"

namespace awb::grade {
namespace {

using reference::BackwardVariation;

bool all_close(const LayerGradients& got, const LayerGradients& hypothesis) {
  const auto g = gradient_tensors(got), h = gradient_tensors(hypothesis);
  if (g.size() != h.size()) return false;
  for (size_t i = 0; i < g.size(); ++i)
    if (!close_in_shape(*g[i].second, *h[i].second)) return false;
  return true;
}

Matrix negated(const Matrix& m) {
  Matrix n = m;
  for (double& v : n.data) v = -v;
  return n;
}

// The matrix's transpose, laid out row-major in a buffer of the original's shape: what a
// backward that computes dQᵀ·X instead of Xᵀ·dQ writes into a d_model × h·d_k buffer.
Matrix transposed_in_place(const Matrix& m) {
  Matrix t(m.rows, m.cols);
  size_t i = 0;
  for (int64_t c = 0; c < m.cols; ++c)
    for (int64_t r = 0; r < m.rows; ++r) t.data[i++] = m(r, c);
  return t;
}

}  // namespace

bool close_in_shape(const Matrix& got, const Matrix& hypothesis) {
  if (got.rows != hypothesis.rows || got.cols != hypothesis.cols) return false;
  double scale = 0;
  for (double v : hypothesis.data) scale = std::max(scale, std::fabs(v));
  for (size_t i = 0; i < got.data.size(); ++i)
    if (!(std::fabs(got.data[i] - hypothesis.data[i]) <= 1e-4 * scale + 1e-12)) return false;
  return true;
}

std::string diagnose_gradients(const ProblemSpec& problem, const BackwardSeed& upstream,
                               const LayerGradients& got, const LayerGradients& expected) {
  std::string flipped, transposed;
  const auto g = gradient_tensors(got), e = gradient_tensors(expected);
  // A sign slip: the gradients (or some) come back exactly negated.
  size_t n_flipped = 0;
  for (size_t i = 0; i < g.size() && i < e.size(); ++i)
    if (!close_in_shape(*g[i].second, *e[i].second) &&
        close_in_shape(*g[i].second, negated(*e[i].second))) {
      flipped += (flipped.empty() ? "" : ", ") + e[i].first;
      ++n_flipped;
    }
  if (n_flipped > 0)
    return (n_flipped == e.size() && e.size() > 1 ? "every gradient (" + flipped + ") has"
            : n_flipped == 1                      ? flipped + " has"
                                                  : flipped + " have") +
           " the wrong sign: each is exactly −1 times the right one. The backward returns "
           "+∂L/∂X and +∂L/∂W (the optimiser subtracts them, so training with negated ones "
           "climbs the loss); look for a subtraction the wrong way round or a stray minus.";
  for (size_t i = 1; i < g.size() && i < e.size(); ++i) {  // the weights (dX is never transposed)
    const Matrix t = transposed_in_place(*e[i].second);
    if (!close_in_shape(*g[i].second, *e[i].second) && close_in_shape(*g[i].second, t))
      transposed += (transposed.empty() ? "" : ", ") + e[i].first;
  }
  if (!transposed.empty())
    return transposed +
           ": each holds the transpose of the right gradient, poured into W's buffer (dW = Xᵀ·dY "
           "has W's shape, d_model rows; dYᵀ·X is its transpose).";
  struct Hypothesis {
    BackwardVariation variation;
    bool applies;
    const char* words;
  };
  const bool scaled = problem.resolved_scale() == ScaleMode::kInvSqrtDk && problem.d_k() != 1;
  const Hypothesis hypotheses[] = {
      {BackwardVariation::kNoSoftmaxCorrection, true,
       "the softmax gradient is missing its −a·(a·g) term: dS = A ∘ dA instead of "
       "A ∘ (dA − (A·dA)), but every score of a row shares its softmax denominator."},
      {BackwardVariation::kNoScale, scaled,
       "the 1/sqrt(d_k) was forgotten in the backward pass: it recomputes the weights from "
       "unscaled scores and leaves the scale out of dQ and dK (the backward must use the "
       "forward's exact softmax input, and the chain rule carries the scale into dQ and dK)."},
      {BackwardVariation::kNoCausalMask, problem.causal,
       "the backward recomputes the scores without the causal mask: gradient flows to keys "
       "the forward never looked at (later tokens)."},
  };
  for (const auto& h : hypotheses) {
    if (!h.applies) continue;
    try {
      if (all_close(got, reference::gradients_of(problem, upstream, Scalar::kF64, h.variation)))
        return h.words;
    } catch (const std::invalid_argument&) {
      return "";
    }
  }
  return "";
}

}  // namespace awb::grade
