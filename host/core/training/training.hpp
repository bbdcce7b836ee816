// training.hpp: learns an exercise's weights through a subject's forward and backward passes,
// the host doing the backward of the residual chain between layers; one step at a time
// (Trainer), so a front end can watch, pause and stop the same loop that train() runs.
#ifndef AWB_CORE_TRAINING_TRAINING_HPP_
#define AWB_CORE_TRAINING_TRAINING_HPP_

#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/report/report.hpp"

namespace awb::core {

// The loss of the attention objective and its gradient with respect to every learned weight.
struct LossAndGradients {
  double loss = 0;
  std::vector<LayerWeights> grads;  // per layer; set where a weight is learned
};

// L = mean over the targets of −log A[query, key] (−log(1 − A[query, key]) for a key to avoid)
// for `layers` run on each target's case.
// Back through each case's stack: layer l gets dZ_l = ∂L/∂X_{l+1} (X_{l+1} = X_l + Z_l with a
// residual, Z_l without) and dA from the targets on it; ∂L/∂X_l = dX from its backward, plus
// ∂L/∂X_{l+1} again when the residual carried X_l forward.
LossAndGradients loss_and_gradients(const Exercise& ex, const std::vector<LayerWeights>& layers,
                                    Subject& subject);

// The layer a target reads: its own, or the last when it names none.
int target_layer(const Exercise& ex, const TrainTarget& t);

// The weights training starts from: the exercise's, with the learned ones redrawn when the
// train section has an `init` seed.
std::vector<LayerWeights> initial_weights(const Exercise& ex);

// One objective target's attention at some weights: the whole T × T matrix of its case, layer
// and head; the objective pulls row `query` of it toward one-hot on `key`.
struct TargetAttention {
  int layer = 0;   // target_layer() of the target
  Matrix weights;  // A of the target's case, layer and head
};

struct TrainOutcome {
  std::vector<LayerWeights> layers;           // the learned weights
  std::vector<std::pair<int, double>> trace;  // (step, loss) at every log_every-th step
  double final_loss = 0;
  bool loss_met = true;                  // loss_below, when the exercise sets one
  grade::ExerciseReport success_checks;  // the success checks graded with the learned weights
  std::vector<TargetAttention> targets;  // per train target, in order, with the learned weights
  // What the loss's course suggests went wrong ("the loss rose over 200 steps: ..."), or "".
  std::string diagnosis;
  bool succeeded() const;
};

// The loss's course, one step at a time: whether it runs uphill, as descent with a gradient of
// the wrong sign does.
class LossCourse {
 public:
  void add(double loss);
  // "the loss rose over N steps (from a to b): the gradient's sign is likely flipped ..." when
  // it rose at nine steps in ten or more, at least 3 of them, and ended above where it began;
  // "" otherwise. A descent on a right gradient falls at most of its first steps.
  std::string diagnosis() const;

 private:
  double first_ = 0, last_ = 0;
  int losses_ = 0, rises_ = 0;
};

// The training loop, one optimiser step per advance(). train() drives it to the end; a front end
// that pauses, steps or stops between steps (the GUI's train view) drives the same object, so
// both run one loop. Holds its own copy of the exercise; not thread-safe (one caller at a time).
class Trainer {
 public:
  // Starts from initial_weights(ex). Throws awb::Error("train.none") when the exercise has no
  // train section.
  explicit Trainer(Exercise ex);

  const Exercise& exercise() const { return ex_; }
  int step() const { return step_; }  // steps taken so far
  int steps() const { return ex_.train->steps; }
  bool done() const { return step_ >= steps(); }
  const std::vector<LayerWeights>& layers() const { return layers_; }

  // One step: the loss and gradients at the current weights, then the optimiser's update.
  // Returns that loss (the loss of step `step()` before the call). Throws
  // awb::Error("train.diverged") when it is not finite (with the course's diagnosis when it ran
  // uphill until then); subject faults as their awb::Error.
  double advance(Subject& subject);

  // The success criteria judged at the current weights, as train() reports them at the end:
  // the loss there, loss_below, the success checks, the targets' attention and the diagnosis of
  // the loss's course so far (no trace).
  TrainOutcome outcome(Subject& subject) const;

 private:
  Exercise ex_;
  std::vector<LayerWeights> layers_;
  // Optimiser state per learned matrix (layer, w_q..w_o): momentum (SGD) or first and second
  // moments (Adam).
  std::map<std::pair<size_t, int>, std::pair<Matrix, Matrix>> state_;
  int step_ = 0;
  LossCourse course_;
};

// Runs the exercise's train section on `subject` (f64) with a Trainer. `on_step(step, loss)` is
// called at every log_every-th step and at the last. Throws awb::Error("train.none") when the
// exercise has no train section; subject faults surface as their awb::Error.
TrainOutcome train(const Exercise& ex, Subject& subject,
                   const std::function<void(int, double)>& on_step = {});

// Why `variant` cannot train `ex`, judged from its description before a session opens: no
// train section, a capability the exercise needs, or no backward pass. Nothing when it can.
std::optional<std::string> cannot_train(const Exercise& ex, const VariantDesc& variant);

// The learned stack as an exercise's `layers:` section (YAML, round-trips every double).
std::string layers_yaml(const std::vector<LayerWeights>& layers);
// The file `awb train --out` (and the GUI's "Save learned weights") writes: a comment naming the
// exercise, then layers_yaml(layers).
std::string learned_weights_file(const Exercise& ex, const std::vector<LayerWeights>& layers);

}  // namespace awb::core

#endif  // AWB_CORE_TRAINING_TRAINING_HPP_
