// run.hpp: what a subject (plugin or reference) is asked to run for one exercise case, and how
// a stack of layers is chained.
#ifndef AWB_GRADERS_MODEL_RUN_HPP_
#define AWB_GRADERS_MODEL_RUN_HPP_

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "graders/model/gradients.hpp"
#include "graders/model/problem.hpp"
#include "graders/model/result.hpp"

namespace awb {

struct LayerWeights {
  std::optional<Matrix> w_q, w_k, w_v, w_o;
  bool residual = true;  // next layer's input is X + Z (else Z)
};

struct Parameters {
  double sharpness = 1.0;
  int heads = 1;
  bool causal = false;
  ScaleMode scale = ScaleMode::kAuto;
  Family family = Family::kSoftmax;
  ParamValues variant{};           // the variant's parameters (`variant.params`, `--param`)
  int kv_heads = 0;                // key/value heads (grouped-query attention); 0: as many as heads
  int batch = 1;                   // sequences side by side in x's rows (ProblemSpec::batch)
  std::vector<int64_t> lengths{};  // the padding mask (ProblemSpec::lengths); empty: none
};

// One complete run: a sentence through every layer.
struct RunInput {
  std::vector<std::string> tokens;
  Matrix x;                          // layer 0's input: embeddings + positions, transformed
  std::vector<LayerWeights> layers;  // at least one; a parameter-free layer has no weights
  Parameters params;

  // The single-layer problem layer `layer` receives when its input is `input`.
  ProblemSpec layer_problem(size_t layer, const Matrix& input) const;
};

// A one-layer run of a single problem.
RunInput single_layer(const ProblemSpec& problem);

struct LayerRun {
  Matrix input;          // what this layer received
  ForwardResult result;  // what it returned
};

struct RunOutput {
  std::vector<LayerRun> layers;
};

// Runs every layer of `input` through `forward`, feeding X + Z (residual) or Z to the next.
// Throws awb::Error("run.residual_width") when a residual layer's Z is not d_model wide.
RunOutput run_layers(const RunInput& input,
                     const std::function<ForwardResult(const ProblemSpec&)>& forward);

// Something checks can run: a plugin variant (in-process or isolated) or the reference.
class Subject {
 public:
  virtual ~Subject() = default;
  // Why this subject cannot run `input` in `scalar` (a capability it lacks), or nothing.
  virtual std::optional<std::string> cannot_run(const RunInput& input, Scalar scalar) const = 0;
  // Runs all layers. Faults surface as awb::Error (ids "plugin.*", "run.*", "runner.*").
  virtual RunOutput run(const RunInput& input, Scalar scalar) = 0;
  // Runs all layers asking for Z alone (A and S not requested: their buffers are null), as awb
  // run, compare and bench ask; the results hold no weights or scores. The default is run()
  // without them, for a subject that has no other way.
  virtual RunOutput run_context_only(const RunInput& input, Scalar scalar);
  // Why this subject has no backward pass, or nothing when it has one.
  virtual std::optional<std::string> cannot_backward() const {
    return "this subject has no backward pass";
  }
  // The backward of ONE layer's problem (a layer stack's chain is the caller's). `problem` is
  // run as given; faults surface as awb::Error like run()'s.
  virtual LayerGradients backward(const ProblemSpec& problem, const BackwardSeed& upstream,
                                  Scalar scalar);
};

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_RUN_HPP_
