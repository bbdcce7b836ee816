// compare.tests.cpp: the attention statistics on hand-made rows, demonstration fitting, and
// bundled variants compared on the bundled exercises.
#include "core/compare/compare.hpp"

#include <catch2/catch.hpp>
#include <cmath>

#include "core/compare/compare_metrics.hpp"
#include "core/grading/subject_factory.hpp"
#include "support/test_support.hpp"

using namespace awb;
using Catch::Matchers::WithinAbs;
using test::rows;

namespace {

const core::ExerciseSet& exercises() {
  static const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  return set;
}

}  // namespace

TEST_CASE("row entropy is ln n for a uniform row and 0 for a one-hot row", "[compare]") {
  CHECK_THAT(core::mean_row_entropy({rows({{0.25, 0.25, 0.25, 0.25}})}),
             WithinAbs(std::log(4.0), 1e-15));
  CHECK_THAT(core::mean_row_entropy({rows({{0, 1, 0, 0}})}), WithinAbs(0.0, 0.0));
  // Causal first row (one visible key) and a half/half row: mean of 0 and ln 2.
  CHECK_THAT(core::mean_row_entropy({rows({{1, 0}, {0.5, 0.5}})}),
             WithinAbs(std::log(2.0) / 2, 1e-15));
}

TEST_CASE("argmax agreement counts rows with the same top key over paired heads", "[compare]") {
  const Matrix a = rows({{0.7, 0.2, 0.1}, {0.1, 0.8, 0.1}, {0.2, 0.3, 0.5}});
  const Matrix b = rows({{0.6, 0.3, 0.1}, {0.5, 0.4, 0.1}, {0.1, 0.1, 0.8}});
  CHECK_THAT(core::argmax_agreement({a}, {b}), WithinAbs(2.0 / 3.0, 1e-15));
  CHECK_THAT(core::max_abs_difference({a}, {b}), WithinAbs(0.4, 1e-15));
  // One head against two: only head 0 is paired.
  CHECK_THAT(core::argmax_agreement({a}, {a, b}), WithinAbs(1.0, 0.0));
  CHECK(std::isnan(core::max_abs_difference({a}, {rows({{1.0}})})));
}

TEST_CASE("a single-head variant takes head 0 of a multi-head exercise without W_o", "[compare]") {
  const auto& ex = core::find_exercise(exercises(), "multi-head");
  const RunInput in = core::case_input(ex);
  REQUIRE(in.params.heads == 2);
  std::vector<std::string> notes;
  const RunInput fitted = core::demonstration_input(in, AWB_CAP_F64 | AWB_CAP_QKV | AWB_CAP_CAUSAL,
                                                    Scalar::kF64, &notes);
  CHECK(fitted.params.heads == 1);
  CHECK(fitted.layers[0].w_q->cols == in.layers[0].w_q->cols / 2);
  CHECK_FALSE(fitted.layers[0].w_o);
  REQUIRE(notes.size() == 1);
  CHECK(notes[0].find("head 0 of 2") != std::string::npos);
  CHECK_THROWS_WITH(core::demonstration_input(in, AWB_CAP_F32 | AWB_CAP_QKV, Scalar::kF64),
                    Catch::Contains("does not support f64"));
}

