// research_variants.tests.cpp: the bundled sliding-window and linear variants against their plain
// loop references, on randomised problems around every block and tile edge of their kernels.
#include <catch2/catch.hpp>

#include "unit/variant_harness.hpp"

using namespace awb;
using test::kF32Tolerance;
using test::kF64Tolerance;
using test::mismatch;
using test::Output;
using test::Spec;
using test::Want;
using Kind = VariantKind;

namespace {

const awb_variant& sliding_window() {
  return test::bundled_variant("awb_sliding_window", "sliding-window");
}
const awb_variant& linear() { return test::bundled_variant("awb_linear", "linear"); }

// Heads and W_o, cycled over the cases: one head, heads with and without W_o.
struct Heads {
  int64_t heads;
  bool with_wo;
};
constexpr Heads kHeads[] = {{1, false}, {2, true}, {3, false}, {2, false}, {1, true}};
// The materialised outputs, cycled likewise: the kernel has a branch for each.
constexpr Want kMaterialised[] = {Want::kBoth, Want::kWeights, Want::kScores};

// Runs the variant in f64 and f32, streaming (Z only) and materialised, against the reference.
void check_against_reference(const awb_variant& v, const Spec& s, Kind kind, int index) {
  const Output ref64 = test::run_reference<double>(s, kind);
  const Output ref32 = test::run_reference<float>(s, kind);
  // The f32 tolerance holds for the reference itself.
  CHECK(mismatch(ref32, ref64, kF32Tolerance) == "");
  for (Want want : {Want::kZ, kMaterialised[index % 3]}) {
    INFO("want " << static_cast<int>(want));
    CHECK(mismatch(test::run_plugin<double>(v, s, want), ref64, kF64Tolerance) == "");
    CHECK(mismatch(test::run_plugin<float>(v, s, want), ref64, kF32Tolerance) == "");
  }
}

}  // namespace

TEST_CASE("sliding-window attention agrees with its reference", "[plugin][research][random]") {
  // Block sizes: 16 rows for windows up to 16, the window up to 128, then 128; key tiles of 512.
  // The sizes sit on each side of those edges, and at 3B + 2.
  std::mt19937_64 rng(20261201);
  const int64_t windows[] = {0, 1, 3, 17, 64, 300, 1 << 20};
  const int64_t sizes[] = {1, 2, 15, 16, 17, 50, 53, 63, 64, 65, 127, 128, 129, 386, 600};
  int index = 0;
  for (int64_t window : windows) {
    for (int64_t tokens : sizes) {
      for (bool causal : {false, true}) {
        const Heads h = kHeads[index % 5];
        Spec s = test::random_spec(rng, tokens, h.heads, causal, h.with_wo);
        s.params = {{"window", double(window)}};
        s.threads = tokens > 256 ? 2 : 0;
        INFO("window " << window << " T " << tokens << " causal " << causal << " heads " << h.heads
                       << " W_o " << h.with_wo);
        check_against_reference(sliding_window(), s, Kind::kSlidingWindow, index++);
      }
    }
  }
}

TEST_CASE("a window of T - 1 or more is softmax attention", "[plugin][reference][research]") {
  std::mt19937_64 rng(31);
  for (int64_t tokens : {1, 5, 40, 129, 600}) {
    for (int64_t window : {tokens - 1, tokens + 7, int64_t(1) << 20}) {
      for (bool causal : {false, true}) {
        Spec s = test::random_spec(rng, tokens, 2, causal, true);
        s.params = {{"window", double(window)}};
        INFO("T " << tokens << " window " << window << " causal " << causal);
        const Output softmax = test::run_reference<double>(s, Kind::kQkv);
        CHECK(mismatch(test::run_reference<double>(s, Kind::kSlidingWindow), softmax, 1e-14) == "");
        CHECK(mismatch(test::run_plugin<double>(sliding_window(), s, Want::kBoth), softmax,
                       kF64Tolerance) == "");
        CHECK(mismatch(test::run_plugin<double>(sliding_window(), s, Want::kZ), softmax,
                       kF64Tolerance) == "");
        // A narrower window is not (the comparison can tell them apart).
        if (tokens > 2) {
          s.params = {{"window", double(tokens - 2)}};
          CHECK(mismatch(test::run_plugin<double>(sliding_window(), s, Want::kBoth), softmax,
                         kF64Tolerance) != "");
        }
      }
    }
  }
}

