// reference_attention.cpp: plain-loop attention (llm.c style) that grading trusts.
#include "graders/reference/reference_attention.hpp"

#include <cstddef>
#include <cstring>
#include <string>

#include "graders/reference/reference_common.hpp"

namespace awb::reference {
namespace detail {

Shapes shapes_of(const awb_problem& p, VariantKind kind) {
  require(p.x.data != nullptr && p.x.rank == 2, "X must be a T x d_model matrix");
  Shapes s;
  s.projected = projected(kind);
  s.T_ = p.x.shape[0];
  s.C = p.x.shape[1];
  s.H = s.projected ? p.n_heads : 1;
  require(s.H >= 1, "n_heads must be at least 1");
  // Key/value heads: n_kv_heads when the problem's size covers it and it is set, else H.
  const bool has_kv = p.struct_size >= offsetof(awb_problem, n_kv_heads) + sizeof(p.n_kv_heads);
  s.KV = s.projected && has_kv && p.n_kv_heads > 0 ? p.n_kv_heads : s.H;
  require(s.KV <= s.H && s.H % s.KV == 0, "n_kv_heads must divide n_heads");
  // A batch of sequences (batch, and lengths for the padding mask) where the size covers them.
  const bool has_batch = p.struct_size >= offsetof(awb_problem, batch) + sizeof(p.batch);
  const bool has_lengths = p.struct_size >= offsetof(awb_problem, lengths) + sizeof(p.lengths);
  s.B = has_batch && p.batch > 1 ? p.batch : 1;
  require(s.T_ % s.B == 0, "batch must divide the rows of X");
  s.Ts = s.T_ / s.B;
  s.lengths = has_lengths ? p.lengths : nullptr;
  for (int64_t b = 0; s.lengths && b < s.B; ++b)
    require(s.lengths[b] >= 1 && s.lengths[b] <= s.Ts, "lengths must be in [1, T]");
  if (s.projected) {
    require(p.w_q.data && p.w_k.data && p.w_v.data, "projected attention needs W_q, W_k, W_v");
    require(p.w_q.shape[0] == s.C && p.w_k.shape[0] == s.C && p.w_v.shape[0] == s.C,
            "weights must have d_model rows");
    require(p.w_q.shape[1] % s.H == 0 && p.w_k.shape[1] % s.KV == 0 && p.w_v.shape[1] % s.KV == 0,
            "heads must divide the widths");
    require(p.w_q.shape[1] / s.H == p.w_k.shape[1] / s.KV,
            "W_q and W_k must have the same width per head");
  }
  s.DK = s.projected ? p.w_q.shape[1] / s.H : s.C;
  s.DV = s.projected ? p.w_v.shape[1] / s.KV : s.C;
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

// The research kinds' parameters, declared here again (the reference shares nothing with the
// plugins it checks).
constexpr awb_param_decl kWindow{sizeof(awb_param_decl),
                                 "window",
                                 AWB_PARAM_INT,
                                 "keys each query sees on either side",
                                 2,
                                 0,
                                 1048576,
                                 0,
                                 nullptr};
constexpr const char* kFeatureMaps[] = {"elu+1", "relu"};
constexpr awb_param_decl kFeatureMap{sizeof(awb_param_decl),
                                     "feature_map",
                                     AWB_PARAM_ENUM,
                                     "the feature map phi applied to queries and keys",
                                     0,
                                     0,
                                     1,
                                     2,
                                     kFeatureMaps};
constexpr const awb_param_decl* kSlidingWindowParams[] = {&kWindow};
constexpr const awb_param_decl* kLinearParams[] = {&kFeatureMap};

// The linear kind's normaliser ε: a row without weight divides 0 by ε, not by 0.
constexpr double kLinearEpsilon = 1e-6;

// A declared parameter's value in `p`, or its default when the problem carries none; an int or
// enum must be integral and in its range.
int64_t integer_param(const awb_problem& p, const awb_param_decl& decl) {
  double value = decl.default_value;
  if (p.struct_size >= offsetof(awb_problem, params) + sizeof(p.params) && p.params) {
    for (size_t i = 0; i < p.n_params; ++i)
      if (p.params[i].name && std::strcmp(p.params[i].name, decl.name) == 0)
        value = p.params[i].value;
  }
  const double hi =
      decl.type == AWB_PARAM_ENUM ? static_cast<double>(decl.n_choices) - 1 : decl.max_value;
  if (!(value >= decl.min_value && value <= hi) || value != std::floor(value))
    throw std::invalid_argument(std::string("parameter '") + decl.name + "' is out of range");
  return static_cast<int64_t>(value);
}

// φ of the linear kind: elu(x) + 1 (elu(x) = x for x > 0, eˣ − 1 otherwise) or max(x, 0). For
// x ≤ 0, elu(x) + 1 is eˣ itself: written so, f32 keeps eˣ's precision instead of cancelling.
template <class T>
T feature(T x, bool relu) {
  if (relu) return x > T(0) ? x : T(0);
  return x > T(0) ? x + T(1) : std::exp(x);
}

// A row's keys first..last (inclusive): those query t may attend to.
struct Band {
  int64_t first, last;
};

// The families' rules, one class each: what the family does to the queries and keys before they
// are scored, which keys a query sees, and how a row of scores becomes weights. Each is built
// from the problem, reading its parameters once.
struct SoftmaxRule {
  explicit SoftmaxRule(const awb_problem&) {}
  template <class T>
  void prepare(Projections<T>&, Shapes&) const {}
  Band band(int64_t t, int64_t tokens, bool causal) const { return {0, causal ? t : tokens - 1}; }
  template <class T>
  void weights(const std::vector<T>& scores, Band b, std::vector<T>& w) const {
    softmax_row(scores, b.last + 1, w);
  }
};

struct SlidingWindowRule {
  int64_t window;
  explicit SlidingWindowRule(const awb_problem& p) : window(integer_param(p, kWindow)) {}
  template <class T>
  void prepare(Projections<T>&, Shapes&) const {}
  Band band(int64_t t, int64_t tokens, bool causal) const {
    return {t - window > 0 ? t - window : 0,
            causal ? t : (t + window < tokens - 1 ? t + window : tokens - 1)};
  }
  // Softmax over the band; the maximum is subtracted only against overflow.
  template <class T>
  void weights(const std::vector<T>& scores, Band b, std::vector<T>& w) const {
    T maxval = -std::numeric_limits<T>::infinity();
    for (int64_t t2 = b.first; t2 <= b.last; ++t2)
      maxval = scores[t2] > maxval ? scores[t2] : maxval;
    T sum = 0;
    for (int64_t t2 = b.first; t2 <= b.last; ++t2) sum += std::exp(scores[t2] - maxval);
    for (int64_t t2 = 0; t2 < static_cast<int64_t>(w.size()); ++t2)
      w[t2] = t2 >= b.first && t2 <= b.last ? std::exp(scores[t2] - maxval) / sum : T(0);
  }
};

struct LinearRule {
  bool relu;
  explicit LinearRule(const awb_problem& p) : relu(integer_param(p, kFeatureMap) == 1) {}
  // The feature maps q̃ = φ(factor·q), k̃ = φ(k); the scores are then q̃·k̃ with no further
  // factor.
  template <class T>
  void prepare(Projections<T>& pr, Shapes& score_shapes) const {
    for (auto& q : pr.q) q = feature(q * static_cast<T>(score_shapes.factor), relu);
    for (auto& k : pr.k) k = feature(k, relu);
    score_shapes.factor = 1;
  }
  Band band(int64_t t, int64_t tokens, bool causal) const { return {0, causal ? t : tokens - 1}; }
  // Kernel scores are ≥ 0: each divided by the visible sum (+ ε).
  template <class T>
  void weights(const std::vector<T>& scores, Band b, std::vector<T>& w) const {
    T sum = 0;
    for (int64_t t2 = b.first; t2 <= b.last; ++t2) sum += scores[t2];
    for (int64_t t2 = 0; t2 < static_cast<int64_t>(w.size()); ++t2)
      w[t2] = t2 >= b.first && t2 <= b.last ? scores[t2] / (sum + static_cast<T>(kLinearEpsilon))
                                            : T(0);
  }
};

template <class T, class Rule>
void forward(const awb_problem& p, awb_results& r, VariantKind kind) {
  const Shapes sh = shapes_of(p, kind);
  const int64_t T_ = sh.T_, H = sh.H, DV = sh.DV, OUT = sh.OUT;
  require(r.z.data && r.z.shape[0] == T_ && r.z.shape[1] == OUT, "Z has the wrong shape");
  const Rule rule(p);

  // Pass 0: queries, keys and values, as the family wants them scored.
  Projections<T> pr = project<T>(p, sh);
  Shapes score_shapes = sh;
  rule.prepare(pr, score_shapes);

  // Per sequence b, head h and query t: its real tokens are rows first .. first + n − 1. A
  // padded query's rows of S and A stay 0, and so does its context vector.
  std::vector<T> heads_out(T_ * H * DV, T(0));
  std::vector<T> scores(sh.Ts), weights(sh.Ts);
  for (int64_t b = 0; b < sh.B; ++b) {
    const int64_t first = b * sh.Ts, n = sh.length(b);
    for (int64_t h = 0; h < H; ++h) {
      const int64_t plane = b * H + h;
      for (int64_t t = 0; t < sh.Ts; ++t) {
        if (t >= n) {
          for (int64_t t2 = 0; t2 < sh.Ts; ++t2) {
            if (r.s.data) at3<T>(r.s, plane, t, t2) = 0;
            if (r.a.data) at3<T>(r.a, plane, t, t2) = 0;
          }
          continue;
        }
        const int64_t row = first + t;
        const Band band = rule.band(t, n, p.causal);
        // Pass 1: the scores, with scale and sharpness (softmax families), before any mask.
        score_row(pr, score_shapes, h, row, first, n, scores);
        if (r.s.data)
          for (int64_t t2 = 0; t2 < sh.Ts; ++t2)
            at3<T>(r.s, plane, t, t2) = t2 < n ? scores[t2] : 0;
        // Pass 2: the weights; keys outside the band (and padded keys) exactly zero.
        rule.weights(scores, band, weights);
        if (r.a.data)
          for (int64_t t2 = 0; t2 < sh.Ts; ++t2) at3<T>(r.a, plane, t, t2) = weights[t2];
        // Pass 3: the context vector, a blend of the values.
        for (int64_t i = 0; i < DV; ++i) {
          T acc = 0;
          for (int64_t t2 = band.first; t2 <= band.last; ++t2)
            acc += weights[t2] * pr.v[(first + t2) * sh.KV * DV + sh.kv_head(h) * DV + i];
          heads_out[row * H * DV + h * DV + i] = acc;
        }
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

// The reference of each family: its parameters and its forward pass in each scalar type.
struct ReferenceFamily {
  Family family;
  std::span<const awb_param_decl* const> params;
  void (*f64)(const awb_problem&, awb_results&, VariantKind);
  void (*f32)(const awb_problem&, awb_results&, VariantKind);
};

template <class Rule>
constexpr ReferenceFamily family_row(Family family, std::span<const awb_param_decl* const> params) {
  return {family, params, &forward<double, Rule>, &forward<float, Rule>};
}

constexpr ReferenceFamily kReferenceFamilies[] = {
    family_row<SoftmaxRule>(Family::kSoftmax, {}),
    family_row<SlidingWindowRule>(Family::kSlidingWindow, kSlidingWindowParams),
    family_row<LinearRule>(Family::kLinear, kLinearParams),
};

constexpr bool families_in_enum_order() {
  for (size_t i = 0; i < std::size(kReferenceFamilies); ++i)
    if (kReferenceFamilies[i].family != static_cast<Family>(i)) return false;
  return true;
}
static_assert(std::size(kReferenceFamilies) == enum_size<Family>(),
              "every Family needs its reference in kReferenceFamilies");
static_assert(families_in_enum_order(), "kReferenceFamilies lists the families in enum order");

const ReferenceFamily& reference_of(Family family) {
  return kReferenceFamilies[static_cast<size_t>(family)];
}

}  // namespace

std::span<const awb_param_decl* const> parameters(Family family) {
  return reference_of(family).params;
}

void attention_forward(const awb_problem& problem, awb_results& results, VariantKind kind) {
  require(problem.x.data != nullptr && problem.x.rank == 2, "X must be a T x d_model matrix");
  const ReferenceFamily& reference = reference_of(family_of(kind));
  if (problem.scalar == AWB_SCALAR_F64) {
    reference.f64(problem, results, kind);
  } else if (problem.scalar == AWB_SCALAR_F32) {
    reference.f32(problem, results, kind);
  } else {
    throw std::invalid_argument("unknown scalar type");
  }
}

}  // namespace awb::reference
