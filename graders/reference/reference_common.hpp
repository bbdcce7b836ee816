// reference_common.hpp: what the reference forward and backward share: tensor access, the
// problem's shapes, the Q/K/V projections and one softmax row. Plain loops, no Eigen.
#ifndef AWB_GRADERS_REFERENCE_REFERENCE_COMMON_HPP_
#define AWB_GRADERS_REFERENCE_REFERENCE_COMMON_HPP_

#include <awb/awb_plugin.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "graders/reference/reference_attention.hpp"

namespace awb::reference::detail {

// Element (i, j) of a rank-2 tensor, or (i, j) of plane `h` of a rank-3 tensor.
template <class T>
T& at(const awb_tensor& t, int64_t i, int64_t j) {
  return static_cast<T*>(t.data)[i * t.stride[0] + j];
}
template <class T>
T& at3(const awb_tensor& t, int64_t h, int64_t i, int64_t j) {
  return static_cast<T*>(t.data)[h * t.stride[0] + i * t.stride[1] + j];
}

inline void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}

// Shapes, stated once. T_ rows of X (B sequences of Ts tokens), C model width, H query heads, KV
// key/value heads (H unless the problem is grouped), DK / DV per-head widths, OUT = d_out.
struct Shapes {
  bool projected = false, use_wo = false;
  int64_t T_ = 0, C = 0, H = 1, KV = 1, DK = 0, DV = 0, OUT = 0;
  int64_t B = 1, Ts = 0;
  const int64_t* lengths = nullptr;  // the padding mask: sequence b's real tokens, or all Ts
  double factor = 1;                 // scale × sharpness: what turns q·k into the softmax input
  // The key/value head query head h reads: the H / KV query heads of a group are consecutive.
  int64_t kv_head(int64_t h) const { return h / (H / KV); }
  int64_t length(int64_t b) const { return lengths ? lengths[b] : Ts; }
};

// Validates the problem's shapes (throws std::invalid_argument) and states them.
Shapes shapes_of(const awb_problem& p, VariantKind kind);

// Queries, keys and values, T_ × H·DK (q), T_ × KV·DK (k) and T_ × KV·DV (v), row-major. Without
// projections each is X itself. With kMagnitudes, what each entry's sum adds up in absolute value:
// Σ|x||w|.
template <class T>
struct Projections {
  std::vector<T> q, k, v;
};

// v itself, or |v| when the caller propagates magnitudes instead of values.
template <bool kMagnitudes, class T>
T value_or_magnitude(T v) {
  if constexpr (kMagnitudes)
    return std::fabs(v);
  else
    return v;
}

template <class T, bool kMagnitudes = false>
Projections<T> project(const awb_problem& p, const Shapes& s) {
  auto in = [](T v) { return value_or_magnitude<kMagnitudes>(v); };
  Projections<T> out{std::vector<T>(s.T_ * s.H * s.DK), std::vector<T>(s.T_ * s.KV * s.DK),
                     std::vector<T>(s.T_ * s.KV * s.DV)};
  // Row t of X times `width` columns of a weight (X itself without projections).
  auto product = [&](int64_t t, const awb_tensor& w, int64_t width, T* row) {
    for (int64_t o = 0; o < width; ++o) {
      T sum = 0;
      for (int64_t c = 0; c < s.C; ++c)
        sum += in(at<T>(p.x, t, c)) * (s.projected ? in(at<T>(w, c, o)) : T(c == o));
      row[o] = sum;
    }
  };
  for (int64_t t = 0; t < s.T_; ++t) {
    product(t, p.w_q, s.H * s.DK, &out.q[t * s.H * s.DK]);
    product(t, p.w_k, s.KV * s.DK, &out.k[t * s.KV * s.DK]);
    product(t, p.w_v, s.KV * s.DV, &out.v[t * s.KV * s.DV]);
  }
  return out;
}

// Scores of the query in row t in head h against the `keys` keys in rows first, first + 1, …
// (its sequence's real tokens; the softmax input, before any mask): scores[t2] for t2 < keys.
template <class T>
void score_row(const Projections<T>& pr, const Shapes& s, int64_t h, int64_t t, int64_t first,
               int64_t keys, std::vector<T>& scores) {
  for (int64_t t2 = 0; t2 < keys; ++t2) {
    const int64_t key = first + t2;
    T dot = 0;
    for (int64_t i = 0; i < s.DK; ++i)
      dot +=
          pr.q[t * s.H * s.DK + h * s.DK + i] * pr.k[key * s.KV * s.DK + s.kv_head(h) * s.DK + i];
    scores[t2] = dot * static_cast<T>(s.factor);
  }
}

// Softmax over keys t2 < visible; the rest get exactly 0. The maximum is subtracted only so
// that exp() cannot overflow; it cancels in the ratio.
template <class T>
void softmax_row(const std::vector<T>& scores, int64_t visible, std::vector<T>& weights) {
  T maxval = -std::numeric_limits<T>::infinity();
  for (int64_t t2 = 0; t2 < visible; ++t2) maxval = scores[t2] > maxval ? scores[t2] : maxval;
  T sum = 0;
  for (int64_t t2 = 0; t2 < visible; ++t2) {
    weights[t2] = std::exp(scores[t2] - maxval);
    sum += weights[t2];
  }
  for (int64_t t2 = 0; t2 < static_cast<int64_t>(weights.size()); ++t2)
    weights[t2] = t2 < visible ? weights[t2] / sum : T(0);
}

}  // namespace awb::reference::detail

#endif  // AWB_GRADERS_REFERENCE_REFERENCE_COMMON_HPP_
