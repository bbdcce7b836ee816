// backward.tests.cpp: the reference backward against central finite differences, and every
// bundled variant's backward against the reference.
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/plugins/subjects.hpp"
#include "graders/checks/finite_difference.hpp"
#include "graders/reference/reference_gradients.hpp"
#include "graders/tolerance/tolerance.hpp"
#include "support/test_support.hpp"

using namespace awb;

using test::random_upstream;

TEST_CASE("the reference backward agrees with central finite differences",
          "[reference][gradient]") {
  std::mt19937_64 rng(8);
  struct Case {
    bool projected, causal, with_wo;
    int heads;
    ScaleMode scale;
  };
  const Case cases[] = {{false, false, false, 1, ScaleMode::kNone},
                        {false, true, false, 1, ScaleMode::kInvSqrtDk},
                        {true, false, false, 1, ScaleMode::kInvSqrtDk},
                        {true, true, true, 2, ScaleMode::kInvSqrtDk},
                        {true, false, true, 3, ScaleMode::kNone}};
  for (const Case& c : cases) {
    ProblemSpec p = test::random_problem(rng, 5, 4, c.heads, 3, c.projected, c.causal);
    if (!c.with_wo) p.w_o.reset();
    p.scale = c.scale;
    const BackwardSeed up = random_upstream(rng, p);
    const LayerGradients g = reference::gradients_of(p, up, Scalar::kF64);
    const auto probes = grade::finite_difference_probes(
        p, up, g, [](const ProblemSpec& q) { return reference::forward_of(q, Scalar::kF64); },
        1000);
    size_t expected_probes = p.x.data.size();
    for (const auto* w : {&p.w_q, &p.w_k, &p.w_v, &p.w_o})
      if (*w) expected_probes += (*w)->data.size();
    INFO("projected=" << c.projected << " causal=" << c.causal << " heads=" << c.heads);
    CHECK(probes.size() == expected_probes);  // every entry of every input
    for (const auto& pr : probes) {
      INFO(pr.tensor << "[" << pr.row << "][" << pr.col << "] analytic " << pr.analytic
                     << " numeric " << pr.numeric);
      CHECK(pr.agrees);
    }
  }
}

TEST_CASE("a mistaken backward disagrees with finite differences", "[reference][gradient]") {
  std::mt19937_64 rng(9);
  ProblemSpec p = test::random_problem(rng, 4, 3, 1, 2, true, true);
  const BackwardSeed up = random_upstream(rng, p);
  for (auto v :
       {reference::BackwardVariation::kNoSoftmaxCorrection, reference::BackwardVariation::kNoScale,
        reference::BackwardVariation::kNoCausalMask}) {
    const LayerGradients g = reference::gradients_of(p, up, Scalar::kF64, v);
    const auto probes = grade::finite_difference_probes(
        p, up, g, [](const ProblemSpec& q) { return reference::forward_of(q, Scalar::kF64); });
    CHECK(std::any_of(probes.begin(), probes.end(), [](const auto& pr) { return !pr.agrees; }));
  }
}

TEST_CASE("bundled variants' backward matches the reference", "[plugin][gradient][random]") {
  std::mt19937_64 rng(20261130);
  int checked = 0;
  for (const auto& plugin : test::bundled_catalog().plugins) {
    for (const auto& variant : plugin.variants) {
      // The research variants have no backward pass (nor a reference one).
      if (variant.id == "sliding-window" || variant.id == "linear") continue;
      const uint64_t caps = variant.capabilities;
      core::VariantSubject subject({&plugin, &variant}, {});
      REQUIRE(!subject.cannot_backward());
      for (int64_t tokens : {1, 6, 70}) {  // 70: more rows than one kernel block
        for (bool causal : {false, true}) {
          if (causal && !(caps & AWB_CAP_CAUSAL)) continue;
          if (!causal && (caps & AWB_CAP_CAUSAL_ONLY)) continue;
          const bool projected = caps & AWB_CAP_QKV;
          const int heads = (caps & AWB_CAP_MULTI_HEAD) ? 2 : 1;
          ProblemSpec p = test::random_problem(rng, tokens, 5, heads, 3, projected, causal);
          if (!(caps & AWB_CAP_OUTPUT_PROJ)) p.w_o.reset();
          const BackwardSeed up = random_upstream(rng, p);
          INFO(variant.id << " T=" << tokens << " causal=" << causal);
          test::check_backward(subject, p, up);
          ++checked;
        }
      }
    }
  }
  CHECK(checked >= 12);
}

