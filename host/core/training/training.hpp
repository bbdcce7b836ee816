// training.hpp: learns an exercise's weights through a subject's forward and backward passes,
// the host doing the backward of the residual chain between layers.
#ifndef AWB_CORE_TRAINING_TRAINING_HPP_
#define AWB_CORE_TRAINING_TRAINING_HPP_

#include <functional>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "graders/report/report.hpp"

namespace awb::core {

// The loss of the attention objective and its gradient with respect to every learned weight.
struct LossAndGradients {
  double loss = 0;
  std::vector<LayerWeights> grads;  // per layer; set where a weight is learned
};

// L = mean over the targets of −log A[query, key] for `layers` run on each target's case.
// Back through each case's stack: layer l gets dZ_l = ∂L/∂X_{l+1} (X_{l+1} = X_l + Z_l with a
// residual, Z_l without) and dA from the targets on it; ∂L/∂X_l = dX from its backward, plus
// ∂L/∂X_{l+1} again when the residual carried X_l forward.
LossAndGradients loss_and_gradients(const Exercise& ex, const std::vector<LayerWeights>& layers,
                                    Subject& subject);

// The weights training starts from: the exercise's, with the learned ones redrawn when the
// train section has an `init` seed.
std::vector<LayerWeights> initial_weights(const Exercise& ex);

struct TrainOutcome {
  std::vector<LayerWeights> layers;           // the learned weights
  std::vector<std::pair<int, double>> trace;  // (step, loss) at every log_every-th step
  double final_loss = 0;
  bool loss_met = true;                  // loss_below, when the exercise sets one
  grade::ExerciseReport success_checks;  // the success checks graded with the learned weights
  bool succeeded() const;
};

// Runs the exercise's train section on `subject` (f64). `on_step(step, loss)` is called at every
// log_every-th step and at the last. Throws awb::Error("train.none") when the exercise has no
// train section; subject faults surface as their awb::Error.
TrainOutcome train(const Exercise& ex, Subject& subject,
                   const std::function<void(int, double)>& on_step = {});

// The learned stack as an exercise's `layers:` section (YAML, round-trips every double).
std::string layers_yaml(const std::vector<LayerWeights>& layers);

}  // namespace awb::core

#endif  // AWB_CORE_TRAINING_TRAINING_HPP_
