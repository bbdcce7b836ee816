// sequences.tests.cpp: batches of padded sequences (SDK 1.3, awb_problem's batch and lengths):
// the reference's batch is each sequence's own problem, zero at the padding; its backward agrees
// with finite differences; the bundled variants agree with it forward and backward; a variant
// without AWB_CAP_BATCH (built against SDK 1.0) is called once per sequence by the host.
#include <catch2/catch.hpp>

#include "core/plugins/capabilities.hpp"
#include "core/plugins/reference_forward.hpp"
#include "core/plugins/subjects.hpp"
#include "graders/checks/finite_difference.hpp"
#include "graders/reference/reference_gradients.hpp"
#include "graders/tolerance/tolerance.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

using test::random_matrix;
using test::random_upstream;

Matrix row_block(const Matrix& m, int64_t first, int64_t count) {
  Matrix out(count, m.cols);
  for (int64_t r = 0; r < count; ++r)
    for (int64_t c = 0; c < m.cols; ++c) out(r, c) = m(first + r, c);
  return out;
}

// B sequences of T tokens with the given lengths (empty: none), heads over kv_heads key/value
// heads (0: ordinary), projections and W_o when `projected`.
ProblemSpec batched_problem(std::mt19937_64& rng, int batch, int64_t tokens,
                            std::vector<int64_t> lengths, int heads, int kv_heads, bool projected,
                            bool causal) {
  ProblemSpec p = test::random_problem(rng, batch * tokens, 5, heads, 3, projected, causal);
  p.batch = batch;
  p.lengths = std::move(lengths);
  if (kv_heads > 0 && kv_heads < heads) {
    p.kv_heads = kv_heads;
    p.w_k = p.w_k->column_block(0, kv_heads * 3);
    p.w_v = p.w_v->column_block(0, kv_heads * 3);
  }
  validate(p);
  return p;
}

// Sequence b alone: its real tokens, no batch.
ProblemSpec sequence_alone(const ProblemSpec& p, int b) {
  ProblemSpec out = p;
  const int64_t T = p.sequence_tokens(), n = p.lengths.empty() ? T : p.lengths[size_t(b)];
  out.batch = 1;
  out.lengths.clear();
  out.x = row_block(p.x, b * T, n);
  if (!p.tokens.empty()) out.tokens.assign(p.tokens.begin() + b * T, p.tokens.begin() + b * T + n);
  return out;
}

// A bundled variant's forward against the reference's, in f64 and f32, A and S wanted or not.
void check_forward(const core::VariantRef& ref, uint64_t caps, const ProblemSpec& p, bool want_a,
                   bool want_s) {
  INFO("A " << want_a << " S " << want_s);
  core::ForwardOptions o;
  o.want_weights = want_a;
  o.want_scores = want_s;
  o.scalar = Scalar::kF64;
  const auto ref64 = test::run_forward_reference(caps, p, o, Scalar::kF64);
  CHECK(test::compare_f64(test::run_variant(ref, p, o), ref64) == "");
  o.scalar = Scalar::kF32;
  CHECK(test::compare_f32(test::run_variant(ref, p, o),
                          test::run_forward_reference(caps, p, o, Scalar::kF32), ref64) == "");
}

uint64_t caps_for(const ProblemSpec& p) {
  uint64_t caps = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL | AWB_CAP_BATCH;
  if (p.has_projections())
    caps |= AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_OUTPUT_PROJ | AWB_CAP_GROUPED_KV;
  return caps;
}

}  // namespace

