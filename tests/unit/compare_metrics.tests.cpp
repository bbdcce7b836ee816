// compare_metrics.tests.cpp: row divergences on hand-computed rows, per-head and pooled metrics,
// head pairing, and the .npy and CSV matrix files.
#include "core/compare/compare_metrics.hpp"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <vector>

#include "core/compare/matrix_export.hpp"
#include "support/test_support.hpp"

using namespace awb;
using Catch::Matchers::WithinAbs;
using test::rows;
using Row = std::vector<double>;

namespace {

LayerRun layer(std::vector<Matrix> weights, Matrix z) {
  LayerRun l;
  l.result.weights = std::move(weights);
  l.result.z = std::move(z);
  return l;
}

}  // namespace

TEST_CASE("head entropy: ln n for uniform rows, 0 for one-hot, 0 ln 0 = 0", "[compare]") {
  const Matrix uniform = rows({{0.2, 0.2, 0.2, 0.2, 0.2}});
  CHECK_THAT(core::head_metrics(uniform, uniform, 1).entropy, WithinAbs(std::log(5.0), 1e-15));
  const Matrix masked = rows({{0, 1, 0}, {0.5, 0.5, 0}});
  const auto m = core::head_metrics(masked, masked, 1);
  CHECK_THAT(m.entropy, WithinAbs(std::log(2.0) / 2, 1e-15));
  CHECK(m.kl_max == 0.0);  // masked keys in both rows add nothing
  CHECK(m.js_max == 0.0);
}

TEST_CASE("KL of known rows, and a key the variant leaves at 0 makes it infinite", "[compare]") {
  // KL((1/2, 1/2) ‖ (1/4, 3/4)) = ½ ln 2 + ½ ln(2/3).
  CHECK_THAT(core::kl_divergence(Row{0.5, 0.5}, Row{0.25, 0.75}),
             WithinAbs(0.5 * std::log(2.0) + 0.5 * std::log(2.0 / 3.0), 1e-15));
  CHECK(core::kl_divergence(Row{0.3, 0.7}, Row{0.3, 0.7}) == 0.0);
  // A masked key in both rows adds nothing.
  CHECK(core::kl_divergence(Row{1, 0}, Row{1, 0}) == 0.0);
  // q has a key p leaves at 0: finite, ln(1/0.5).
  CHECK_THAT(core::kl_divergence(Row{1, 0}, Row{0.5, 0.5}), WithinAbs(std::log(2.0), 1e-15));
  // p weights a key q gives exactly 0: +infinity, not an epsilon's large number.
  CHECK(std::isinf(core::kl_divergence(Row{0.5, 0.5}, Row{1, 0})));
  CHECK(std::isnan(core::kl_divergence(Row{1}, Row{0.5, 0.5})));
}

TEST_CASE("JS is symmetric, 0 for equal rows and at most ln 2", "[compare]") {
  const Row p{0.7, 0.2, 0.1}, q{0.1, 0.3, 0.6};
  CHECK_THAT(core::js_divergence(p, q), WithinAbs(core::js_divergence(q, p), 1e-16));
  CHECK(core::js_divergence(p, p) == 0.0);
  CHECK(core::js_divergence(p, q) > 0);
  CHECK(core::js_divergence(p, q) < std::log(2.0));
  // Disjoint supports reach the bound, and stay finite where KL is infinite.
  CHECK_THAT(core::js_divergence(Row{1, 0}, Row{0, 1}), WithinAbs(std::log(2.0), 1e-15));
  // By hand: p = (1, 0), q = (1/2, 1/2), m = (3/4, 1/4):
  // ½ ln(4/3) + ½ (½ ln(2/3) + ½ ln 2).
  CHECK_THAT(
      core::js_divergence(Row{1, 0}, Row{0.5, 0.5}),
      WithinAbs(0.5 * std::log(4.0 / 3.0) + 0.5 * (0.5 * std::log(2.0 / 3.0) + 0.5 * std::log(2.0)),
                1e-15));
}

TEST_CASE("top-k overlap counts shared top keys, ties to the lower index", "[compare]") {
  const Row p{0.4, 0.3, 0.2, 0.1}, q{0.1, 0.3, 0.4, 0.2};
  CHECK(core::top_k_overlap(p, q, 1) == 0.0);   // key 0 against key 2
  CHECK(core::top_k_overlap(p, q, 2) == 0.5);   // {0, 1} against {2, 1}
  CHECK(core::top_k_overlap(p, q, 4) == 1.0);   // every key
  CHECK(core::top_k_overlap(p, q, 99) == 1.0);  // k clamped to the row
  CHECK(core::top_k_overlap(Row{0.5, 0.5, 0}, Row{0.2, 0.4, 0.4}, 1) == 0.0);  // key 0 vs key 1
}

TEST_CASE("head metrics: means and maxima over rows, KL(baseline || variant)", "[compare]") {
  const Matrix base = rows({{1, 0}, {0.5, 0.5}});
  const Matrix a = rows({{1, 0}, {0.25, 0.75}});
  const core::HeadMetrics m = core::head_metrics(a, base, 1);
  const double kl1 = 0.5 * std::log(2.0) + 0.5 * std::log(2.0 / 3.0);
  CHECK(m.rows == 2);
  CHECK_THAT(m.max_abs_diff, WithinAbs(0.25, 1e-15));
  CHECK_THAT(m.kl_mean, WithinAbs(kl1 / 2, 1e-15));
  CHECK_THAT(m.kl_max, WithinAbs(kl1, 1e-15));
  CHECK(m.js_mean > 0);
  CHECK_THAT(m.js_max, WithinAbs(2 * m.js_mean, 1e-15));  // row 0 adds 0
  CHECK_THAT(m.baseline_entropy, WithinAbs(std::log(2.0) / 2, 1e-15));
  CHECK(m.argmax_agreement == 0.5);  // row 1: key 0 (tie) against key 1
  CHECK(m.top_k_overlap == 0.5);
  CHECK(core::head_metrics(a, rows({{1.0}}), 1).rows == 0);
  CHECK(std::isnan(core::head_metrics(a, rows({{1.0}}), 1).kl_mean));
}

