// training.tests.cpp: the host's residual-chain backward against finite differences of the
// training loss, the bundled training exercises reaching their criteria, the Trainer stepped by
// hand, and the learned weights' YAML loading back into an exercise.
#include "core/training/training.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "core/exercises/exercise.hpp"
#include "core/plugins/subjects.hpp"
#include "runner/protocol.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

const core::Exercise& bundled(const std::string& id) {
  static const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  for (const auto& e : set.exercises)
    if (e.id == id) return e;
  FAIL("no bundled exercise " << id);
  throw;
}

core::VariantRef bundled_variant(const std::string& id) {
  return core::find_variant(test::bundled_catalog(), id);
}

}  // namespace

TEST_CASE("the stack's backward agrees with finite differences of the loss", "[train][gradient]") {
  const core::Exercise& ex = bundled("resolve-it");
  REQUIRE(ex.train);
  core::ReferenceSubject reference(ex.reference_capabilities);
  const auto layers = core::initial_weights(ex);
  const auto analytic = core::loss_and_gradients(ex, layers, reference);
  // Random weights are far from the objective: each row near 1/11 everywhere gives the mean of
  // two terms near ln 11 ≈ 2.4 and twenty near −ln(10/11) ≈ 0.095, about 0.30.
  CHECK(analytic.loss > 0.25);
  // Entries of both layers' W_q and of layer 0's W_v (which reaches the loss only through the
  // residual stream into layer 1's queries and keys).
  struct Entry {
    size_t layer;
    int which;  // 0: w_q, 2: w_v
    int64_t row, col;
  };
  const Entry entries[] = {{0, 0, 2, 0}, {0, 0, 3, 1}, {0, 2, 3, 3}, {0, 2, 4, 4},
                           {1, 0, 2, 1}, {1, 0, 3, 0}, {0, 2, 0, 2}, {1, 2, 1, 1}};
  const double h = 1e-6;
  for (const Entry& e : entries) {
    auto perturbed = layers;
    Matrix& w = e.which == 0 ? *perturbed[e.layer].w_q : *perturbed[e.layer].w_v;
    const double saved = w(e.row, e.col);
    w(e.row, e.col) = saved + h;
    const double up = core::loss_and_gradients(ex, perturbed, reference).loss;
    w(e.row, e.col) = saved - h;
    const double down = core::loss_and_gradients(ex, perturbed, reference).loss;
    const double numeric = (up - down) / (2 * h);
    const auto& g = analytic.grads[e.layer];
    const double got = (e.which == 0 ? *g.w_q : *g.w_v)(e.row, e.col);
    INFO("layer " << e.layer << (e.which == 0 ? " w_q" : " w_v") << "[" << e.row << "][" << e.col
                  << "]: analytic " << got << ", numeric " << numeric);
    CHECK(std::fabs(got - numeric) <= 1e-6 + 1e-5 * std::fabs(numeric));
  }
}

TEST_CASE("training resolve-it through the qkv plugin meets its criteria", "[train][plugin]") {
  const core::Exercise& ex = bundled("resolve-it");
  core::VariantSubject subject(bundled_variant("qkv"), {});
  const core::TrainOutcome r = core::train(ex, subject);
  INFO("final loss " << r.final_loss);
  CHECK(r.trace.front().second > 0.25);  // as at random weights, above
  CHECK(r.final_loss < *ex.train->loss_below);
  REQUIRE(r.success_checks.checks.size() == 4);
  for (const auto& c : r.success_checks.checks) {
    INFO(c.id << ": " << c.summary);
    CHECK(c.status == grade::Status::kPassed);
  }
  CHECK(r.succeeded());
  CHECK(r.diagnosis.empty());

  SECTION("the learned weights load back into the exercise") {
    std::ifstream in(ex.file);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    const size_t from = text.find("\nlayers:"), to = text.find("\ncases:");
    REQUIRE((from != std::string::npos && to != std::string::npos));
    text = text.substr(0, from + 1) + core::layers_yaml(r.layers) + text.substr(to + 1);
    const auto loaded = core::parse_exercise(text, "learned.yaml");
    REQUIRE(loaded.errors.empty());
    const auto& got = loaded.exercise->layers;
    REQUIRE(got.size() == r.layers.size());
    for (size_t l = 0; l < got.size(); ++l) {
      CHECK(got[l].w_q->data == r.layers[l].w_q->data);  // %.17g round-trips every double
      CHECK(got[l].w_v->data == r.layers[l].w_v->data);
    }
  }
}

// Row `row` of a target's attention, for the messages below.
std::string row_text(const core::Exercise& ex, const core::TrainTarget& t, const Matrix& a,
                     int64_t row) {
  const auto& tokens = ex.cases[size_t(t.case_index)].tokens;
  std::string out = tokens[size_t(row)] + ":";
  for (int64_t k = 0; k < a.cols; ++k)
    out += " " + tokens[size_t(k)] + " " + std::to_string(a(row, k));
  return out;
}