TEST_CASE("sliding-window weights: rows sum to 1, exactly 0 outside the band",
          "[plugin][research]") {
  std::mt19937_64 rng(32);
  for (int64_t window : {0, 1, 3, 40}) {
    for (bool causal : {false, true}) {
      const int64_t T = 150, H = 2;
      Spec s = test::random_spec(rng, T, H, causal, false);
      s.params = {{"window", double(window)}};
      const Output streamed = test::run_plugin<double>(sliding_window(), s, Want::kZ);
      for (bool f32 : {false, true}) {
        const Output o = f32 ? test::run_plugin<float>(sliding_window(), s, Want::kBoth)
                             : test::run_plugin<double>(sliding_window(), s, Want::kBoth);
        INFO("window " << window << " causal " << causal << " f32 " << f32);
        int bad_sum = 0, leaked = 0;
        for (int64_t h = 0; h < H; ++h)
          for (int64_t t = 0; t < T; ++t) {
            double sum = 0;
            for (int64_t t2 = 0; t2 < T; ++t2) {
              const double a = o.a[(h * T + t) * T + t2];
              const bool visible = std::abs(t - t2) <= window && (!causal || t2 <= t);
              if (!visible && a != 0.0) ++leaked;
              sum += a;
            }
            if (std::abs(sum - 1) > (f32 ? 1e-5 : 1e-13)) ++bad_sum;
          }
        CHECK(bad_sum == 0);
        CHECK(leaked == 0);
        // The streaming path's Z is the materialised one's.
        if (!f32) CHECK(test::diff(streamed.z, o.z).max_error < 1e-13);
      }
    }
  }
}

TEST_CASE("sliding-window: the default window, the declared parameter, a bad value",
          "[plugin][research][params]") {
  const awb_variant& v = sliding_window();
  const auto declared = reference::parameters(Family::kSlidingWindow);
  REQUIRE(v.n_params == 1);
  REQUIRE(declared.size() == 1);
  CHECK(std::string(v.params[0]->name) == declared[0]->name);
  CHECK(v.params[0]->type == declared[0]->type);
  CHECK(v.params[0]->default_value == declared[0]->default_value);
  CHECK(v.params[0]->min_value == declared[0]->min_value);
  CHECK(v.params[0]->max_value == declared[0]->max_value);
  CHECK(v.params[0]->default_value == 2);
  CHECK(std::string(v.params[0]->doc) == "keys each query sees on either side");

  std::mt19937_64 rng(33);
  Spec s = test::random_spec(rng, 20, 1, false, false);
  const Output by_default = test::run_plugin<double>(v, s, Want::kBoth);
  CHECK(mismatch(by_default, test::run_reference<double>(s, Kind::kSlidingWindow), 1e-12) == "");
  s.params = {{"window", 2}};
  CHECK(mismatch(by_default, test::run_reference<double>(s, Kind::kSlidingWindow), 1e-12) == "");
  s.params = {{"window", -1}};
  CHECK_THROWS_WITH(test::run_plugin<double>(v, s, Want::kZ), Catch::Contains("window"));
  CHECK_THROWS_AS(test::run_reference<double>(s, Kind::kSlidingWindow), std::invalid_argument);
}

TEST_CASE("linear attention agrees with its reference", "[plugin][research][random]") {
  // Causal blocks of 64 queries, others of 256; sizes on each side of both and at 3B + 2.
  std::mt19937_64 rng(20261202);
  const int64_t sizes[] = {1, 2, 63, 64, 65, 194, 255, 256, 257, 770};
  int index = 0;
  for (int map = 0; map < 2; ++map) {
    for (int64_t tokens : sizes) {
      for (bool causal : {false, true}) {
        const Heads h = kHeads[index % 5];
        Spec s = test::random_spec(rng, tokens, h.heads, causal, h.with_wo);
        s.params = {{"feature_map", double(map)}};
        s.threads = tokens > 256 ? 2 : 0;
        s.sharpness = index % 2 ? 1.0 : 2.5;
        INFO("map " << map << " T " << tokens << " causal " << causal << " heads " << h.heads
                    << " W_o " << h.with_wo);
        check_against_reference(linear(), s, Kind::kLinear, index++);
      }
    }
  }
}

TEST_CASE("linear attention: an all-negative relu row gets no weight and a zero output",
          "[plugin][research]") {
  std::mt19937_64 rng(34);
  for (bool causal : {false, true}) {
    for (bool with_wo : {false, true}) {
      const int64_t T = 70, C = 12;  // row 66 lies in the second causal block
      Spec s = test::random_spec(rng, T, 2, causal, with_wo, C);
      s.params = {{"feature_map", 1}};
      // W_q ≥ 0 and rows 5 and 66 of X ≤ 0: those queries are ≤ 0, and relu maps them to 0.
      for (auto& w : s.w_q) w = std::abs(w);
      for (int64_t row : {5, 66})
        for (int64_t c = 0; c < C; ++c) s.x[row * C + c] = -std::abs(s.x[row * C + c]) - 0.1;
      const int64_t out = with_wo ? s.d_out : 2 * s.d_v;
      for (Want want : {Want::kZ, Want::kBoth}) {
        const Output o64 = test::run_plugin<double>(linear(), s, want);
        const Output o32 = test::run_plugin<float>(linear(), s, want);
        const Output ref = test::run_reference<double>(s, Kind::kLinear);
        INFO("causal " << causal << " W_o " << with_wo << " want " << static_cast<int>(want));
        for (const Output* o : {&o64, &o32, &ref}) {
          for (int64_t row : {5, 66}) {
            for (int64_t c = 0; c < out; ++c) CHECK(o->z[row * out + c] == 0.0);
            if (!o->a.empty())
              for (int64_t h = 0; h < 2; ++h)
                for (int64_t t2 = 0; t2 < T; ++t2) CHECK(o->a[(h * T + row) * T + t2] == 0.0);
          }
        }
        CHECK(mismatch(o64, ref, kF64Tolerance) == "");
        CHECK(mismatch(o32, ref, kF32Tolerance) == "");
      }
    }
  }
}