// The rounding bound of an f32 backward (attention_backward_rounding_bound) holds the f32
// reference and the bundled kernels' f32 gradients, which sum in other orders and fuse
// multiply-adds where the CPU can, on every entry; and it stays far below the error of each
// classic mistake, so that no mistaken backward passes in f32 for being within it.
TEST_CASE("the f32 rounding bound holds every correct f32 backward and no mistaken one",
          "[reference][gradient][random]") {
  std::mt19937_64 rng(20261202);
  const core::Catalog& catalog = test::bundled_catalog();
  const auto plugin = std::find_if(catalog.plugins.begin(), catalog.plugins.end(), [](auto& pl) {
    return std::any_of(pl.variants.begin(), pl.variants.end(),
                       [](auto& v) { return v.id == "multi-head"; });
  });
  REQUIRE(plugin != catalog.plugins.end());
  const auto variant = std::find_if(plugin->variants.begin(), plugin->variants.end(),
                                    [](auto& v) { return v.id == "multi-head"; });
  core::VariantSubject subject({&*plugin, &*variant}, {});
  int index = 0;
  for (int64_t tokens : {1, 3, 17, 70}) {
    for (bool causal : {false, true}) {
      ProblemSpec p = test::random_problem(rng, tokens, 6, 1 + index % 3, 4, true, causal);
      if (index % 2) p.w_o.reset();
      ++index;
      const BackwardSeed up = random_upstream(rng, p);
      const auto e64 = reference::gradients_of(p, up, Scalar::kF64);
      const auto e32 = reference::gradients_of(p, up, Scalar::kF32);
      const auto g32 = subject.backward(p, up, Scalar::kF32);
      const auto bound = reference::f32_rounding_bounds(p, up);
      const auto m64 = grade::gradient_tensors(e64), m32 = grade::gradient_tensors(e32),
                 n32 = grade::gradient_tensors(g32), b = grade::gradient_tensors(bound);
      REQUIRE(b.size() == m64.size());
      double largest_bound = 0, largest_value = 0;
      for (size_t i = 0; i < m64.size(); ++i) {
        INFO("T " << tokens << " causal " << causal << " " << m64[i].first);
        for (size_t j = 0; j < m64[i].second->data.size(); ++j) {
          const double exact = m64[i].second->data[j], allowed = b[i].second->data[j];
          CHECK(std::fabs(m32[i].second->data[j] - exact) <= allowed);
          CHECK(std::fabs(n32[i].second->data[j] - exact) <= allowed);
          largest_bound = std::max(largest_bound, allowed);
          largest_value = std::max(largest_value, std::fabs(exact));
        }
      }
      // A worst case: every sum's terms taken in absolute value, through the whole chain. On
      // these problems it came to 0.5–2 % of the largest gradient, hundreds of times the f32
      // error actually made; still below what each mistake changes (below).
      CHECK(largest_bound < 0.05 * largest_value);
      // One token leaves the softmax nothing to get wrong (its weight is 1 whatever the scores).
      if (tokens == 1) continue;
      for (auto v : {reference::BackwardVariation::kNoSoftmaxCorrection,
                     reference::BackwardVariation::kNoScale}) {
        // gradient_tensors() points into its argument: the gradients must outlive `wrong`.
        const auto wrong_gradients = reference::gradients_of(p, up, Scalar::kF64, v);
        const auto wrong = grade::gradient_tensors(wrong_gradients);
        bool caught = false;
        for (size_t i = 0; i < m64.size(); ++i)
          for (size_t j = 0; j < m64[i].second->data.size(); ++j)
            caught |=
                std::fabs(wrong[i].second->data[j] - m64[i].second->data[j]) > b[i].second->data[j];
        INFO("T " << tokens << " causal " << causal << " mistake " << static_cast<int>(v));
        CHECK(caught);
      }
    }
  }
}
