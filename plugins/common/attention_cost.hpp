// attention_cost.hpp: the cost models ("org.awb.cost/1") of the bundled variants: floating-point
// operations of one forward pass (a multiply-add counts 2) and the bytes it must at least move.
//
// Counting rules, shared by every model here:
// - Projections: X·W_q, X·W_k (2·T·d_model·h·d_k each) and X·W_v (2·T·d_model·h·d_v) when the
//   variant reads weights; heads·W_o (2·T·h·d_v·d_out) when W_o is present.
// - Scores (q·k over d_k) and their use (the weighted sum of values over d_v) are counted only for
//   the (query, key) pairs the variant must compute: the visible ones (causal: T(T+1)/2, not T²;
//   a window: the pairs inside its band). When A and S are written, S must hold every score
//   (masked ones too), so the score GEMM then counts all T² pairs.
// - Softmax: kSoftmaxFlopsPerScore per visible score: subtract the row's maximum, exp (counted as
//   one operation), add to the row's sum, the final division (the max's comparison is not an
//   arithmetic operation and is not counted).
// - Bytes: the inputs read once (X and the weights the variant reads), Z written once, and A and
//   S (h × T × T each) when they are written; intermediate Q, K, V are assumed to stay in cache.
// An implementation may do more (a blocked kernel computes a few scores outside the band it then
// discards); that work is not counted, so GFLOP/s from these counts never exceed what the
// machine did.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_ATTENTION_COST_HPP_
#define AWB_PLUGINS_COMMON_ATTENTION_COST_HPP_

#include <algorithm>
#include <awb/plugin.hpp>
#include <string_view>

