// training.cpp: the attention objective, the residual chain's backward, SGD and Adam.
#include "core/training/training.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

#include "core/grading/grading.hpp"
#include "core/plugins/subjects.hpp"
#include "graders/model/error.hpp"
#include "runner/protocol.hpp"

namespace awb::core {
namespace {

constexpr const char* kWeightNames[] = {"w_q", "w_k", "w_v", "w_o"};

std::optional<Matrix>& slot(LayerWeights& w, int index) {
  switch (index) {
    case 0:
      return w.w_q;
    case 1:
      return w.w_k;
    case 2:
      return w.w_v;
    default:
      return w.w_o;
  }
}
const std::optional<Matrix>& slot(const LayerWeights& w, int index) {
  return slot(const_cast<LayerWeights&>(w), index);
}

bool learned(const TrainSpec& t, int index) {
  return std::find(t.learn.begin(), t.learn.end(), kWeightNames[index]) != t.learn.end();
}

void add_into(Matrix& acc, const Matrix& m) {
  for (size_t i = 0; i < acc.data.size(); ++i) acc.data[i] += m.data[i];
}

// The last layer any target of case `c` reads.
int top_layer(const Exercise& ex, int c) {
  int top = -1;
  for (const auto& t : ex.train->targets)
    if (t.case_index == c) top = std::max(top, target_layer(ex, t));
  return top;
}

}  // namespace

int target_layer(const Exercise& ex, const TrainTarget& t) {
  return t.layer < 0 ? static_cast<int>(ex.layers.size()) - 1 : t.layer;
}

std::vector<LayerWeights> initial_weights(const Exercise& ex) {
  std::vector<LayerWeights> layers = ex.layers;
  if (!ex.train || !ex.train->init) return layers;
  for (size_t l = 0; l < layers.size(); ++l)
    for (int j = 0; j < 4; ++j) {
      auto& w = slot(layers[l], j);
      if (!w || !learned(*ex.train, j)) continue;
      SeededSpec spec = *ex.train->init;
      spec.seed += 4 * l + static_cast<uint64_t>(j);
      w = seeded_matrix(spec, w->rows, w->cols);
    }
  return layers;
}

LossAndGradients loss_and_gradients(const Exercise& ex, const std::vector<LayerWeights>& layers,
                                    Subject& subject) {
  const TrainSpec& spec = *ex.train;
  LossAndGradients out;
  out.grads.resize(layers.size());
  for (size_t l = 0; l < layers.size(); ++l)
    for (int j = 0; j < 4; ++j)
      if (const auto& w = slot(layers[l], j); w && learned(spec, j))
        slot(out.grads[l], j) = Matrix(w->rows, w->cols);
  const double n = static_cast<double>(spec.targets.size());

  for (int c = 0; c < static_cast<int>(ex.cases.size()); ++c) {
    const int top = top_layer(ex, c);
    if (top < 0) continue;
    const ExerciseCase& ec = ex.cases[size_t(c)];
    const RunInput input{ec.tokens, ec.x, layers, ex.parameters};
    const RunOutput run = subject.run(input, Scalar::kF64);
    const int64_t T_ = static_cast<int64_t>(ec.tokens.size());

    Matrix dx_next;  // ∂L/∂X_{l+1}; empty above the top layer
    for (int l = top; l >= 0; --l) {
      const LayerRun& lr = run.layers[size_t(l)];
      const ProblemSpec problem = input.layer_problem(size_t(l), lr.input);
      BackwardSeed seed;
      seed.dz = dx_next.empty() ? Matrix(T_, lr.result.z.cols) : dx_next;
      // dA at each target's entry: −1/(n·A) (∂ of −log A / n), or for a key to avoid
      // +1/(n·(1 − A)) (∂ of −log(1 − A) / n).
      for (const auto& t : spec.targets) {
        const int tl = target_layer(ex, t);
        if (t.case_index != c || tl != l) continue;
        if (seed.da.empty()) seed.da.assign(lr.result.weights.size(), Matrix(T_, T_));
        const double a = lr.result.weights.at(size_t(t.head))(t.query, t.key);
        const double p = t.avoid ? 1 - a : a;  // the probability the term's target has
        out.loss -= std::log(p) / n;
        seed.da[size_t(t.head)](t.query, t.key) += (t.avoid ? 1.0 : -1.0) / (n * p);
      }
      const LayerGradients g = subject.backward(problem, seed, Scalar::kF64);
      const std::optional<Matrix>* got[] = {&g.dw_q, &g.dw_k, &g.dw_v, &g.dw_o};
      for (int j = 0; j < 4; ++j)
        if (auto& acc = slot(out.grads[size_t(l)], j); acc && *got[j]) add_into(*acc, **got[j]);
      // The residual carries X_l unchanged into X_{l+1}: its gradient flows straight back.
      Matrix dx = g.dx;
      if (layers[size_t(l)].residual && !dx_next.empty()) add_into(dx, dx_next);
      dx_next = std::move(dx);
    }
  }
  return out;
}

void LossCourse::add(double loss) {
  if (losses_ == 0) first_ = loss;
  if (losses_ > 0 && loss > last_) ++rises_;
  last_ = loss;
  ++losses_;
}

std::string LossCourse::diagnosis() const {
  const int steps = losses_ - 1;  // the changes between the losses seen
  if (rises_ < 3 || 10 * rises_ < 9 * steps || !(last_ > first_)) return "";
  char from_to[64];
  std::snprintf(from_to, sizeof from_to, "from %.6g to %.6g", first_, last_);
  return "the loss rose over " + std::to_string(rises_) +
         (rises_ == steps ? " steps" : " of " + std::to_string(steps) + " steps") + " (" + from_to +
         "): the gradient's sign is likely flipped. The optimiser steps against the gradient "
         "the backward returns, so that must be +∂L/∂W; the exercises' gradient checks name a "
         "negated one.";
}

bool TrainOutcome::succeeded() const {
  if (!loss_met) return false;
  for (const auto& c : success_checks.checks)
    if (c.status != grade::Status::kPassed) return false;
  return true;
}

Trainer::Trainer(Exercise ex) : ex_(std::move(ex)) {
  if (!ex_.train) throw Error("train.none", ex_.id, "the exercise has no train section");
  layers_ = initial_weights(ex_);
}

double Trainer::advance(Subject& subject) {
  const TrainSpec& spec = *ex_.train;
  const LossAndGradients lg = loss_and_gradients(ex_, layers_, subject);
  if (!std::isfinite(lg.loss)) {
    const std::string why = course_.diagnosis();
    throw Error("train.diverged", ex_.id,
                "the loss is not finite at step " + std::to_string(step_) +
                    (why.empty() ? "" : "; before that " + why));
  }
  course_.add(lg.loss);
  for (size_t l = 0; l < layers_.size(); ++l)
    for (int j = 0; j < 4; ++j) {
      const auto& g = slot(lg.grads[l], j);
      if (!g) continue;
      Matrix& w = *slot(layers_[l], j);
      auto& [m, v] = state_[{l, j}];
      if (m.empty()) m = v = Matrix(w.rows, w.cols);
      for (size_t i = 0; i < w.data.size(); ++i) {
        const double gi = g->data[i];
        if (spec.optimizer == Optimizer::kSgd) {
          m.data[i] = spec.momentum * m.data[i] + gi;
          w.data[i] -= spec.learning_rate * m.data[i];
          continue;
        }
        // Adam (Kingma and Ba, 2015), with bias-corrected moments.
        m.data[i] = spec.beta1 * m.data[i] + (1 - spec.beta1) * gi;
        v.data[i] = spec.beta2 * v.data[i] + (1 - spec.beta2) * gi * gi;
        const double mh = m.data[i] / (1 - std::pow(spec.beta1, step_ + 1));
        const double vh = v.data[i] / (1 - std::pow(spec.beta2, step_ + 1));
        w.data[i] -= spec.learning_rate * mh / (std::sqrt(vh) + spec.epsilon);
      }
    }
  ++step_;
  return lg.loss;
}

TrainOutcome Trainer::outcome(Subject& subject) const {
  const TrainSpec& spec = *ex_.train;
  TrainOutcome out;
  out.layers = layers_;
  out.final_loss = loss_and_gradients(ex_, layers_, subject).loss;
  LossCourse course = course_;
  if (std::isfinite(out.final_loss)) course.add(out.final_loss);
  out.diagnosis = course.diagnosis();
  if (spec.loss_below) out.loss_met = out.final_loss < *spec.loss_below;
  Exercise trained = ex_;
  trained.layers = layers_;
  trained.checks = spec.success_checks;
  out.success_checks = grade_exercise(trained, subject);
  // Each case runs once, however many targets read it.
  std::map<int, RunOutput> runs;
  for (const auto& t : spec.targets) {
    auto [run, fresh] = runs.try_emplace(t.case_index);
    if (fresh) {
      const ExerciseCase& c = ex_.cases[size_t(t.case_index)];
      run->second = subject.run(RunInput{c.tokens, c.x, layers_, ex_.parameters}, Scalar::kF64);
    }
    const int layer = target_layer(ex_, t);
    out.targets.push_back(
        {layer, run->second.layers[size_t(layer)].result.weights.at(size_t(t.head))});
  }
  return out;
}

TrainOutcome train(const Exercise& ex, Subject& subject,
                   const std::function<void(int, double)>& on_step) {
  Trainer trainer(ex);
  std::vector<std::pair<int, double>> trace;
  auto record = [&](int step, double loss) {
    trace.emplace_back(step, loss);
    if (on_step) on_step(step, loss);
  };
  while (!trainer.done()) {
    const int step = trainer.step();
    const double loss = trainer.advance(subject);
    if (step % ex.train->log_every == 0) record(step, loss);
  }
  TrainOutcome out = trainer.outcome(subject);
  record(trainer.step(), out.final_loss);
  out.trace = std::move(trace);
  return out;
}

std::optional<std::string> cannot_train(const Exercise& ex, const VariantDesc& variant) {
  if (!ex.train) return "the exercise has no train section";
  if (auto why = fit_reason(ex.input_for(grade::CheckSpec{}), variant.capabilities, Scalar::kF64))
    return why;
  if (!variant.trainable) return std::string(runner::kNotTrainable);
  return std::nullopt;
}

std::string layers_yaml(const std::vector<LayerWeights>& layers) {
  std::string out = "layers:\n";
  char buf[32];
  for (const auto& w : layers) {
    out += "  - weights:\n";
    for (int j = 0; j < 4; ++j) {
      const auto& m = slot(w, j);
      if (!m) continue;
      out += std::string("      ") + kWeightNames[j] + ":\n";
      for (int64_t r = 0; r < m->rows; ++r) {
        out += "        - [";
        for (int64_t c = 0; c < m->cols; ++c) {
          std::snprintf(buf, sizeof buf, "%.17g", (*m)(r, c));
          out += (c ? ", " : "") + std::string(buf);
        }
        out += "]\n";
      }
    }
    out += std::string("    residual: ") + (w.residual ? "true" : "false") + "\n";
  }
  return out;
}

std::string learned_weights_file(const Exercise& ex, const std::vector<LayerWeights>& layers) {
  return "# Weights learned by awb train on exercise " + ex.id +
         "; paste as an exercise's layers section.\n" + layers_yaml(layers);
}

}  // namespace awb::core