TEST_CASE("parameter-free and Q/K/V compared on river-bank", "[compare][plugin]") {
  const auto& ex = core::find_exercise(exercises(), "river-bank");
  const auto& cat = test::bundled_catalog();
  const auto pf = core::find_variant(cat, "parameter-free");
  const auto qkv = core::find_variant(cat, "qkv");
  auto pf_subject = core::make_subject(pf);
  auto qkv_subject = core::make_subject(qkv);
  const core::Comparison c =
      core::compare_variants(core::case_input(ex), ex.reference_capabilities,
                             {{"parameter-free", pf.variant->capabilities, pf_subject.get()},
                              {"qkv", qkv.variant->capabilities, qkv_subject.get()}});
  REQUIRE(c.entries.size() == 2);
  const auto& p = c.entries[0];
  const auto& q = c.entries[1];
  REQUIRE(p.error.empty());
  REQUIRE(q.error.empty());
  // Both are right about what they ran.
  CHECK(p.metrics.max_abs_error < 1e-12);
  CHECK(q.metrics.max_abs_error < 1e-12);
  // Q/K/V is the exercise's own variant: no difference from its reference.
  CHECK(q.metrics.max_abs_diff < 1e-12);
  CHECK(q.metrics.argmax_agreement == 1.0);
  CHECK_THAT(q.metrics.row_entropy, WithinAbs(c.reference_entropy, 1e-12));
  // Parameter-free ignored the weights, so its weights differ from the reference's.
  REQUIRE(p.notes.size() == 1);
  CHECK(p.notes[0].find("weights are ignored") != std::string::npos);
  CHECK(p.metrics.max_abs_diff > 1e-3);
  const int64_t t = c.reference.layers.back().result.weights[0].rows;
  CHECK(p.metrics.row_entropy > 0);
  CHECK(p.metrics.row_entropy <= std::log(static_cast<double>(t)) + 1e-12);
}

TEST_CASE("a variant that cannot run is reported, not thrown", "[compare][plugin]") {
  const auto& ex = core::find_exercise(exercises(), "journey");
  const auto& cat = test::bundled_catalog();
  const auto qkv = core::find_variant(cat, "qkv");
  auto subject = core::make_subject(qkv);
  const auto c = core::compare_variants(core::case_input(ex), ex.reference_capabilities,
                                        {{"qkv", qkv.variant->capabilities, subject.get()}});
  REQUIRE(c.entries.size() == 1);
  CHECK(c.entries[0].error.find("needs W_q") != std::string::npos);
}

TEST_CASE("single-head qkv on the multi-head exercise: head 0 paired, head 1 said unpaired",
          "[compare][plugin]") {
  const auto& ex = core::find_exercise(exercises(), "multi-head");
  const auto& cat = test::bundled_catalog();
  const auto qkv = core::find_variant(cat, "qkv");
  const auto mh = core::find_variant(cat, "multi-head");
  auto qkv_subject = core::make_subject(qkv);
  auto mh_subject = core::make_subject(mh);
  const auto c =
      core::compare_variants(core::case_input(ex), ex.reference_capabilities,
                             {{"qkv", qkv.variant->capabilities, qkv_subject.get()},
                              {"multi-head", mh.variant->capabilities, mh_subject.get()}});
  REQUIRE(c.entries.size() == 2);
  const auto& ref = c.reference.layers.back();
  const auto single =
      core::compare_layer(c.entries[0].output.layers.back(), ref, std::nullopt, 3, "reference");
  CHECK(single.pairing_note == "variant has 1 head, reference 2: head 1 unpaired");
  REQUIRE(single.heads.size() == 1);
  CHECK(single.heads[0].js_max < 1e-12);
  // Its entropy is head 0's, not the two heads' mean the old single number mixed it with.
  CHECK_THAT(single.heads[0].entropy, WithinAbs(single.heads[0].baseline_entropy, 1e-12));
  CHECK(std::isnan(single.z_error));  // no W_o: Z is d_v wide, the reference's d_model

  const auto both =
      core::compare_layer(c.entries[1].output.layers.back(), ref, std::nullopt, 3, "reference");
  CHECK(both.pairing_note.empty());
  REQUIRE(both.heads.size() == 2);
  CHECK(both.pooled.rows == 2 * ref.result.weights[0].rows);
  CHECK(both.pooled.js_max < 1e-12);
  CHECK(both.z_error < 1e-12);
  CHECK_THAT(both.pooled.baseline_entropy,
             WithinAbs(core::mean_row_entropy(ref.result.weights), 1e-12));
}
