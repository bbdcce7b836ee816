// plugins.tests.cpp: every bundled plugin agrees with the reference on randomised problems.
#include <catch2/catch.hpp>

#include "core/plugins/capabilities.hpp"
#include "support/test_support.hpp"

using namespace awb;

namespace {

// The research variants compute something else than softmax attention over all keys: their own
// references check them (awb_research_variant_tests).
bool is_research_variant(const std::string& id) { return id == "sliding-window" || id == "linear"; }

}  // namespace

TEST_CASE("the bundled variants load under their ids", "[plugin][loader]") {
  const auto& cat = test::bundled_catalog();
  CHECK(cat.failures.empty());
  for (const char* id :
       {"parameter-free", "qkv", "multi-head", "causal", "sliding-window", "linear"}) {
    INFO(id);
    const auto ref = core::find_variant(cat, id);
    CHECK(ref.plugin->bundled);
  }
}

TEST_CASE("bundled plugins agree with the reference kernels", "[plugin][reference][random]") {
  std::mt19937_64 rng(20261129);
  const auto& cat = test::bundled_catalog();
  struct Shape {
    int64_t tokens, d_model;
    int heads;
    int64_t d_k;
  };
  const Shape shapes[] = {{1, 3, 1, 2}, {2, 4, 1, 3}, {6, 3, 2, 2}, {17, 8, 4, 5}, {33, 16, 2, 8}};
  int checked = 0;
  for (const auto& plugin : cat.plugins) {
    for (const auto& variant : plugin.variants) {
      if (is_research_variant(variant.id)) continue;
      const core::VariantRef ref{&plugin, &variant};
      const uint64_t caps = variant.capabilities;
      for (const Shape& s : shapes) {
        for (bool causal : {false, true}) {
          if (causal && !(caps & AWB_CAP_CAUSAL)) continue;
          if (!causal && (caps & AWB_CAP_CAUSAL_ONLY)) continue;
          const bool projected = caps & AWB_CAP_QKV;
          const int heads = (caps & AWB_CAP_MULTI_HEAD) ? s.heads : 1;
          auto problem =
              test::random_problem(rng, s.tokens, s.d_model, heads, s.d_k, projected, causal);
          if (!(caps & AWB_CAP_OUTPUT_PROJ)) problem.w_o.reset();
          INFO(variant.id << " T=" << s.tokens << " d=" << s.d_model << " h=" << heads
                          << " causal=" << causal);
          const auto ref64 = test::run_reference(caps, problem, Scalar::kF64);
          const auto got64 = test::run_variant(ref, problem, Scalar::kF64);
          CHECK(test::compare_f64(got64, ref64) == "");
          const auto ref32 = test::run_reference(caps, problem, Scalar::kF32);
          const auto got32 = test::run_variant(ref, problem, Scalar::kF32);
          CHECK(test::compare_f32(got32, ref32, ref64) == "");
          ++checked;
        }
      }
    }
  }
  CHECK(checked >= 30);
}

TEST_CASE("the streaming and threaded paths agree with the reference", "[plugin][streaming]") {
  // Sizes around the Eigen kernel's 128-row blocks and 512-key tiles, the fused kernel's 64-key
  // panels, 132-row blocks and 256-key tiles (fused_attention.hpp), and T = 1; the larger cases
  // run on two threads.
  std::mt19937_64 rng(4242);
  const auto& cat = test::bundled_catalog();
  const int64_t sizes[] = {1, 2, 65, 127, 128, 129, 133, 257, 300, 511, 513, 700};
  for (const char* id : {"parameter-free", "multi-head", "causal"}) {
    const auto ref = core::find_variant(cat, id);
    const uint64_t caps = ref.variant->capabilities;
    for (int64_t tokens : sizes) {
      for (bool causal : {false, true}) {
        if (!causal && (caps & AWB_CAP_CAUSAL_ONLY)) continue;
        const bool projected = caps & AWB_CAP_QKV;
        const int heads = projected ? 2 : 1;
        const auto problem = test::random_problem(rng, tokens, 16, heads, 8, projected, causal);
        for (bool want_a : {false, true}) {
          for (Scalar scalar : {Scalar::kF64, Scalar::kF32}) {
            INFO(id << " T=" << tokens << " causal=" << causal << " A=" << want_a << " "
                    << to_string(scalar));
            core::ForwardOptions o;
            o.scalar = scalar;
            o.want_weights = want_a;
            o.want_scores = false;
            o.threads = tokens > 256 ? 2 : 0;
            const auto got = test::run_variant(ref, problem, o);
            o.threads = 0;
            const auto r64 = test::run_forward_reference(caps, problem, o, Scalar::kF64);
            if (scalar == Scalar::kF64) {
              CHECK(test::compare_f64(got, r64) == "");
            } else {
              const auto r32 = test::run_forward_reference(caps, problem, o, Scalar::kF32);
              CHECK(test::compare_f32(got, r32, r64) == "");
            }
          }
        }
      }
    }
  }
}

TEST_CASE("repeated calls on one instance give identical results", "[plugin][streaming]") {
  std::mt19937_64 rng(77);
  const auto ref = core::find_variant(test::bundled_catalog(), "multi-head");
  core::VariantInstance inst(ref.plugin->library, *ref.variant);
  const auto big = test::random_problem(rng, 300, 16, 2, 8, true, false);
  const auto small = test::random_problem(rng, 5, 16, 2, 8, true, false);
  core::ForwardOptions o;
  o.want_weights = o.want_scores = false;
  const auto first = core::run_forward(inst.as_raw(), big, o);
  core::run_forward(inst.as_raw(), small, o);  // reuses and resizes the same workspace
  const auto again = core::run_forward(inst.as_raw(), big, o);
  CHECK(first.z.data == again.z.data);
}