TEST_CASE("a batch's reference is each sequence's own problem, and 0 at the padding",
          "[reference][batch]") {
  std::mt19937_64 rng(20261205);
  struct Case {
    bool projected, causal;
    int heads, kv_heads;
    std::vector<int64_t> lengths;
  };
  const Case cases[] = {{false, false, 1, 0, {}},
                        {false, true, 1, 0, {6, 3, 1}},
                        {true, false, 2, 0, {4, 6, 2}},
                        {true, true, 4, 2, {6, 5, 1}},
                        {true, false, 4, 1, {}}};
  for (const Case& c : cases) {
    const ProblemSpec p =
        batched_problem(rng, 3, 6, c.lengths, c.heads, c.kv_heads, c.projected, c.causal);
    const int H = c.projected ? c.heads : 1;
    INFO("projected " << c.projected << " causal " << c.causal << " heads " << c.heads << "/"
                      << c.kv_heads << " padded " << !c.lengths.empty());
    for (Scalar scalar : {Scalar::kF64, Scalar::kF32}) {
      const ForwardResult all = test::run_reference(caps_for(p), p, scalar);
      REQUIRE(all.weights.size() == size_t(3 * H));
      for (int b = 0; b < 3; ++b) {
        const ProblemSpec one = sequence_alone(p, b);
        const ForwardResult alone = test::run_reference(caps_for(p), one, scalar);
        const int64_t n = one.tokens_count();
        for (int64_t t = 0; t < 6; ++t)
          for (int64_t c2 = 0; c2 < all.z.cols; ++c2)
            CHECK(all.z(b * 6 + t, c2) == (t < n ? alone.z(t, c2) : 0.0));
        for (int h = 0; h < H; ++h)
          for (int64_t t = 0; t < 6; ++t)
            for (int64_t t2 = 0; t2 < 6; ++t2) {
              const bool real = t < n && t2 < n;
              CHECK(all.weights[size_t(b * H + h)](t, t2) ==
                    (real ? alone.weights[size_t(h)](t, t2) : 0.0));
              CHECK(all.scores[size_t(b * H + h)](t, t2) ==
                    (real ? alone.scores[size_t(h)](t, t2) : 0.0));
            }
      }
    }
  }
}

TEST_CASE("a batch's reference backward agrees with central finite differences",
          "[reference][gradient][batch]") {
  std::mt19937_64 rng(20261206);
  for (bool causal : {false, true}) {
    const ProblemSpec p = batched_problem(rng, 2, 4, {4, 2}, 4, 2, true, causal);
    const BackwardSeed up = random_upstream(rng, p);
    const LayerGradients g = reference::gradients_of(p, up, Scalar::kF64);
    const auto probes = grade::finite_difference_probes(
        p, up, g, [](const ProblemSpec& q) { return reference::forward_of(q, Scalar::kF64); },
        1000);
    INFO("causal " << causal);
    CHECK(probes.size() > 100);
    for (const auto& pr : probes) {
      INFO(pr.tensor << "[" << pr.row << "][" << pr.col << "] analytic " << pr.analytic
                     << " numeric " << pr.numeric);
      CHECK(pr.agrees);
    }
    // The padded tokens take no part: their rows of dX are exactly 0.
    for (int64_t t = 6; t < 8; ++t)
      for (int64_t c = 0; c < g.dx.cols; ++c) CHECK(g.dx(t, c) == 0.0);
  }
}

TEST_CASE("bundled variants run batches of padded sequences as the reference does",
          "[plugin][batch][gradient]") {
  std::mt19937_64 rng(20261207);
  int checked = 0;
  for (const auto& plugin : test::bundled_catalog().plugins) {
    for (const auto& variant : plugin.variants) {
      if (variant.id == "sliding-window" || variant.id == "linear") continue;
      const uint64_t caps = variant.capabilities;
      REQUIRE((caps & AWB_CAP_BATCH) != 0);  // the C++ layer sets it for every variant
      const core::VariantRef ref{&plugin, &variant};
      core::VariantSubject subject(ref, {});
      for (bool causal : {false, true}) {
        if (causal && !(caps & AWB_CAP_CAUSAL)) continue;
        if (!causal && (caps & AWB_CAP_CAUSAL_ONLY)) continue;
        const bool projected = caps & AWB_CAP_QKV;
        const bool multi = caps & AWB_CAP_MULTI_HEAD;
        // 70 tokens: more than one kernel block; a sequence of 1 and one cut mid-block.
        ProblemSpec p = batched_problem(rng, 3, 70, {70, 1, 37}, multi ? 4 : 1,
                                        (caps & AWB_CAP_GROUPED_KV) ? 2 : 0, projected, causal);
        if (!(caps & AWB_CAP_OUTPUT_PROJ)) p.w_o.reset();
        INFO(variant.id << " causal " << causal);
        // Z alone (the streaming kernel), A alone and A with S (the materialised one): the
        // bundled variants take the batch whole.
        for (const auto& [want_a, want_s] : {std::pair{false, false}, {true, false}, {true, true}})
          check_forward(ref, caps, p, want_a, want_s);
        const LayerGradients g64 = test::check_backward(subject, p, random_upstream(rng, p));
        // dX is 0 at the padding (sequence 1's rows 1..69, sequence 2's rows 37..69).
        for (int64_t t : {71, 139, 140 + 37, 209})
          for (int64_t c = 0; c < g64.dx.cols; ++c) CHECK(g64.dx(t, c) == 0.0);
        ++checked;
      }
    }
  }
  CHECK(checked >= 5);
}

