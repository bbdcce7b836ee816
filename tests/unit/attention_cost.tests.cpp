// attention_cost.tests.cpp: the bundled variants' cost models ("org.awb.cost/1") against counts
// made by hand for tiny shapes, through each plugin's own extension.
#include "common/attention_cost.hpp"

#include <catch2/catch.hpp>

#include "unit/variant_harness.hpp"

using namespace awb;

namespace {

struct Shape {
  Shape(int64_t tokens_, int64_t d_model_, int64_t heads_, int64_t d_k_, int64_t d_v_,
        int64_t d_out_, bool causal_ = false, bool projected_ = true)
      : tokens(tokens_),
        d_model(d_model_),
        heads(heads_),
        d_k(d_k_),
        d_v(d_v_),
        d_out(d_out_),
        causal(causal_),
        projected(projected_) {}
  int64_t tokens, d_model, heads, d_k, d_v, d_out;  // d_out 0: no W_o
  bool causal, projected;
  awb_scalar scalar = AWB_SCALAR_F64;
  std::vector<awb_param_value> params;
};

// A cost query: tensors with shapes and no data.
awb_cost cost_of(const awb_variant& v, const Shape& s, bool writes_weights) {
  awb_problem p{};
  p.struct_size = sizeof p;
  p.scalar = s.scalar;
  p.n_heads = static_cast<int32_t>(s.heads);
  p.causal = s.causal;
  p.scale_mode = AWB_SCALE_INV_SQRT_DK;
  p.sharpness = 1;
  p.x = test::tensor2(nullptr, s.tokens, s.d_model);
  if (s.projected) {
    p.w_q = test::tensor2(nullptr, s.d_model, s.heads * s.d_k);
    p.w_k = test::tensor2(nullptr, s.d_model, s.heads * s.d_k);
    p.w_v = test::tensor2(nullptr, s.d_model, s.heads * s.d_v);
    if (s.d_out) p.w_o = test::tensor2(nullptr, s.heads * s.d_v, s.d_out);
  }
  p.n_params = s.params.size();
  p.params = s.params.empty() ? nullptr : s.params.data();
  REQUIRE(v.get_extension);
  const auto* ext = static_cast<const awb_cost_ext*>(v.get_extension(&v, AWB_EXT_COST));
  REQUIRE(ext);
  awb_cost c{sizeof(awb_cost), -1, -1};
  char error[256] = "";
  REQUIRE(ext->cost(&v, &p, writes_weights, &c, error, sizeof error) == AWB_OK);
  return c;
}

}  // namespace

TEST_CASE("band pairs are counted exactly", "[cost][research]") {
  // T = 3, window 1: rows see 2, 3, 2 keys; causal 1, 2, 2.
  CHECK(kernels::band_pairs(3, 1, false) == 7);
  CHECK(kernels::band_pairs(3, 1, true) == 5);
  // T = 5, window 2: 3 + 4 + 5 + 4 + 3; causal 1 + 2 + 3 + 3 + 3.
  CHECK(kernels::band_pairs(5, 2, false) == 19);
  CHECK(kernels::band_pairs(5, 2, true) == 12);
  CHECK(kernels::band_pairs(4, 0, false) == 4);
  CHECK(kernels::band_pairs(5, 10, false) == 25);
  CHECK(kernels::band_pairs(5, 10, true) == 15);
  CHECK(kernels::band_pairs(0, 3, false) == 0);
  // Against a direct count.
  for (int64_t T = 1; T <= 40; ++T)
    for (int64_t w = 0; w <= 45; ++w)
      for (bool causal : {false, true}) {
        int64_t n = 0;
        for (int64_t t = 0; t < T; ++t)
          for (int64_t t2 = 0; t2 < T; ++t2) n += std::abs(t - t2) <= w && (!causal || t2 <= t);
        INFO("T " << T << " w " << w << " causal " << causal);
        CHECK(kernels::band_pairs(double(T), double(w), causal) == double(n));
      }
  CHECK(kernels::full_pairs(4, true) == 10);
  CHECK(kernels::full_pairs(4, false) == 16);
}

