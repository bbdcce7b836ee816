// mutant.cpp: one attention implementation (forward and backward) with a switch per classic
// mistake, so `awb lint` can prove each exercise catches something. Compiled once; each mutant
// plugin is this body plus an entry point (mutant_entry.c) that names its mistake and its id.
// SPDX-License-Identifier: MIT
#include <awb/plugin.hpp>
#include <cmath>
#include <iterator>
#include <limits>
#include <type_traits>
#include <utility>

#include "graders/mutants/mistakes.hpp"

namespace {

using awb::mutants::Mistake;

// Each table row describes the enum value of its position (the entry point casts a number).
constexpr bool table_in_enum_order() {
  for (size_t i = 0; i < std::size(awb::mutants::kMistakes); ++i)
    if (awb::mutants::kMistakes[i].mistake != static_cast<Mistake>(i + 1)) return false;
  return true;
}
static_assert(table_in_enum_order(), "kMistakes must list the mistakes in enum order");

// This plugin's mistake: set once, by the entry point, before the host can call anything.
Mistake mistake = Mistake::kNone;

template <class Scalar>
using Mat = awb::RowMatrix<Scalar>;

template <class Scalar>
void softmax_rows(const Mat<Scalar>& s, Mat<Scalar>& a, bool causal) {
  const auto n = s.rows();
  a.setZero(n, n);
  if (mistake == Mistake::kWrongAxis) {
    for (Eigen::Index c = 0; c < n; ++c) {
      const Scalar mx = s.col(c).maxCoeff();
      a.col(c) = (s.col(c).array() - mx).exp();
      a.col(c) /= a.col(c).sum();
    }
    return;
  }
  for (Eigen::Index t = 0; t < n; ++t) {
    Eigen::Index visible = n;
    if (causal && mistake != Mistake::kNoCausalMask && mistake != Mistake::kMaskAfterSoftmax)
      visible = mistake == Mistake::kMaskHidesDiagonal ? t
                : mistake == Mistake::kMaskOffByOne    ? std::min<Eigen::Index>(t + 2, n)
                                                       : t + 1;
    if (visible == 0) continue;  // a fully hidden row: nothing to normalise
    auto row = s.row(t).head(visible);
    if (mistake == Mistake::kDivideBySum) {
      a.row(t).head(visible) = row / row.sum();
    } else {
      // The f32-only variant is the mistake that hides in f64 tests: exp() overflows a float
      // above a score of about 88, a double only above about 709.
      const bool no_max =
          mistake == Mistake::kNoMaxSubtraction ||
          (mistake == Mistake::kNoMaxSubtractionF32 && std::is_same_v<Scalar, float>);
      const Scalar mx = no_max ? Scalar(0) : row.maxCoeff();
      a.row(t).head(visible) = (row.array() - mx).exp();
      a.row(t).head(visible) /= a.row(t).head(visible).sum();
    }
    if (causal && mistake == Mistake::kMaskAfterSoftmax) a.row(t).tail(n - t - 1).setZero();
  }
}

// What both passes start from: the head count and widths, Q, K and V (X itself without
// projections), and the score factor, which leaves out 1/√d_k when `forgets_scale` is this
// plugin's mistake.
template <class Scalar>
struct Activations {
  int heads;
  Eigen::Index dk, dv;
  Mat<Scalar> q, k, v;
  double factor;
  int kv_heads;
  // The key/value head query head h reads: h / (heads / kv_heads), or round-robin by mistake.
  int kv_head(int h) const {
    return mistake == Mistake::kWrongHeadGrouping ? h % kv_heads : h / (heads / kv_heads);
  }
};

template <class Scalar>
Activations<Scalar> activations(const awb::Problem<Scalar>& p, bool projected,
                                Mistake forgets_scale) {
  const auto x = p.x();
  const Eigen::Index dk = projected ? p.d_k() : p.d_model();
  double factor = p.sharpness();
  if (p.scale_mode() == awb::ScaleMode::kInvSqrtDk && mistake != forgets_scale)
    factor /= std::sqrt(double(mistake == Mistake::kScaleByDModel ? p.d_model() : dk));
  return {projected ? p.heads() : 1,
          dk,
          projected ? p.d_v() : p.d_model(),
          projected ? Mat<Scalar>(x * p.w_q()) : Mat<Scalar>(x),
          projected ? Mat<Scalar>(x * p.w_k()) : Mat<Scalar>(x),
          projected ? Mat<Scalar>(x * p.w_v()) : Mat<Scalar>(x),
          factor,
          projected ? p.kv_heads() : 1};
}

// The degenerate mistakes ignore the input altogether: every output NaN, or a constant (uniform
// weights, zero scores, Z one subnormal number) that no check may mistake for an answer.
template <class Scalar>
bool degenerate_forward(const awb::Problem<Scalar>& p, awb::Results<Scalar>& r) {
  if (mistake != Mistake::kNanEverywhere && mistake != Mistake::kConstantOutput) return false;
  const bool nan = mistake == Mistake::kNanEverywhere;
  const Scalar value =
      nan ? std::numeric_limits<Scalar>::quiet_NaN() : std::numeric_limits<Scalar>::denorm_min();
  auto z = r.z();
  z.setConstant(value);
  for (int h = 0; h < (p.has_projections() ? p.heads() : 1); ++h) {
    if (r.wants_scores()) r.scores(h).setConstant(nan ? value : Scalar(0));
    if (r.wants_weights()) {
      auto a = r.weights(h);
      a.setConstant(nan ? value : Scalar(1) / Scalar(a.cols()));
    }
  }
  return true;
}

template <class Scalar>
void forward(const awb::Problem<Scalar>& p, awb::Results<Scalar>& r) {
  if (degenerate_forward(p, r)) return;
  const bool projected = p.has_projections();
  const Activations<Scalar> act = activations(p, projected, Mistake::kNoScale);
  const auto& [heads, dk, dv, q, k, v, factor, kv_heads] = act;
  Mat<Scalar> concat(p.tokens(), heads * dv);
  for (int h = 0; h < heads; ++h) {
    const int kv = act.kv_head(h);
    const auto qh = q.middleCols(h * dk, dk), kh = k.middleCols(kv * dk, dk);
    Mat<Scalar> s =
        Scalar(factor) * (mistake == Mistake::kSwapQK ? Mat<Scalar>(kh * qh.transpose())
                                                      : Mat<Scalar>(qh * kh.transpose()));
    if (r.wants_scores()) {
      r.scores(h) = s;
      // The masked scores set to −Inf where the softmax reads them, and S handed over from there.
      if (mistake == Mistake::kScoresAfterMask && p.causal())
        for (Eigen::Index t = 0; t + 1 < s.rows(); ++t)
          r.scores(h)
              .row(t)
              .tail(s.cols() - t - 1)
              .setConstant(-std::numeric_limits<Scalar>::infinity());
    }
    Mat<Scalar> a;
    softmax_rows(s, a, p.causal());
    if (r.wants_weights()) r.weights(h) = a;
    const int slot = mistake == Mistake::kHeadsReversed ? heads - 1 - h : h;
    concat.middleCols(slot * dv, dv) =
        (mistake == Mistake::kUnnormalisedContext ? s : a) * v.middleCols(kv * dv, dv);
  }
  auto z = r.z();
  if (projected && p.has_output_projection() && mistake != Mistake::kSkipOutputProj) {
    z = concat * p.w_o();
  } else {
    // Skipping W_o leaves h·d_v columns where the host expects d_out: the host's buffer is
    // the truth, so write what fits (a real student's plugin would overrun it).
    z.setZero();
    const auto cols = std::min(z.cols(), concat.cols());
    z.leftCols(cols) = concat.leftCols(cols);
  }
}

// The backward pass, right unless the mistake is one of the backward ones.
template <class Scalar>
void backward(const awb::Problem<Scalar>& p, const awb::Upstream<Scalar>& up,
              awb::Gradients<Scalar>& g) {
  const bool projected = p.has_projections();
  const bool with_wo = projected && p.has_output_projection();
  if (mistake == Mistake::kNanEverywhere || mistake == Mistake::kConstantOutput) {
    // The derivative of what the forward returned: NaN, or zero for a constant.
    const Scalar value =
        mistake == Mistake::kNanEverywhere ? std::numeric_limits<Scalar>::quiet_NaN() : Scalar(0);
    g.dx().setConstant(value);
    if (projected) {
      g.dw_q().setConstant(value);
      g.dw_k().setConstant(value);
      g.dw_v().setConstant(value);
    }
    if (with_wo) g.dw_o().setConstant(value);
    return;
  }
  const auto x = p.x();
  const Activations<Scalar> act = activations(p, projected, Mistake::kBackwardNoScale);
  const auto& [heads, dk, dv, q, k, v, factor, kv_heads] = act;
  const Mat<Scalar> dheads =
      with_wo ? Mat<Scalar>(up.dz() * p.w_o().transpose()) : Mat<Scalar>(up.dz());
  // A key/value head's dK and dV add up over the query heads that read it.
  Mat<Scalar> concat(p.tokens(), heads * dv), dq(p.tokens(), heads * dk),
      dkey = Mat<Scalar>::Zero(p.tokens(), kv_heads * dk),
      dval = Mat<Scalar>::Zero(p.tokens(), kv_heads * dv);
  for (int h = 0; h < heads; ++h) {
    const int kv = act.kv_head(h);
    const auto qh = q.middleCols(h * dk, dk), kh = k.middleCols(kv * dk, dk);
    const auto vh = v.middleCols(kv * dv, dv);
    const auto dho = dheads.middleCols(h * dv, dv);
    const Mat<Scalar> s = Scalar(factor) * (qh * kh.transpose());
    Mat<Scalar> a;
    softmax_rows(s, a, p.causal() && mistake != Mistake::kBackwardNoCausalMask);
    concat.middleCols(h * dv, dv) = a * vh;
    Mat<Scalar> da = dho * vh.transpose();
    if (up.has_da()) da += up.da(h);
    dval.middleCols(kv * dv, dv) += a.transpose() * dho;
    Mat<Scalar> ds = (a.array() * da.array()).matrix();
    if (mistake != Mistake::kBackwardNoSoftmaxTerm)
      ds -= (a.array().colwise() * (a.array() * da.array()).rowwise().sum()).matrix();
    ds *= Scalar(factor);
    dq.middleCols(h * dk, dk) = ds * kh;
    dkey.middleCols(kv * dk, dk) += ds.transpose() * qh;
  }
  // dW = Xᵀ·dY has W's shape; the mistake computes dYᵀ·X and pours its numbers into dW's buffer.
  auto weight_grad = [&](const Mat<Scalar>& in, const Mat<Scalar>& dy,
                         awb::MatrixView<Scalar> out) {
    if (mistake != Mistake::kBackwardTransposedGrad) {
      out = in.transpose() * dy;
      return;
    }
    const Mat<Scalar> wrong = dy.transpose() * in;
    out = Eigen::Map<const Mat<Scalar>>(wrong.data(), out.rows(), out.cols());
  };
  if (with_wo) weight_grad(concat, Mat<Scalar>(up.dz()), g.dw_o());
  if (!projected) {
    g.dx() = dq + dkey + dval;
    return;
  }
  g.dx() = dq * p.w_q().transpose() + dkey * p.w_k().transpose() + dval * p.w_v().transpose();
  const Mat<Scalar> xm = x;
  weight_grad(xm, dq, g.dw_q());
  weight_grad(xm, dkey, g.dw_k());
  weight_grad(xm, dval, g.dw_v());
}

// Every gradient the backward wrote, negated: the descent direction handed over for the gradient.
template <class Scalar>
void flip_signs(const awb::Problem<Scalar>& p, awb::Gradients<Scalar>& g) {
  g.dx() *= Scalar(-1);
  if (!p.has_projections()) return;
  g.dw_q() *= Scalar(-1);
  g.dw_k() *= Scalar(-1);
  g.dw_v() *= Scalar(-1);
  if (p.has_output_projection()) g.dw_o() *= Scalar(-1);
}

// One variant per kind the mutants come in (kMutantKinds), each with exactly the capabilities of
// the bundled plugin of that kind, all sharing the body above: the problem says whether there are
// projections, the host whether the mask is on.
template <size_t... K>
constexpr auto kind_infos(std::index_sequence<K...>) {
  using awb::mutants::kMutantKinds;
  return std::array<awb::VariantInfo, sizeof...(K)>{
      {{kMutantKinds[K]->id, kMutantKinds[K]->title, "The kind, with one deliberate mistake.",
        kMutantKinds[K]->capabilities}...}};
}
constexpr auto kKinds =
    kind_infos(std::make_index_sequence<static_cast<size_t>(awb::mutants::kKindCount)>{});

template <size_t kKind>
struct KindMutant {
  static constexpr awb::VariantInfo kInfo = kKinds[kKind];
  template <class Scalar>
  void forward(const awb::Problem<Scalar>& p, awb::Results<Scalar>& r) {
    ::forward(p, r);
  }
  template <class Scalar>
  void backward(const awb::Problem<Scalar>& p, const awb::Upstream<Scalar>& up,
                awb::Gradients<Scalar>& g) {
    ::backward(p, up, g);
    if (mistake == Mistake::kGradientSignFlip) flip_signs(p, g);
  }
};

}  // namespace

// The entry point of every mutant plugin: `which` is its mistake's number in the Mistake enum
// (the order of AWB_MUTANTS in CMake, from 1), `id` its plugin id (a string with static storage).
template <size_t... K>
const awb_plugin_descriptor* descriptor(const char* id, std::index_sequence<K...>) {
  return awb::detail::descriptor_for<KindMutant<K>...>(
      awb::PluginInfo{id, "Mutant", "1.0.0", "Attention Workbench",
                      "Carries one classic mistake, for mutation-testing exercises."});
}

extern "C" const awb_plugin_descriptor* awb_mutant_entry(int which, const char* id) {
  mistake = static_cast<Mistake>(which);
  return descriptor(id, std::make_index_sequence<kKinds.size()>{});
}