TEST_CASE("a batch longer than the kernels take in one go runs in groups of sequences",
          "[plugin][batch]") {
  // The bundled kernels take about 1024 tokens of a batch at a time: 5 sequences of 400 go as
  // groups of 2, 2 and 1, the last group padded to one token and a group with its padding
  // inside. Z alone and with A, ungrouped and grouped-query heads, causal and not.
  std::mt19937_64 rng(20261213);
  const auto& cat = test::bundled_catalog();
  for (const char* id : {"multi-head", "parameter-free"}) {
    const core::VariantRef ref = core::find_variant(cat, id);
    const uint64_t caps = ref.variant->capabilities;
    const bool projected = caps & AWB_CAP_QKV;
    for (bool causal : {false, true}) {
      const ProblemSpec p = batched_problem(rng, 5, 400, {400, 123, 400, 7, 1}, projected ? 4 : 1,
                                            projected ? 2 : 0, projected, causal);
      INFO(id << " causal " << causal);
      for (bool want_a : {false, true}) check_forward(ref, caps, p, want_a, false);
    }
  }
}

TEST_CASE("a padded batch's forward then its backward on one instance", "[plugin][batch]") {
  // A training step as the bench takes it: Z alone (what a backward may reuse is kept), the
  // forwards of every sequence and then the backward of each, so that the instance last ran the
  // shortest sequence's forward when the first backward comes. Twice in each type: the second
  // step's forwards are those of an instance that has seen a backward.
  std::mt19937_64 rng(20261211);
  const auto& cat = test::bundled_catalog();
  for (const char* id : {"qkv", "multi-head", "causal"}) {
    const core::VariantRef ref = core::find_variant(cat, id);
    core::VariantInstance instance(ref.plugin->library, *ref.variant);
    const bool causal = std::string(id) == "causal";
    ProblemSpec p = test::random_problem(rng, 80, 8, 1, 8, true, causal);
    p.batch = 2;
    p.lengths = {40, 20};
    if (!(ref.variant->capabilities & AWB_CAP_OUTPUT_PROJ)) p.w_o.reset();
    INFO(id);
    for (Scalar scalar : {Scalar::kF32, Scalar::kF32, Scalar::kF64, Scalar::kF64}) {
      const BackwardSeed up{random_matrix(rng, p.tokens_count(), p.d_out()), {}};
      core::ForwardOptions o;
      o.scalar = scalar;
      o.want_weights = o.want_scores = false;
      const ForwardResult f = core::run_forward(instance.as_raw(), p, o);
      const auto got = core::run_backward(instance.backward_raw(), p, f, up, scalar, {});
      const auto expected = reference::gradients_of(p, up, Scalar::kF64);
      const auto m = grade::gradient_tensors(expected), n = grade::gradient_tensors(got);
      REQUIRE(n.size() == m.size());
      for (size_t i = 0; i < m.size(); ++i) {
        INFO(m[i].first << " in " << to_string(scalar));
        CHECK(grade::within_f64(n[i].second->data, m[i].second->data, {1e-4, 1e-4}));
      }
    }
  }
}

