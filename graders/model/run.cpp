// run.cpp: building each layer's problem and chaining the layers with residual connections.
#include "graders/model/run.hpp"

#include "graders/model/error.hpp"

namespace awb {

ProblemSpec RunInput::layer_problem(size_t layer, const Matrix& input) const {
  const LayerWeights& w = layers.at(layer);
  ProblemSpec p;
  p.tokens = tokens;
  p.x = input;
  p.w_q = w.w_q;
  p.w_k = w.w_k;
  p.w_v = w.w_v;
  p.w_o = w.w_o;
  p.heads = w.w_q ? params.heads : 1;
  p.kv_heads = w.w_q ? params.kv_heads : 0;
  p.batch = params.batch;
  p.lengths = params.lengths;
  p.causal = params.causal;
  p.sharpness = params.sharpness;
  p.scale = params.scale;
  p.family = params.family;
  p.params = params.variant;
  return p;
}

RunInput single_layer(const ProblemSpec& p) {
  RunInput in;
  in.tokens = p.tokens;
  in.x = p.x;
  in.layers.push_back(LayerWeights{p.w_q, p.w_k, p.w_v, p.w_o, true});
  in.params = Parameters{p.sharpness, p.heads,    p.causal, p.scale,  p.family,
                         p.params,    p.kv_heads, p.batch,  p.lengths};
  return in;
}

RunOutput run_layers(const RunInput& input,
                     const std::function<ForwardResult(const ProblemSpec&)>& forward) {
  RunOutput out;
  Matrix x = input.x;
  for (size_t l = 0; l < input.layers.size(); ++l) {
    ForwardResult r = forward(input.layer_problem(l, x));
    Matrix next;
    if (l + 1 < input.layers.size()) {
      if (input.layers[l].residual) {
        if (r.z.cols != x.cols || r.z.rows != x.rows)
          throw Error("run.residual_width",
                      "layer " + std::to_string(l) + " returns Z of width " +
                          std::to_string(r.z.cols) +
                          "; a residual needs d_model = " + std::to_string(x.cols));
        next = x;
        for (size_t i = 0; i < next.data.size(); ++i) next.data[i] += r.z.data[i];
      } else {
        next = r.z;
      }
    }
    out.layers.push_back(LayerRun{std::move(x), std::move(r)});
    x = std::move(next);
  }
  return out;
}

RunOutput Subject::run_context_only(const RunInput& input, Scalar scalar) {
  RunOutput out = run(input, scalar);
  for (auto& l : out.layers) {
    l.result.weights.clear();
    l.result.scores.clear();
  }
  return out;
}

LayerGradients Subject::backward(const ProblemSpec&, const BackwardSeed&, Scalar) {
  throw Error("run.no_backward", cannot_backward().value_or("no backward pass"));
}

}  // namespace awb