TEST_CASE("resolve-it's criteria: one step from the random start fails them all",
          "[train][plugin][criteria]") {
  const core::Exercise& ex = bundled("resolve-it");
  core::VariantSubject subject(bundled_variant("qkv"), {});
  core::Trainer trainer(ex);
  trainer.advance(subject);
  REQUIRE(trainer.step() == 1);
  const core::TrainOutcome one = trainer.outcome(subject);
  INFO("loss after one step " << one.final_loss);
  CHECK_FALSE(one.loss_met);
  REQUIRE(one.success_checks.checks.size() == 4);
  for (const auto& c : one.success_checks.checks) {
    INFO(c.id << ": " << c.summary);
    CHECK(c.status == grade::Status::kFailed);
  }
  CHECK_FALSE(one.succeeded());
}

TEST_CASE("resolve-it's trained solution is specific to \"it\": no other row resolves",
          "[train][plugin][criteria]") {
  const core::Exercise& ex = bundled("resolve-it");
  core::VariantSubject subject(bundled_variant("qkv"), {});
  const core::TrainOutcome r = core::train(ex, subject);
  REQUIRE(r.succeeded());
  // The two targets that pull "it" onto its noun; the rest keep the other rows off it.
  int pulls = 0;
  for (size_t i = 0; i < ex.train->targets.size(); ++i) {
    const core::TrainTarget& t = ex.train->targets[i];
    if (t.avoid) continue;
    ++pulls;
    const Matrix& a = r.targets[i].weights;
    const auto& tokens = ex.cases[size_t(t.case_index)].tokens;
    REQUIRE(tokens[size_t(t.query)] == "it");
    INFO(row_text(ex, t, a, t.query));
    CHECK(a(t.query, t.key) > 0.9);
    for (int64_t row = 0; row < a.rows; ++row) {
      if (row == t.query) continue;
      INFO(row_text(ex, t, a, row));
      CHECK(a(row, t.key) < 0.5);
    }
  }
  CHECK(pulls == 2);
}

TEST_CASE("resolve-it without its avoided keys learns to send every row to the noun",
          "[train][plugin][criteria]") {
  // What the teacher saw: the objective on the row of "it" alone is met by attention that any
  // row would pay; the only_query_above checks catch it.
  core::Exercise ex = bundled("resolve-it");
  auto& targets = ex.train->targets;
  targets.erase(std::remove_if(targets.begin(), targets.end(),
                               [](const core::TrainTarget& t) { return t.avoid; }),
                targets.end());
  REQUIRE(targets.size() == 2);
  core::VariantSubject subject(bundled_variant("qkv"), {});
  const core::TrainOutcome r = core::train(ex, subject);
  REQUIRE(r.success_checks.checks.size() == 4);
  for (const auto& c : r.success_checks.checks) {
    INFO(c.id << ": " << c.summary);
    const bool specific = c.id.find("only-it") != std::string::npos;
    CHECK(c.status == (specific ? grade::Status::kFailed : grade::Status::kPassed));
  }
}

TEST_CASE("training previous-token through the causal plugin meets its criteria",
          "[train][plugin]") {
  const core::Exercise& ex = bundled("previous-token");
  core::VariantSubject subject(bundled_variant("causal"), {});
  const core::TrainOutcome r = core::train(ex, subject);
  INFO("final loss " << r.final_loss);
  CHECK(r.succeeded());
  CHECK(r.diagnosis.empty());
}

TEST_CASE("a loss that runs uphill is diagnosed: the gradient's sign", "[train][diagnosis]") {
  // The shipped mutant whose backward returns every gradient negated: Adam climbs the loss.
  core::LoadPolicy trusted;
  trusted.trust_all = true;
  const core::Catalog cat = core::load_catalog(
      {std::filesystem::path(AWB_TEST_MUTANT_DIR) / "mutant_gradient_sign_flip.so"}, trusted);
  REQUIRE(cat.failures.empty());
  core::VariantSubject subject(core::find_variant(cat, "causal"), {});
  core::Exercise ex = bundled("previous-token");
  ex.train->steps = 20;
  const core::TrainOutcome r = core::train(ex, subject);
  INFO("trace from " << r.trace.front().second << " to " << r.final_loss);
  CHECK(r.final_loss > r.trace.front().second);
  CHECK_FALSE(r.succeeded());
  CHECK(r.diagnosis.find("the loss rose over 20 steps (from ") == 0);
  CHECK(r.diagnosis.find("the gradient's sign is likely flipped") != std::string::npos);
}

TEST_CASE("the loss's course names a climb, not a descent or noise", "[train][diagnosis]") {
  auto course = [](std::initializer_list<double> losses) {
    core::LossCourse c;
    for (double l : losses) c.add(l);
    return c.diagnosis();
  };
  CHECK(course({1, 1.1, 1.2, 1.3}) ==
        "the loss rose over 3 steps (from 1 to 1.3): the gradient's sign is likely flipped. The "
        "optimiser steps against the gradient the backward returns, so that must be +∂L/∂W; the "
        "exercises' gradient checks name a negated one.");
  CHECK(course({1, 1.1, 1.2}).empty());  // too few steps to tell
  CHECK(course({1, 0.9, 0.8, 0.7}).empty());
  CHECK(course({1, 1.2, 0.9, 1.1, 0.8, 1.0}).empty());  // up and down: noise
  // One fall in ten steps still climbs.
  CHECK(course({1, 2, 3, 4, 5, 4.5, 6, 7, 8, 9, 10}).find("the loss rose over 9 of 10 steps") == 0);
}