TEST_CASE("the host calls a variant without the batch capability once per sequence",
          "[plugin][batch]") {
  // The reference refusing batches stands for a variant built before SDK 1.3; per_sequence()
  // must give what the reference gives on the whole batch, and weight gradients summed.
  std::mt19937_64 rng(20261208);
  const ProblemSpec p = batched_problem(rng, 3, 5, {5, 2, 4}, 2, 0, true, true);
  const uint64_t caps = caps_for(p);
  const core::RawForward whole = core::reference_forward(caps);
  const core::RawForward refusing = [whole](const awb_problem& q, awb_results& r) {
    if (q.batch > 1 || q.lengths) throw Error("test.batched", "sent a batch");
    whole(q, r);
  };
  core::ForwardOptions o;
  o.scalar = Scalar::kF64;
  test::check_refused([&] { core::run_forward(refusing, p, o); }, "test.batched", "sent a batch");
  CHECK(test::compare_f64(core::run_forward(core::per_sequence(refusing), p, o),
                          core::run_forward(whole, p, o)) == "");

  const BackwardSeed up = random_upstream(rng, p);
  const auto expected = reference::gradients_of(p, up, Scalar::kF64);
  const core::RawBackward whole_back =
      core::reference_backward(caps, reference::BackwardVariation::kExact);
  const core::RawBackward refusing_back = [whole_back](const awb_problem& q, const awb_results& f,
                                                       const awb_tensor& dz, const awb_tensor* da,
                                                       awb_gradients& g) {
    if (q.batch > 1 || q.lengths) throw Error("test.batched", "sent a batch");
    whole_back(q, f, dz, da, g);
  };
  const ForwardResult f = core::run_forward(whole, p, o);
  const LayerGradients got =
      core::run_backward(core::per_sequence(refusing_back), p, f, up, Scalar::kF64, {});
  const auto m = grade::gradient_tensors(expected), n = grade::gradient_tensors(got);
  REQUIRE(n.size() == m.size());
  for (size_t i = 0; i < m.size(); ++i) {
    INFO(m[i].first);
    CHECK(grade::within_f64(n[i].second->data, m[i].second->data, {1e-12, 1e-12}));
  }
}

TEST_CASE("a plugin built against SDK 1.0 runs a padded batch, one sequence per call",
          "[plugin][batch][runner]") {
  const core::Catalog cat = core::load_catalog({AWB_TEST_SDK_1_0_DIR});
  REQUIRE(cat.failures.empty());
  const core::VariantRef ref = core::find_variant(cat, "old-attention");
  REQUIRE((ref.variant->capabilities & AWB_CAP_BATCH) == 0);
  std::mt19937_64 rng(20261209);
  const ProblemSpec p = batched_problem(rng, 2, 6, {6, 4}, 1, 0, false, false);
  core::VariantSubject subject(ref, {});
  const RunOutput got = subject.run(single_layer(p), Scalar::kF64);
  const auto expected = test::run_reference(caps_for(p), p, Scalar::kF64);
  REQUIRE(got.layers.size() == 1);
  CHECK(test::compare_f64(got.layers[0].result, expected) == "");
}

TEST_CASE("a batch's shape rules name what is wrong", "[batch][problem]") {
  std::mt19937_64 rng(20261210);
  ProblemSpec p = test::random_problem(rng, 6, 4, 1, 2, false, false);
  p.batch = 4;
  test::check_refused([&] { validate(p); }, "problem.shape", "batch must be at least 1 and divide");
  p.batch = 2;
  p.lengths = {3};
  test::check_refused([&] { validate(p); }, "problem.shape", "1 lengths for 2 sequences");
  p.lengths = {3, 4};
  test::check_refused([&] { validate(p); }, "problem.shape", "lengths[1] is 4");
  p.lengths = {3, 0};
  test::check_refused([&] { validate(p); }, "problem.shape", "lengths[1] is 0");
  p.lengths = {3, 1};
  CHECK_NOTHROW(validate(p));
  CHECK(p.sequence_tokens() == 3);
  CHECK(p.planes() == 2);
}