TEST_CASE("strict fitting refuses what a variant cannot do", "[capabilities]") {
  std::mt19937_64 rng(7);
  auto multi = test::random_problem(rng, 5, 4, 2, 2, true, false);
  const auto pf =
      core::adapt(multi, AWB_CAP_F64 | AWB_CAP_CAUSAL, Scalar::kF64, core::Fit::kStrict);
  CHECK_FALSE(pf.problem);
  CHECK_THAT(pf.reason, Catch::Contains("parameter-free"));
  const auto single =
      core::adapt(multi, AWB_CAP_F64 | AWB_CAP_QKV, Scalar::kF64, core::Fit::kStrict);
  CHECK_THAT(single.reason, Catch::Contains("lacks the multi-head capability"));
  multi.causal = true;
  const auto nocausal =
      core::adapt(multi, AWB_CAP_F64 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_OUTPUT_PROJ,
                  Scalar::kF64, core::Fit::kStrict);
  CHECK(nocausal.reason == "the variant lacks the causal capability");
  const auto f32only = core::adapt(multi, AWB_CAP_F32, Scalar::kF64, core::Fit::kStrict);
  CHECK(f32only.reason == "the variant does not support f64");
}

TEST_CASE("demonstrate fitting runs a variant on what it understands", "[capabilities]") {
  std::mt19937_64 rng(8);
  const auto multi = test::random_problem(rng, 5, 4, 2, 2, true, false);
  const auto pf = core::adapt(multi, AWB_CAP_F64, Scalar::kF64, core::Fit::kDemonstrate);
  REQUIRE(pf.problem);
  CHECK_FALSE(pf.problem->has_projections());
  const auto single =
      core::adapt(multi, AWB_CAP_F64 | AWB_CAP_QKV, Scalar::kF64, core::Fit::kDemonstrate);
  REQUIRE(single.problem);
  CHECK(single.problem->heads == 1);
  CHECK(single.problem->w_q->cols == 2);
  CHECK_FALSE(single.problem->w_o);
  const auto causal = core::adapt(
      multi, AWB_CAP_F64 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_CAUSAL | AWB_CAP_CAUSAL_ONLY,
      Scalar::kF64, core::Fit::kDemonstrate);
  REQUIRE(causal.problem);
  CHECK(causal.problem->causal);
}

TEST_CASE("a grouped problem runs on a variant without grouped-kv as repeated key/value heads",
          "[capabilities][grouped]") {
  std::mt19937_64 rng(9);
  // Four query heads of width 2 over two key/value heads: W_k and W_v keep two column blocks.
  ProblemSpec grouped = test::random_problem(rng, 7, 5, 4, 2, true, false);
  grouped.kv_heads = 2;
  grouped.w_k = grouped.w_k->column_block(0, 4);
  grouped.w_v = grouped.w_v->column_block(0, 4);
  validate(grouped);
  constexpr uint64_t kHeads = AWB_CAP_F64 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD | AWB_CAP_OUTPUT_PROJ;
  for (core::Fit fit : {core::Fit::kStrict, core::Fit::kDemonstrate}) {
    const auto repeated = core::adapt(grouped, kHeads, Scalar::kF64, fit);
    REQUIRE(repeated.problem);
    const ProblemSpec& p = *repeated.problem;
    CHECK(p.kv_head_count() == 4);
    REQUIRE(p.w_k->cols == 8);
    REQUIRE_FALSE(repeated.notes.empty());
    CHECK_THAT(repeated.notes.front(), Catch::Contains("lacks grouped-kv"));
    // Query heads 0 and 1 read key/value head 0, heads 2 and 3 head 1 (consecutive groups).
    for (int h = 0; h < 4; ++h)
      for (int64_t c = 0; c < 2; ++c)
        for (int64_t r = 0; r < 5; ++r) {
          CHECK((*p.w_k)(r, h * 2 + c) == (*grouped.w_k)(r, h / 2 * 2 + c));
          CHECK((*p.w_v)(r, h * 2 + c) == (*grouped.w_v)(r, h / 2 * 2 + c));
        }
    // The same attention: the reference's outputs agree to the last bits.
    CHECK(test::compare_f64(
              test::run_reference(kHeads, p, Scalar::kF64),
              test::run_reference(kHeads | AWB_CAP_GROUPED_KV, grouped, Scalar::kF64)) == "");
  }
  // A variant that groups is sent the problem as it is.
  const auto as_is =
      core::adapt(grouped, kHeads | AWB_CAP_GROUPED_KV, Scalar::kF64, core::Fit::kStrict);
  REQUIRE(as_is.problem);
  CHECK(as_is.problem->kv_head_count() == 2);
  CHECK(as_is.notes.empty());
}

TEST_CASE("kv_heads must divide heads, and W_k and W_v have one block per key/value head",
          "[capabilities][grouped]") {
  std::mt19937_64 rng(10);
  ProblemSpec p = test::random_problem(rng, 4, 5, 4, 2, true, false);
  p.kv_heads = 3;
  test::check_refused([&] { validate(p); }, "problem.shape", "kv_heads must divide heads");
  // Two key/value heads need W_k and W_v of 2 · d_k columns: 8 are blocks of 4, not of d_k = 2.
  p.kv_heads = 2;
  test::check_refused([&] { validate(p); }, "problem.shape", "one width per head");
  p.w_k = p.w_k->column_block(0, 4);
  p.w_v = p.w_v->column_block(0, 4);
  CHECK_NOTHROW(validate(p));
  CHECK(p.d_v() == 2);
  CHECK(p.d_out() == p.w_o->cols);
  p.w_o.reset();
  CHECK(p.d_out() == 8);  // h · d_v: every query head has an output
}