TEST_CASE("softmax variants' cost by hand", "[cost]") {
  SECTION("multi-head, causal, with W_o") {
    // T 4, d_model 2, 2 heads of d_k = d_v = 1, d_out 3. Visible pairs 4·5/2 = 10 per head:
    // Q·Kᵀ 2·10·1 + softmax 4·10 + A·V 2·10·1 = 80, two heads 160; projections
    // 2·4·2·2·(1 + 1 + 1) = 96; W_o 2·4·2·1·3 = 48. Total 304.
    // Bytes: X 8 + W_q, W_k, W_v 12 + W_o 6 + Z 12 = 38 elements.
    const auto& v = test::bundled_variant("awb_multi_head", "multi-head");
    Shape s{4, 2, 2, 1, 1, 3, true};
    auto c = cost_of(v, s, false);
    CHECK(c.flops == 304);
    CHECK(c.bytes == 38 * 8);
    s.scalar = AWB_SCALAR_F32;
    CHECK(cost_of(v, s, false).bytes == 38 * 4);
    // Writing A and S: all 16 scores per head (S holds the masked ones too): Q·Kᵀ 2·16 = 32
    // instead of 20 per head; A and S 2·2·16 = 64 elements more.
    s.scalar = AWB_SCALAR_F64;
    c = cost_of(v, s, true);
    CHECK(c.flops == 304 + 2 * 12);
    CHECK(c.bytes == (38 + 64) * 8);
  }
  SECTION("causal variant masks whatever the flag says") {
    const auto& v = test::bundled_variant("awb_causal", "causal");
    CHECK(cost_of(v, Shape{4, 2, 2, 1, 1, 3, false}, false).flops == 304);
  }
  SECTION("parameter-free: one head of width d_model, no projections") {
    // T 3, d 2: 9 pairs, 2·9·2 + 4·9 + 2·9·2 = 108. Bytes X 6 + Z 6.
    const auto& v = test::bundled_variant("awb_parameter_free", "parameter-free");
    Shape s{3, 2, 1, 2, 2, 0, false, false};
    const auto c = cost_of(v, s, false);
    CHECK(c.flops == 108);
    CHECK(c.bytes == 12 * 8);
  }
}

TEST_CASE("sliding-window cost by hand", "[cost][research]") {
  // T 3, d_model 2, one head d_k = d_v = 2, window 1: 7 pairs. Per head 2·7·2 + 4·7 + 2·7·2 = 84;
  // projections 2·3·2·(2 + 2 + 2) = 72. Bytes: X 6, weights 12, Z 6.
  const auto& v = test::bundled_variant("awb_sliding_window", "sliding-window");
  Shape s{3, 2, 1, 2, 2, 0};
  s.params = {{"window", 1}};
  auto c = cost_of(v, s, false);
  CHECK(c.flops == 156);
  CHECK(c.bytes == 24 * 8);
  // Writing A and S: S over all 9 pairs (2·9·2 = 36, not 28); A and S 18 elements.
  c = cost_of(v, s, true);
  CHECK(c.flops == 164);
  CHECK(c.bytes == 42 * 8);
  // Causal: 5 pairs, 2·5·2 + 4·5 + 2·5·2 = 60.
  s.causal = true;
  CHECK(cost_of(v, s, false).flops == 72 + 60);
  // The default window (2) sees all 9 pairs: 2·9·2 + 4·9 + 2·9·2 = 108.
  s.causal = false;
  s.params.clear();
  CHECK(cost_of(v, s, false).flops == 72 + 108);
  // Time grows as T·w: doubling both multiplies the band's work by about 4.
  Shape big{4096, 64, 1, 64, 64, 0};
  big.params = {{"window", 64}};
  const double w64 = cost_of(v, big, false).flops;
  big.params = {{"window", 128}};
  CHECK(cost_of(v, big, false).flops / w64 == Approx(1.6).epsilon(0.1));  // projections fixed
}

TEST_CASE("linear cost by hand", "[cost][research]") {
  // T 3, d_model 2, one head d_k = d_v = 2, no W_o; projections 72.
  // Feature maps: the scale 3·2 = 6, elu+1 2 per element on 12 elements = 24: 30 (relu 18).
  // Streaming: K̃ᵀV 2·3·2·2 = 24, ksum 6, Q̃·KV 24, Q̃·ksum 12, division 6: 72.
  const auto& v = test::bundled_variant("awb_linear", "linear");
  Shape s{3, 2, 1, 2, 2, 0};
  auto c = cost_of(v, s, false);
  CHECK(c.flops == 72 + 30 + 72);
  CHECK(c.bytes == 24 * 8);
  s.params = {{"feature_map", 1}};
  CHECK(cost_of(v, s, false).flops == 72 + 18 + 72);
  // The mask changes nothing in the streaming count (prefix sums do the same work).
  s.causal = true;
  CHECK(cost_of(v, s, false).flops == 72 + 18 + 72);
  // Writing A and S: S 2·9·2 = 36, row sums and divisions 2·6 = 12 over the 6 visible pairs,
  // A·V 2·6·2 = 24: 72 instead of the streaming 72 (by coincidence equal at this size).
  c = cost_of(v, s, true);
  CHECK(c.flops == 72 + 18 + 36 + 12 + 24);
  CHECK(c.bytes == 42 * 8);
  // Streaming work is linear in T.
  Shape t1{1024, 64, 1, 64, 64, 0}, t4{4096, 64, 1, 64, 64, 0};
  CHECK(cost_of(v, t4, false).flops == Approx(4 * cost_of(v, t1, false).flops));
}