TEST_CASE("a Trainer stepped by hand is train(): the same losses, weights and criteria",
          "[train][trainer]") {
  const core::Exercise& ex = bundled("resolve-it");
  core::VariantSubject subject(bundled_variant("qkv"), {});
  const core::TrainOutcome whole = core::train(ex, subject);
  core::Trainer trainer(ex);
  CHECK(trainer.layers()[0].w_q->data == core::initial_weights(ex)[0].w_q->data);
  std::vector<double> losses;
  while (!trainer.done()) {
    CHECK(trainer.step() == static_cast<int>(losses.size()));
    losses.push_back(trainer.advance(subject));
  }
  CHECK(trainer.step() == ex.train->steps);
  for (size_t i = 0; i + 1 < whole.trace.size(); ++i)
    CHECK(losses.at(size_t(whole.trace[i].first)) == whole.trace[i].second);
  const core::TrainOutcome end = trainer.outcome(subject);
  CHECK(end.final_loss == whole.final_loss);
  CHECK(end.layers[1].w_k->data == whole.layers[1].w_k->data);
  CHECK(end.succeeded() == whole.succeeded());
  // Each target's attention: its layer resolved, its row the one the CLI prints.
  REQUIRE(end.targets.size() == ex.train->targets.size());
  for (size_t i = 0; i < end.targets.size(); ++i) {
    const core::TrainTarget& t = ex.train->targets[i];
    CHECK(end.targets[i].layer == core::target_layer(ex, t));
    const auto& c = ex.cases[size_t(t.case_index)];
    const RunOutput run =
        subject.run(RunInput{c.tokens, c.x, end.layers, ex.parameters}, Scalar::kF64);
    CHECK(end.targets[i].weights.data ==
          run.layers[size_t(end.targets[i].layer)].result.weights[size_t(t.head)].data);
  }
}

TEST_CASE("cannot_train names what stops a variant training an exercise", "[train][trainer]") {
  const core::Exercise& resolve_it = bundled("resolve-it");
  core::VariantDesc qkv = *bundled_variant("qkv").variant;
  CHECK_FALSE(core::cannot_train(resolve_it, qkv));
  CHECK(core::cannot_train(bundled("journey"), qkv) == "the exercise has no train section");
  CHECK(core::cannot_train(resolve_it, *bundled_variant("parameter-free").variant));
  qkv.trainable = false;  // every bundled variant has a backward pass
  CHECK(core::cannot_train(resolve_it, qkv) == std::string(runner::kNotTrainable));
  CHECK_THROWS_WITH(core::Trainer(bundled("journey")), Catch::Contains("train.none"));
}

TEST_CASE("a train section is checked when the exercise loads", "[train][exercise]") {
  const std::string head = R"(awb-exercise: 1
id: t
title: t
variant: {kind: qkv}
parameters: {causal: true}
tokens: [a, b, c]
embeddings: [[1, 0], [0, 1], [1, 1]]
weights: {w_q: [[1], [0]], w_k: [[0], [1]], w_v: [[1, 0], [0, 1]]}
checks: [{id: r, kind: reference}]
)";
  const auto good = core::parse_exercise(head + R"(train:
  learn: [w_q, w_k]
  optimizer: {kind: sgd, learning_rate: 0.1, momentum: 0.9}
  steps: 5
  objective: {kind: attention, targets: [{query: c, key: a}, {query: c, key: b, avoid: true}]}
  success: {loss_below: 0.5}
)",
                                         "good.yaml");
  REQUIRE(good.errors.empty());
  REQUIRE(good.exercise->train);
  CHECK(good.exercise->train->optimizer == core::Optimizer::kSgd);
  CHECK(good.exercise->train->targets.at(0).query == 2);
  CHECK_FALSE(good.exercise->train->targets.at(0).avoid);
  CHECK(good.exercise->train->targets.at(1).avoid);

  const auto bad = core::parse_exercise(head + R"(train:
  learn: [w_q, w_x]
  optimizer: {kind: adam, learning_rate: 0, momentum: 0.9}
  steps: 5
  objective: {kind: attention, targets: [{query: a, key: c}, {query: c, key: a, avoid: often}]}
  success: {}
)",
                                        "bad.yaml");
  std::string all;
  for (const auto& e : bad.errors) all += std::string(e.what()) + "\n";
  INFO(all);
  CHECK(all.find("train.learn[1]") != std::string::npos);
  CHECK(all.find("train.optimizer.momentum: momentum is an sgd setting") != std::string::npos);
  CHECK(all.find("train.optimizer.learning_rate") != std::string::npos);
  CHECK(all.find("causal mask hides a key after its query") != std::string::npos);
  CHECK(all.find("train.objective.targets[1].avoid") != std::string::npos);
  CHECK(all.find("needs loss_below or checks") != std::string::npos);
}