TEST_CASE("linear weights: rows sum to 1 up to epsilon, masked entries exactly 0",
          "[plugin][research]") {
  std::mt19937_64 rng(35);
  for (bool causal : {false, true}) {
    const int64_t T = 130, H = 2;
    Spec s = test::random_spec(rng, T, H, causal, false);
    s.params = {{"feature_map", 0}};
    const Output o = test::run_plugin<double>(linear(), s, Want::kBoth);
    const Output streamed = test::run_plugin<double>(linear(), s, Want::kZ);
    int bad_sum = 0, leaked = 0, negative = 0;
    for (int64_t h = 0; h < H; ++h)
      for (int64_t t = 0; t < T; ++t) {
        double sum = 0;
        for (int64_t t2 = 0; t2 < T; ++t2) {
          const double a = o.a[(h * T + t) * T + t2];
          if (causal && t2 > t && a != 0.0) ++leaked;
          if (a < 0) ++negative;
          sum += a;
        }
        // Σ A = ΣS / (ΣS + ε): below 1 by ε / (ΣS + ε); elu + 1 keeps every score positive.
        if (sum > 1 + 1e-14 || sum < 1 - 1e-4) ++bad_sum;
      }
    CHECK(bad_sum == 0);
    CHECK(leaked == 0);
    CHECK(negative == 0);
    CHECK(test::diff(streamed.z, o.z).max_error < 1e-12);
  }
}

TEST_CASE("linear: the declared feature map, its default and its choices",
          "[plugin][research][params]") {
  const awb_variant& v = linear();
  const auto declared = reference::parameters(Family::kLinear);
  REQUIRE(v.n_params == 1);
  REQUIRE(declared.size() == 1);
  const awb_param_decl& p = *v.params[0];
  CHECK(std::string(p.name) == "feature_map");
  CHECK(std::string(p.name) == declared[0]->name);
  CHECK(p.type == AWB_PARAM_ENUM);
  CHECK(declared[0]->type == AWB_PARAM_ENUM);
  CHECK(p.default_value == 0);
  CHECK(declared[0]->default_value == 0);
  REQUIRE(p.n_choices == 2);
  REQUIRE(declared[0]->n_choices == 2);
  for (size_t i = 0; i < 2; ++i) CHECK(std::string(p.choices[i]) == declared[0]->choices[i]);
  CHECK(std::string(p.choices[0]) == "elu+1");
  CHECK(std::string(p.choices[1]) == "relu");
  CHECK(reference::parameters(Family::kSoftmax).empty());

  std::mt19937_64 rng(36);
  Spec s = test::random_spec(rng, 9, 1, true, false);
  const Output by_default = test::run_plugin<double>(v, s, Want::kBoth);
  s.params = {{"feature_map", 0}};
  CHECK(mismatch(by_default, test::run_reference<double>(s, Kind::kLinear), 1e-12) == "");
  s.params = {{"feature_map", 1}};
  CHECK(test::diff(by_default.z, test::run_plugin<double>(v, s, Want::kZ).z).max_error > 1e-6);
  s.params = {{"feature_map", 2}};
  CHECK_THROWS(test::run_plugin<double>(v, s, Want::kZ));
  CHECK_THROWS_AS(test::run_reference<double>(s, Kind::kLinear), std::invalid_argument);
}

TEST_CASE("research variants: one instance, repeated calls of other sizes", "[plugin][research]") {
  std::mt19937_64 rng(37);
  for (const awb_variant* v : {&sliding_window(), &linear()}) {
    void* instance = nullptr;
    char error[256] = "";
    REQUIRE(v->create(v, &instance, error, sizeof error) == AWB_OK);
    Spec big = test::random_spec(rng, 300, 2, true, true),
         small = test::random_spec(rng, 7, 2, false, false);
    auto call = [&](const Spec& s) {
      return test::run_with<double>(s, Want::kZ, [&](const awb_problem& p, awb_results& r) {
        REQUIRE(v->forward(instance, &p, &r, error, sizeof error) == AWB_OK);
      });
    };
    const Output first = call(big);
    call(small);
    CHECK(call(big).z == first.z);
    v->destroy(instance);
  }
}
