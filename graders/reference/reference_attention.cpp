// reference_attention.cpp: plain-loop attention (llm.c style) that grading trusts.
#include "reference/reference_attention.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace awb::reference {
namespace {

// Element (i, j) of a rank-2 tensor, or (i, j) of plane `h` of a rank-3 tensor.
template <class T>
T& at(const awb_tensor& t, int64_t i, int64_t j) {
  return static_cast<T*>(t.data)[i * t.stride[0] + j];
}
template <class T>
T& at3(const awb_tensor& t, int64_t h, int64_t i, int64_t j) {
  return static_cast<T*>(t.data)[h * t.stride[0] + i * t.stride[1] + j];
}

void require(bool ok, const char* what) {
  if (!ok) throw std::invalid_argument(what);
}

template <class T>
void forward(const awb_problem& p, awb_results& r, Kind kind) {
  // Shapes, stated once. T_ tokens, C model width, H heads, DK / DV per-head widths.
  const bool projected = kind == Kind::kProjected;
  const int64_t T_ = p.x.shape[0];
  const int64_t C = p.x.shape[1];
  const int64_t H = projected ? p.n_heads : 1;
  require(H >= 1, "n_heads must be at least 1");
  if (projected) {
    require(p.w_q.data && p.w_k.data && p.w_v.data, "projected attention needs W_q, W_k, W_v");
    require(p.w_q.shape[0] == C && p.w_k.shape[0] == C && p.w_v.shape[0] == C,
            "weights must have d_model rows");
    require(p.w_q.shape[1] == p.w_k.shape[1], "W_q and W_k must have the same width");
    require(p.w_q.shape[1] % H == 0 && p.w_v.shape[1] % H == 0, "heads must divide the widths");
  }
  const int64_t DK = projected ? p.w_q.shape[1] / H : C;
  const int64_t DV = projected ? p.w_v.shape[1] / H : C;
  const bool use_wo = projected && p.w_o.data != nullptr;
  if (use_wo) require(p.w_o.shape[0] == H * DV, "W_o must have h*d_v rows");
  const int64_t OUT = use_wo ? p.w_o.shape[1] : H * DV;
  require(r.z.data && r.z.shape[0] == T_ && r.z.shape[1] == OUT, "Z has the wrong shape");
  const double scale = p.scale_mode == AWB_SCALE_INV_SQRT_DK ? 1.0 / std::sqrt(double(DK)) : 1.0;
  const T factor = static_cast<T>(scale * p.sharpness);

  // Pass 0: queries, keys and values. Without projections each is X itself.
  std::vector<T> q(T_ * H * DK), k(T_ * H * DK), v(T_ * H * DV);
  for (int64_t t = 0; t < T_; ++t) {
    for (int64_t o = 0; o < H * DK; ++o) {
      T sq = 0, sk = 0;
      for (int64_t c = 0; c < C; ++c) {
        const T xc = at<T>(p.x, t, c);
        sq += xc * (projected ? at<T>(p.w_q, c, o) : T(c == o));
        sk += xc * (projected ? at<T>(p.w_k, c, o) : T(c == o));
      }
      q[t * H * DK + o] = sq;
      k[t * H * DK + o] = sk;
    }
    for (int64_t o = 0; o < H * DV; ++o) {
      T sv = 0;
      for (int64_t c = 0; c < C; ++c) {
        sv += at<T>(p.x, t, c) * (projected ? at<T>(p.w_v, c, o) : T(c == o));
      }
      v[t * H * DV + o] = sv;
    }
  }

  std::vector<T> heads_out(T_ * H * DV, T(0));
  std::vector<T> scores(T_), weights(T_);
  for (int64_t h = 0; h < H; ++h) {
    for (int64_t t = 0; t < T_; ++t) {
      const int64_t visible = p.causal ? t + 1 : T_;  // keys t2 < visible may be attended to
      // Pass 1: the softmax input, with scale and sharpness, before any mask.
      for (int64_t t2 = 0; t2 < T_; ++t2) {
        T dot = 0;
        for (int64_t i = 0; i < DK; ++i)
          dot += q[t * H * DK + h * DK + i] * k[t2 * H * DK + h * DK + i];
        scores[t2] = dot * factor;
        if (r.s.data) at3<T>(r.s, h, t, t2) = scores[t2];
      }
      // Pass 2: softmax over the visible keys. The maximum is subtracted only so that exp()
      // cannot overflow; it cancels in the ratio.
      T maxval = -std::numeric_limits<T>::infinity();
      for (int64_t t2 = 0; t2 < visible; ++t2) maxval = scores[t2] > maxval ? scores[t2] : maxval;
      T sum = 0;
      for (int64_t t2 = 0; t2 < visible; ++t2) {
        weights[t2] = std::exp(scores[t2] - maxval);
        sum += weights[t2];
      }
      for (int64_t t2 = 0; t2 < T_; ++t2) {
        weights[t2] = t2 < visible ? weights[t2] / sum : T(0);  // masked: exactly zero
        if (r.a.data) at3<T>(r.a, h, t, t2) = weights[t2];
      }
      // Pass 3: the context vector, a blend of the values.
      for (int64_t i = 0; i < DV; ++i) {
        T acc = 0;
        for (int64_t t2 = 0; t2 < visible; ++t2) acc += weights[t2] * v[t2 * H * DV + h * DV + i];
        heads_out[t * H * DV + h * DV + i] = acc;
      }
    }
  }

  // Pass 4: the output projection (identity when absent).
  for (int64_t t = 0; t < T_; ++t) {
    for (int64_t o = 0; o < OUT; ++o) {
      T acc = 0;
      if (use_wo) {
        for (int64_t i = 0; i < H * DV; ++i) acc += heads_out[t * H * DV + i] * at<T>(p.w_o, i, o);
      } else {
        acc = heads_out[t * H * DV + o];
      }
      at<T>(r.z, t, o) = acc;
    }
  }
}

}  // namespace

void attention_forward(const awb_problem& problem, awb_results& results, Kind kind) {
  require(problem.x.data != nullptr && problem.x.rank == 2, "X must be a T x d_model matrix");
  if (problem.scalar == AWB_SCALAR_F64) {
    forward<double>(problem, results, kind);
  } else if (problem.scalar == AWB_SCALAR_F32) {
    forward<float>(problem, results, kind);
  } else {
    throw std::invalid_argument("unknown scalar type");
  }
}

}  // namespace awb::reference