TEST_CASE("pooled metrics weight heads by their rows", "[compare]") {
  core::HeadMetrics h0, h1;
  h0.rows = 1;
  h1.rows = 3;
  h0.kl_mean = 4, h1.kl_mean = 0;
  h0.kl_max = 4, h1.kl_max = 1;
  h0.max_abs_diff = 0.1, h1.max_abs_diff = 0.3;
  h0.js_mean = h0.js_max = h1.js_mean = h1.js_max = 0;
  h0.entropy = h1.entropy = h0.baseline_entropy = h1.baseline_entropy = 1;
  h0.argmax_agreement = 1, h1.argmax_agreement = 0;
  h0.top_k_overlap = h1.top_k_overlap = 1;
  const auto p = core::pooled_metrics({h0, h1});
  CHECK(p.rows == 4);
  CHECK(p.head == -1);
  CHECK(p.kl_mean == 1.0);
  CHECK(p.kl_max == 4.0);
  CHECK(p.max_abs_diff == 0.3);
  CHECK(p.argmax_agreement == 0.25);
  CHECK(p.entropy == 1.0);
  CHECK(core::pooled_metrics({}).rows == 0);
  CHECK(std::isnan(core::pooled_metrics({}).js_mean));
}

TEST_CASE("every head is paired by index, and unpaired heads are said", "[compare]") {
  const Matrix uniform = rows({{0.5, 0.5}, {0.5, 0.5}});
  const Matrix onehot = rows({{1, 0}, {0, 1}});
  const LayerRun ref = layer({uniform, onehot}, rows({{1, 2}, {3, 4}}));
  const LayerRun single = layer({uniform}, rows({{1, 2}, {3, 6}}));

  const auto c = core::compare_layer(single, ref, std::nullopt, 1, "reference");
  CHECK(c.variant_heads == 1);
  CHECK(c.baseline_heads == 2);
  CHECK(c.pairing_note == "variant has 1 head, reference 2: head 1 unpaired");
  REQUIRE(c.heads.size() == 1);
  CHECK(c.heads[0].head == 0);
  CHECK(c.heads[0].max_abs_diff == 0.0);
  CHECK(c.z_error == 2.0);
  CHECK(c.z_max_abs == 2.0);

  // Two heads against two: a row each and the pooled row over both.
  const LayerRun swapped = layer({onehot, uniform}, rows({{1, 2}, {3, 4}}));
  const auto both = core::compare_layer(swapped, ref, std::nullopt, 1, "reference");
  CHECK(both.pairing_note.empty());
  REQUIRE(both.heads.size() == 2);
  CHECK(std::isinf(both.heads[0].kl_max));  // the one-hot variant drops a key of the uniform row
  CHECK(std::isfinite(both.heads[1].kl_max));
  CHECK(std::isinf(both.pooled.kl_max));
  CHECK(both.pooled.rows == 4);
  CHECK(both.pooled.js_max <= std::log(2.0));
  CHECK(both.z_error == 0.0);

  // One head asked for; an unpaired one gives no row.
  CHECK(core::compare_layer(swapped, ref, 1, 1, "reference").heads.at(0).head == 1);
  CHECK(core::compare_layer(single, ref, 1, 1, "qkv").heads.empty());
  CHECK(core::compare_layer(ref, layer({uniform}, {}), std::nullopt, 1, "qkv").pairing_note ==
        "variant has 2 heads, qkv 1: head 1 unpaired");
  CHECK(std::isnan(core::compare_layer(ref, layer({uniform}, {}), 0, 1, "qkv").z_error));
}

TEST_CASE("an .npy file: version 1.0 header padded to 64 bytes, then the doubles", "[compare]") {
  const Matrix m = rows({{1, 2, 3}, {4, 5, 6}});
  const std::string npy = core::matrix_npy(m);
  REQUIRE(npy.size() > 10);
  CHECK(npy.compare(0, 6, "\x93NUMPY") == 0);
  CHECK(npy[6] == 1);
  CHECK(npy[7] == 0);
  const size_t header = static_cast<unsigned char>(npy[8]) |
                        static_cast<size_t>(static_cast<unsigned char>(npy[9])) << 8;
  CHECK((10 + header) % 64 == 0);
  const std::string dict = npy.substr(10, header);
  CHECK(dict.starts_with("{'descr': '<f8', 'fortran_order': False, 'shape': (2, 3), }"));
  CHECK(dict.back() == '\n');
  REQUIRE(npy.size() == 10 + header + 6 * sizeof(double));
  std::vector<double> back(6);
  std::memcpy(back.data(), npy.data() + 10 + header, 6 * sizeof(double));
  CHECK(back == m.data);
}

TEST_CASE("a matrix CSV has the tokens as headers and exact values", "[compare]") {
  const Matrix m = rows({{0.1, 1.0 / 3.0}, {1, 0}});
  CHECK(core::matrix_csv(m, {"river", "bank, north"}, {"river", "bank, north"}, "query\\key") ==
        "query\\key,river,\"bank, north\"\n"
        "river,0.1,0.3333333333333333\n"
        "\"bank, north\",1,0\n");
  CHECK(core::matrix_csv(rows({{2}}), {}, {}, "") == ",c0\nr0,2\n");
}
