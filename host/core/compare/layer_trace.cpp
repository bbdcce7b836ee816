// layer_trace.cpp: a query's weights row and its input's resemblance to the original tokens,
// layer by layer.
#include "core/compare/layer_trace.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace awb::core {

double cosine(const double* a, const double* b, int64_t n) {
  double ab = 0, aa = 0, bb = 0;
  for (int64_t i = 0; i < n; ++i) {
    ab += a[i] * b[i];
    aa += a[i] * a[i];
    bb += b[i] * b[i];
  }
  return aa == 0 || bb == 0 ? 0.0 : ab / std::sqrt(aa * bb);
}

std::vector<LayerStep> trace_query(const RunOutput& run, int query, int head) {
  std::vector<LayerStep> steps;
  if (run.layers.empty()) return steps;
  const Matrix& x = run.layers.front().input;
  if (query < 0 || query >= x.rows) throw std::out_of_range("query outside the run's tokens");
  for (const LayerRun& layer : run.layers) {
    LayerStep step;
    const auto& heads = layer.result.weights;
    if (!heads.empty()) {
      const Matrix& a = heads[static_cast<size_t>(std::clamp<int>(head, 0, int(heads.size()) - 1))];
      step.weights.assign(a.data.begin() + query * a.cols, a.data.begin() + (query + 1) * a.cols);
    }
    const Matrix& in = layer.input;
    if (in.cols == x.cols && in.rows == x.rows)
      for (int64_t t = 0; t < x.rows; ++t)
        step.resemblance.push_back(
            cosine(in.data.data() + query * in.cols, x.data.data() + t * x.cols, x.cols));
    steps.push_back(std::move(step));
  }
  return steps;
}

}  // namespace awb::core
