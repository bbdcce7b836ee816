// reference_backward.cpp: plain-loop backward of attention (llm.c's attention_backward style),
// next to the forward it differentiates.
#include "graders/reference/reference_backward.hpp"

#include <algorithm>
#include <cmath>

#include "graders/reference/reference_common.hpp"

namespace awb::reference {
namespace {

using namespace detail;

void require_shape(const awb_tensor& t, bool wanted, int64_t rows, int64_t cols, const char* what) {
  if (!wanted) return;
  require(t.data && t.shape[0] == rows && t.shape[1] == cols, what);
}

// The backward pass; with kMagnitudes, instead of each gradient entry, the sum of the absolute
// values of everything its sums add up (every input and weight taken in absolute value, the
// softmax's subtraction as an addition, the weights A as they are): the M of the rounding bound
// (rounding_bound()). Returns the largest |score| magnitude Σ|q_i||k_i|·|factor| (magnitudes
// only; 0 otherwise).
template <class T, bool kMagnitudes = false>
T backward(const awb_problem& p, const awb_tensor& dz, const awb_tensor* da, awb_gradients& g,
           VariantKind kind, BackwardVariation variation) {
  auto in = [](T v) { return value_or_magnitude<kMagnitudes>(v); };
  const Shapes sh = shapes_of(p, kind);
  const int64_t T_ = sh.T_, C = sh.C, H = sh.H, KV = sh.KV, DK = sh.DK, DV = sh.DV, OUT = sh.OUT;
  require(dz.data && dz.shape[0] == T_ && dz.shape[1] == OUT, "dZ has the wrong shape");
  const bool has_da = da && da->data;
  if (has_da)
    require(da->shape[0] == sh.B * H && da->shape[1] == sh.Ts && da->shape[2] == sh.Ts, "dA shape");
  require_shape(g.dx, true, T_, C, "dX has the wrong shape");
  require_shape(g.dw_q, sh.projected, C, H * DK, "dW_q has the wrong shape");
  require_shape(g.dw_k, sh.projected, C, KV * DK, "dW_k has the wrong shape");
  require_shape(g.dw_v, sh.projected, C, KV * DV, "dW_v has the wrong shape");
  require_shape(g.dw_o, sh.use_wo, H * DV, OUT, "dW_o has the wrong shape");
  const bool causal = p.causal && variation != BackwardVariation::kNoCausalMask;
  // The factor from Q·Kᵀ to S, used to recompute the weights and again by the chain rule from S
  // back to Q and K (the mistake drops the scale from both, keeping the sharpness).
  Shapes shb = sh;
  if (variation == BackwardVariation::kNoScale) shb.factor = p.sharpness;
  const T factor = in(static_cast<T>(shb.factor));

  // Pass 0: the forward activations the gradients need. The weights always come from the values;
  // with kMagnitudes every product takes the projections' magnitudes.
  const Projections<T> pr = project<T>(p, sh);
  const Projections<T> magnitudes = kMagnitudes ? project<T, true>(p, sh) : Projections<T>{};
  const Projections<T>& pm = kMagnitudes ? magnitudes : pr;
  T largest_score = 0;
  // dK and dV per key/value head: the query heads of a group add into the one they share.
  std::vector<T> dq(T_ * H * DK, T(0)), dk(T_ * KV * DK, T(0)), dv(T_ * KV * DV, T(0));
  std::vector<T> heads_out(T_ * H * DV, T(0)), dheads(T_ * H * DV, T(0));

  // Pass 1: back through the output projection: dHeads = dZ · W_oᵀ (identity without W_o).
  for (int64_t t = 0; t < T_; ++t)
    for (int64_t i = 0; i < H * DV; ++i) {
      T acc = 0;
      if (sh.use_wo) {
        for (int64_t o = 0; o < OUT; ++o) acc += in(at<T>(dz, t, o)) * in(at<T>(p.w_o, i, o));
      } else {
        acc = in(at<T>(dz, t, i));
      }
      dheads[t * H * DV + i] = acc;
    }

  // Pass 2: per sequence, head and real query, back through A·V and the softmax into S, then into
  // Q and K. Rows first .. first + n − 1 are sequence b's real tokens; padded ones get nothing.
  std::vector<T> scores(sh.Ts), weights(sh.Ts), dweights(sh.Ts);
  std::vector<T> score_magnitudes(kMagnitudes ? sh.Ts : 0);
  for (int64_t b = 0; b < sh.B; ++b) {
    const int64_t first = b * sh.Ts, n = sh.length(b);
    for (int64_t h = 0; h < H; ++h) {
      const int64_t g = sh.kv_head(h), plane = b * H + h;
      for (int64_t t = 0; t < n; ++t) {
        const int64_t row = first + t, visible = causal ? t + 1 : n;
        score_row(pr, shb, h, row, first, n, scores);
        softmax_row(scores, visible, weights);
        if constexpr (kMagnitudes) {
          score_row(pm, shb, h, row, first, n, score_magnitudes);
          for (int64_t t2 = 0; t2 < visible; ++t2)
            largest_score = std::max(largest_score, std::fabs(score_magnitudes[t2]));
        }
        const T* dho = &dheads[row * H * DV + h * DV];
        for (int64_t t2 = 0; t2 < visible; ++t2) {
          const int64_t key = first + t2;
          const T* v2 = &pm.v[key * KV * DV + g * DV];
          T acc = has_da ? in(at3<T>(*da, plane, t, t2)) : T(0);
          for (int64_t i = 0; i < DV; ++i) {
            acc += dho[i] * v2[i];                                   // ∂(A·V)/∂A
            dv[key * KV * DV + g * DV + i] += weights[t2] * dho[i];  // ∂(A·V)/∂V
            heads_out[row * H * DV + h * DV + i] += weights[t2] * v2[i];
          }
          dweights[t2] = acc;
        }
        // Softmax backward: dS = A ∘ (dA − Σ_j A_j dA_j). The sum is the part every score
        // shares through the normalising denominator.
        T shared = 0;
        if (variation != BackwardVariation::kNoSoftmaxCorrection)
          for (int64_t t2 = 0; t2 < visible; ++t2) shared += weights[t2] * dweights[t2];
        for (int64_t t2 = 0; t2 < visible; ++t2) {
          const T ds =
              weights[t2] * (kMagnitudes ? dweights[t2] + shared : dweights[t2] - shared) * factor;
          const int64_t key = first + t2;
          for (int64_t i = 0; i < DK; ++i) {
            dq[row * H * DK + h * DK + i] += ds * pm.k[key * KV * DK + g * DK + i];
            dk[key * KV * DK + g * DK + i] += ds * pm.q[row * H * DK + h * DK + i];
          }
        }
      }
    }
  }

  // Pass 3: dW_o = Headsᵀ · dZ.
  if (sh.use_wo)
    for (int64_t i = 0; i < H * DV; ++i)
      for (int64_t o = 0; o < OUT; ++o) {
        T acc = 0;
        for (int64_t t = 0; t < T_; ++t) acc += heads_out[t * H * DV + i] * in(at<T>(dz, t, o));
        at<T>(g.dw_o, i, o) = acc;
      }

  // Pass 4: back through the projections. Without them Q = K = V = X and all three paths add.
  for (int64_t t = 0; t < T_; ++t)
    for (int64_t c = 0; c < C; ++c) {
      T acc = 0;
      if (sh.projected) {
        for (int64_t o = 0; o < H * DK; ++o) acc += dq[t * H * DK + o] * in(at<T>(p.w_q, c, o));
        for (int64_t o = 0; o < KV * DK; ++o) acc += dk[t * KV * DK + o] * in(at<T>(p.w_k, c, o));
        for (int64_t o = 0; o < KV * DV; ++o) acc += dv[t * KV * DV + o] * in(at<T>(p.w_v, c, o));
      } else {
        acc = dq[t * C + c] + dk[t * C + c] + dv[t * C + c];
      }
      at<T>(g.dx, t, c) = acc;
    }
  if (!sh.projected) return largest_score;
  auto weight_grad = [&](const std::vector<T>& d, int64_t width, const awb_tensor& out) {
    for (int64_t c = 0; c < C; ++c)
      for (int64_t o = 0; o < width; ++o) {
        T acc = 0;
        for (int64_t t = 0; t < T_; ++t) acc += in(at<T>(p.x, t, c)) * d[t * width + o];
        at<T>(out, c, o) = acc;
      }
  };
  weight_grad(dq, H * DK, g.dw_q);
  weight_grad(dk, KV * DK, g.dw_k);
  weight_grad(dv, KV * DV, g.dw_v);
  return largest_score;
}

}  // namespace

void attention_backward(const awb_problem& problem, const awb_tensor& dz, const awb_tensor* da,
                        awb_gradients& grads, VariantKind kind, BackwardVariation variation) {
  detail::require(family_of(kind) == Family::kSoftmax,
                  "the reference has a backward pass for softmax attention only");
  if (problem.scalar == AWB_SCALAR_F64) {
    backward<double>(problem, dz, da, grads, kind, variation);
  } else if (problem.scalar == AWB_SCALAR_F32) {
    backward<float>(problem, dz, da, grads, kind, variation);
  } else {
    throw std::invalid_argument("unknown scalar type");
  }
}

void attention_backward_rounding_bound(const awb_problem& problem, const awb_tensor& dz,
                                       const awb_tensor* da, awb_gradients& bounds,
                                       VariantKind kind, double unit_roundoff) {
  detail::require(family_of(kind) == Family::kSoftmax,
                  "the reference has a backward pass for softmax attention only");
  detail::require(problem.scalar == AWB_SCALAR_F64, "the rounding bound is computed in f64");
  const double largest_score =
      backward<double, true>(problem, dz, da, bounds, kind, BackwardVariation::kExact);
  const detail::Shapes s = detail::shapes_of(problem, kind);
  auto gamma = [&](double n) { return n * unit_roundoff / (1 - n * unit_roundoff); };
  // The longest chain of roundings to a weight gradient: projections (C terms), a score (DK and
  // the factor), the softmax (the maximum's subtraction, exp, a sum of T, the division), dHeads
  // (OUT), a dA entry (DV, plus the given dA), the shared sum (T), dS (3), dQ/dK/dV (T terms; a
  // key/value head's dK and dV add over its group's H / KV query heads), then dW (T terms) or dX
  // (H·(2·DK + DV) terms at most), and the rounding of the six inputs.
  const double n = double(s.C + s.DK + s.DV + s.OUT + 2 * s.T_ + s.T_ * (s.H / s.KV)) +
                   double(std::max(s.T_, s.H * (2 * s.DK + s.DV))) + 14;
  // A score's error (its own sums, C + DK + 2 roundings, of magnitude at most largest_score)
  // moves its row's weights by at most three times that, relatively; A enters each term of
  // dS twice (A and A·dA), each other term once.
  const double weights = 3 * gamma(double(s.C + s.DK + 2)) * largest_score;
  const double scale = gamma(n) + 2 * weights;
  for (awb_tensor* t : {&bounds.dx, &bounds.dw_q, &bounds.dw_k, &bounds.dw_v, &bounds.dw_o}) {
    if (!t->data) continue;
    for (int64_t i = 0; i < t->shape[0]; ++i)
      for (int64_t j = 0; j < t->shape[1]; ++j) detail::at<double>(*t, i, j) *= scale;
  }
}

}  // namespace awb::reference
