// exercise_train.cpp: exercise files, version 1: the optional `train:` section (objective,
// weights to learn and their seed, optimiser, step budget, success criteria).
#include <algorithm>

#include "core/exercises/exercise_parse.hpp"

namespace awb::core {

namespace parse {
namespace {

inline constexpr int64_t kMaxSteps = 100000;
inline constexpr int64_t kMaxTargets = 256;

void optimizer(YamlReader& rd, const YAML::Node& n, TrainSpec& t) {
  const std::string path = "train.optimizer";
  if (!rd.check_keys(n, path, {"kind", "learning_rate", "momentum", "beta1", "beta2", "epsilon"}))
    return;
  if (auto k = rd.require(n, path, "kind"))
    if (auto w = rd.choice<Optimizer>(*k, path + ".kind")) t.optimizer = *w;
  if (n["momentum"] && t.optimizer != Optimizer::kSgd)
    rd.error(n["momentum"], path + ".momentum", rd.id("value"), "momentum is an sgd setting");
  for (auto key : {"beta1", "beta2", "epsilon"})
    if (n[key] && t.optimizer != Optimizer::kAdam)
      rd.error(n[key], path + "." + key, rd.id("value"), std::string(key) + " is an adam setting");
  // Each setting lies in [low, high) or, where the low end is excluded, in (low, high).
  struct Setting {
    const char* key;
    double* field;
    double low, high;
    bool low_included;
  };
  const Setting settings[] = {{"learning_rate", &t.learning_rate, 0, 1e3, false},
                              {"momentum", &t.momentum, 0, 1, true},
                              {"beta1", &t.beta1, 0, 1, true},
                              {"beta2", &t.beta2, 0, 1, true},
                              {"epsilon", &t.epsilon, 0, 1, false}};
  for (const auto& s : settings) {
    if (!n[s.key]) continue;
    const std::string p = path + "." + s.key;
    if (auto v = rd.number(n[s.key], p)) {
      if ((s.low_included ? *v >= s.low : *v > s.low) && *v < s.high)
        *s.field = *v;
      else
        rd.error(n[s.key], p, rd.id("value"),
                 std::string("must be in ") + (s.low_included ? "[" : "(") +
                     std::to_string(s.low).substr(0, 1) + ", " +
                     (s.high == 1 ? std::string("1") : std::string("1000")) + ")");
    }
  }
}

void objective(YamlReader& rd, const YAML::Node& n, const Exercise& ex, TrainSpec& t) {
  const std::string path = "train.objective";
  if (!rd.check_keys(n, path, {"kind", "targets"})) return;
  if (auto k = rd.require(n, path, "kind")) rd.word(*k, path + ".kind", {"attention"});
  const auto targets = rd.require(n, path, "targets");
  if (!targets) return;
  if (!targets->IsSequence() || targets->size() == 0 ||
      static_cast<int64_t>(targets->size()) > kMaxTargets) {
    rd.error(*targets, path + ".targets", rd.id("type"),
             "must be a list of 1 to 256 {case, layer, head, query, key, avoid}");
    return;
  }
  for (size_t i = 0; i < targets->size(); ++i) {
    const YAML::Node tn = (*targets)[i];
    const std::string tp = path + ".targets[" + std::to_string(i) + "]";
    if (!rd.check_keys(tn, tp, {"case", "layer", "head", "query", "key", "avoid"})) continue;
    TrainTarget target;
    if (tn["case"]) {
      const auto s = rd.string(tn["case"], tp + ".case");
      if (!s) continue;
      const auto it = std::find_if(ex.cases.begin(), ex.cases.end(),
                                   [&](const ExerciseCase& c) { return c.id == *s; });
      if (it == ex.cases.end()) {
        rd.error(tn["case"], tp + ".case", rd.id("unknown_case"), "no case '" + *s + "'");
        continue;
      }
      target.case_index = static_cast<int>(it - ex.cases.begin());
    }
    const ExerciseCase& c = ex.cases[size_t(target.case_index)];
    if (tn["layer"])
      if (auto v = rd.integer(tn["layer"], tp + ".layer", 0, int64_t(ex.layers.size()) - 1))
        target.layer = int(*v);
    if (tn["head"])
      if (auto v = rd.integer(tn["head"], tp + ".head", 0, ex.parameters.heads - 1))
        target.head = int(*v);
    const auto q = rd.require(tn, tp, "query");
    const auto k = rd.require(tn, tp, "key");
    const auto qi = q ? token_ref(rd, *q, tp + ".query", c) : std::nullopt;
    const auto ki = k ? token_ref(rd, *k, tp + ".key", c) : std::nullopt;
    if (!qi || !ki) continue;
    target.query = *qi;
    target.key = *ki;
    if (tn["avoid"])
      if (auto b = rd.boolean(tn["avoid"], tp + ".avoid")) target.avoid = *b;
    // Under the mask the weight on a later key is exactly 0: −log 0 cannot be trained away (and
    // there is nothing to avoid).
    if (ex.parameters.causal && target.key > target.query)
      rd.error(*k, tp + ".key", rd.id("value"),
               "the causal mask hides a key after its query; its weight is always 0");
    t.targets.push_back(target);
  }
}

}  // namespace

void train(YamlReader& rd, const YAML::Node& n, Exercise& ex) {
  if (!rd.check_keys(n, "train",
                     {"learn", "init", "optimizer", "steps", "log_every", "objective", "success"}))
    return;
  if (ex.cases.empty() || ex.layers.empty()) return;  // reported already
  TrainSpec t;
  if (!projected(ex.kind))
    rd.error(n, "train", rd.id("value"),
             std::string("a ") + to_string(ex.kind) + " exercise has no weights to learn");
  if (auto l = rd.require(n, "train", "learn")) {
    if (auto list = rd.strings(*l, "train.learn", 4)) {
      for (size_t i = 0; i < list->size(); ++i)
        if (auto w = rd.word((*l)[i], "train.learn[" + std::to_string(i) + "]",
                             {"w_q", "w_k", "w_v", "w_o"}))
          t.learn.push_back(*w);
    }
  }
  if (n["init"]) t.init = seeded_spec(rd, n["init"], "train.init", {});
  if (auto o = rd.require(n, "train", "optimizer")) optimizer(rd, *o, t);
  if (auto s = rd.require(n, "train", "steps"))
    if (auto v = rd.integer(*s, "train.steps", 1, kMaxSteps, "limit")) t.steps = int(*v);
  if (n["log_every"])
    if (auto v = rd.integer(n["log_every"], "train.log_every", 1, kMaxSteps)) t.log_every = int(*v);
  if (auto o = rd.require(n, "train", "objective")) objective(rd, *o, ex, t);
  if (auto s = rd.require(n, "train", "success")) {
    if (rd.check_keys(*s, "train.success", {"loss_below", "checks"})) {
      if ((*s)["loss_below"])
        if (auto v = rd.number((*s)["loss_below"], "train.success.loss_below")) t.loss_below = *v;
      if ((*s)["checks"]) checks(rd, (*s)["checks"], "train.success.checks", ex, t.success_checks);
      if (!(*s)["loss_below"] && !(*s)["checks"])
        rd.error(*s, "train.success", rd.id("missing_key"), "needs loss_below or checks");
    }
  }
  ex.train = std::move(t);
}

}  // namespace parse
}  // namespace awb::core
