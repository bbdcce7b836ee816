// reference_attention.cpp: plain-loop attention (llm.c style) that grading trusts.
#include "graders/reference/reference_attention.hpp"

#include "graders/reference/reference_common.hpp"

namespace awb::reference {
namespace detail {

Shapes shapes_of(const awb_problem& p, Kind kind) {
  require(p.x.data != nullptr && p.x.rank == 2, "X must be a T x d_model matrix");
  Shapes s;
  s.projected = kind == Kind::kProjected;
  s.T_ = p.x.shape[0];
  s.C = p.x.shape[1];
  s.H = s.projected ? p.n_heads : 1;
  require(s.H >= 1, "n_heads must be at least 1");
  if (s.projected) {
    require(p.w_q.data && p.w_k.data && p.w_v.data, "projected attention needs W_q, W_k, W_v");
    require(p.w_q.shape[0] == s.C && p.w_k.shape[0] == s.C && p.w_v.shape[0] == s.C,
            "weights must have d_model rows");
    require(p.w_q.shape[1] == p.w_k.shape[1], "W_q and W_k must have the same width");
    require(p.w_q.shape[1] % s.H == 0 && p.w_v.shape[1] % s.H == 0, "heads must divide the widths");
  }
  s.DK = s.projected ? p.w_q.shape[1] / s.H : s.C;
  s.DV = s.projected ? p.w_v.shape[1] / s.H : s.C;
  s.use_wo = s.projected && p.w_o.data != nullptr;
  if (s.use_wo) require(p.w_o.shape[0] == s.H * s.DV, "W_o must have h*d_v rows");
  s.OUT = s.use_wo ? p.w_o.shape[1] : s.H * s.DV;
  const double scale = p.scale_mode == AWB_SCALE_INV_SQRT_DK ? 1.0 / std::sqrt(double(s.DK)) : 1.0;
  s.factor = scale * p.sharpness;
  return s;
}

}  // namespace detail

namespace {

using namespace detail;

template <class T>
void forward(const awb_problem& p, awb_results& r, Kind kind) {
  const Shapes sh = shapes_of(p, kind);
  const int64_t T_ = sh.T_, H = sh.H, DV = sh.DV, OUT = sh.OUT;
  require(r.z.data && r.z.shape[0] == T_ && r.z.shape[1] == OUT, "Z has the wrong shape");

  // Pass 0: queries, keys and values.
  const Projections<T> pr = project<T>(p, sh);

  std::vector<T> heads_out(T_ * H * DV, T(0));
  std::vector<T> scores(T_), weights(T_);
  for (int64_t h = 0; h < H; ++h) {
    for (int64_t t = 0; t < T_; ++t) {
      const int64_t visible = p.causal ? t + 1 : T_;  // keys t2 < visible may be attended to
      // Pass 1: the softmax input, with scale and sharpness, before any mask.
      score_row(pr, sh, h, t, scores);
      if (r.s.data)
        for (int64_t t2 = 0; t2 < T_; ++t2) at3<T>(r.s, h, t, t2) = scores[t2];
      // Pass 2: softmax over the visible keys; masked entries exactly zero.
      softmax_row(scores, visible, weights);
      if (r.a.data)
        for (int64_t t2 = 0; t2 < T_; ++t2) at3<T>(r.a, h, t, t2) = weights[t2];
      // Pass 3: the context vector, a blend of the values.
      for (int64_t i = 0; i < DV; ++i) {
        T acc = 0;
        for (int64_t t2 = 0; t2 < visible; ++t2)
          acc += weights[t2] * pr.v[t2 * H * DV + h * DV + i];
        heads_out[t * H * DV + h * DV + i] = acc;
      }
    }
  }

  // Pass 4: the output projection (identity when absent).
  for (int64_t t = 0; t < T_; ++t) {
    for (int64_t o = 0; o < OUT; ++o) {
      T acc = 0;
      if (sh.use_wo) {
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