namespace awb::kernels {

inline constexpr double kSoftmaxFlopsPerScore = 4;

// The sizes a cost model needs, as doubles (counts overflow no int64 for any shape a host can
// allocate, but doubles are what the cost extension returns).
struct CostShape {
  double tokens = 0, d_model = 0, heads = 1, d_k = 0, d_v = 0, d_out = 0, element_bytes = 8;
  double kv_heads = 1;  // key/value heads: fewer than heads in grouped-query attention
  bool projected = false, output_projection = false, causal = false;
};

// `projected`: whether the variant reads the weights (the parameter-free variant does not:
// Q = K = V = X, one head of width d_model); `always_causal`: it masks whatever the flag says.
inline CostShape cost_shape(const ProblemShape& p, bool projected, bool always_causal = false) {
  CostShape s;
  s.tokens = static_cast<double>(p.tokens());
  s.d_model = static_cast<double>(p.d_model());
  s.projected = projected && p.has_projections();
  s.output_projection = s.projected && p.has_output_projection();
  s.heads = s.projected ? p.heads() : 1;
  s.kv_heads = s.projected ? p.kv_heads() : 1;
  s.d_k = s.projected ? static_cast<double>(p.d_k()) : s.d_model;
  s.d_v = s.projected ? static_cast<double>(p.d_v()) : s.d_model;
  s.d_out = s.output_projection ? static_cast<double>(p.d_out()) : s.heads * s.d_v;
  s.causal = always_causal || p.causal();
  s.element_bytes = p.raw().scalar == AWB_SCALAR_F32 ? 4 : 8;
  return s;
}

// Pairs (t, t2) with t2 ≤ t and t − t2 ≤ window, over T queries: Σ_t (min(t, window) + 1).
inline double causal_band_pairs(double tokens, double window) {
  if (tokens <= 0) return 0;
  const double w = std::min(window, tokens - 1);
  // Σ_{t<T} min(t, w) = Σ_{t≤w} t + (T − 1 − w)·w
  return tokens + w * (w + 1) / 2 + (tokens - 1 - w) * w;
}

// Visible (query, key) pairs of a band |t − t2| ≤ window over T tokens, exactly: causal keeps
// t2 ≤ t; without the mask the band is symmetric, so every off-diagonal pair below the diagonal
// has its mirror above it.
inline double band_pairs(double tokens, double window, bool causal) {
  const double below_and_diagonal = causal_band_pairs(tokens, window);
  return causal ? below_and_diagonal : 2 * below_and_diagonal - tokens;
}

// Visible pairs of full attention: T² or, with the mask, T(T+1)/2.
inline double full_pairs(double tokens, bool causal) {
  return causal ? tokens * (tokens + 1) / 2 : tokens * tokens;
}

// Projections in and out (see the rules above).
inline double projection_flops(const CostShape& s) {
  double f = 0;
  if (s.projected) f += 2 * s.tokens * s.d_model * (s.heads * s.d_k + s.kv_heads * (s.d_k + s.d_v));
  if (s.output_projection) f += 2 * s.tokens * s.heads * s.d_v * s.d_out;
  return f;
}

// Inputs read once, Z written once, A and S when written.
inline double io_bytes(const CostShape& s, bool writes_weights) {
  double elements = s.tokens * s.d_model + s.tokens * s.d_out;
  if (s.projected) elements += s.d_model * (s.heads * s.d_k + s.kv_heads * (s.d_k + s.d_v));
  if (s.output_projection) elements += s.heads * s.d_v * s.d_out;
  if (writes_weights) elements += 2 * s.heads * s.tokens * s.tokens;
  return elements * s.element_bytes;
}

// Softmax attention whose query t sees `pairs` keys in all (summed over t), per head.
inline Cost softmax_cost(const CostShape& s, double pairs, bool writes_weights) {
  const double scored = writes_weights ? s.tokens * s.tokens : pairs;
  const double per_head = 2 * scored * s.d_k + kSoftmaxFlopsPerScore * pairs + 2 * pairs * s.d_v;
  return {s.heads * per_head + projection_flops(s), io_bytes(s, writes_weights)};
}

// The four softmax variants (parameter-free, qkv, multi-head, causal).
inline Cost full_attention_cost(const ProblemShape& p, bool projected, bool always_causal,
                                bool writes_weights) {
  const CostShape s = cost_shape(p, projected, always_causal);
  return softmax_cost(s, full_pairs(s.tokens, s.causal), writes_weights);
}

// Sliding-window attention: the pairs inside the band, exactly.
inline Cost sliding_window_cost(const ProblemShape& p, double window, bool writes_weights) {
  const CostShape s = cost_shape(p, true);
  return softmax_cost(s, band_pairs(s.tokens, window, s.causal), writes_weights);
}

// Flops of the feature map φ per element: elu+1 counts 2 (the exp, and its +1: a select picks
// x + 1 or eˣ, so the kernel does one of the two and the count is an upper bound), relu 1.
inline double feature_map_flops(std::string_view feature_map) {
  return feature_map == "relu" ? 1 : 2;
}

// Linear attention. Feature maps: the scale c on every query element (1) and φ on every query
// and key element. Streaming (A and S not written): per head K̃ᵀ·V (2·T·d_k·d_v) and the key sum
// (T·d_k), then Q̃·KV (2·T·d_k·d_v), the normaliser Q̃·ksum (2·T·d_k) and the division (T·d_v).
// The causal kernel does the same through prefix sums; the small masked blocks on the diagonal
// it adds for speed are an implementation choice and not counted. Materialised (A and S written):
// S = Q̃·K̃ᵀ over all T² pairs (2·T²·d_k), the row sums and divisions over the visible pairs (2
// per pair) and A·V over them (2·pairs·d_v); the KV path is then not run.
inline Cost linear_cost(const ProblemShape& p, std::string_view feature_map, bool writes_weights) {
  const CostShape s = cost_shape(p, true);
  const double T = s.tokens, dk = s.d_k, dv = s.d_v;
  const double features = T * dk + 2 * T * dk * feature_map_flops(feature_map);
  double per_head;
  if (writes_weights) {
    const double pairs = full_pairs(T, s.causal);
    per_head = features + 2 * T * T * dk + 2 * pairs + 2 * pairs * dv;
  } else {
    per_head = features + 4 * T * dk * dv + T * dk + 2 * T * dk + T * dv;
  }
  return {s.heads * per_head + projection_flops(s), io_bytes(s, writes_weights)};
}

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_ATTENTION_COST_HPP_
