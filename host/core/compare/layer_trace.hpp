// layer_trace.hpp: one query's path through a stack of layers: where it attends in each layer,
// and what its input row carries into that layer (the residual stream made visible). The
// numbers behind the explore view's layer view.
#ifndef AWB_CORE_COMPARE_LAYER_TRACE_HPP_
#define AWB_CORE_COMPARE_LAYER_TRACE_HPP_

#include <vector>

#include "graders/model/run.hpp"

namespace awb::core {

struct LayerStep {
  // A[query, ·] of the layer's head `head` (its last head when it has fewer).
  std::vector<double> weights;
  // cos(input_l[query], x[t]) for every token t, with x layer 0's input (embeddings and
  // positions): which original tokens the query's input row resembles when it enters layer l.
  // Empty when the layer's input is not as wide as x (after a non-residual layer).
  std::vector<double> resemblance;
};

// One step per layer of `run`, for token `query`. Throws std::out_of_range for a query outside
// the run.
std::vector<LayerStep> trace_query(const RunOutput& run, int query, int head);

// a · b / (|a| |b|); 0 when either is the zero vector (it points nowhere).
double cosine(const double* a, const double* b, int64_t n);

}  // namespace awb::core

#endif  // AWB_CORE_COMPARE_LAYER_TRACE_HPP_
