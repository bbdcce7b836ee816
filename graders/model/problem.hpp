// problem.hpp: one attention problem as the host models it, and its shape rules.
#ifndef AWB_GRADERS_MODEL_PROBLEM_HPP_
#define AWB_GRADERS_MODEL_PROBLEM_HPP_

#include <optional>
#include <string>
#include <vector>

#include "graders/model/names.hpp"
#include "graders/model/params.hpp"
#include "graders/model/tensor.hpp"
#include "graders/model/variant_kinds.hpp"

namespace awb {

// Element type a problem is run in.
enum class Scalar { kF64, kF32 };
inline constexpr std::array<EnumName<Scalar>, 2> kScalarNames{{
    {Scalar::kF64, "f64"},
    {Scalar::kF32, "f32"},
}};
static_assert(names_every_value(kScalarNames));
constexpr const auto& enum_names(Scalar) { return kScalarNames; }
constexpr const char* to_string(Scalar s) { return name_in(kScalarNames, s); }

// kAuto: 1/sqrt(d_k) when the problem has projections, none when it is parameter-free.
enum class ScaleMode { kAuto, kNone, kInvSqrtDk };
inline constexpr std::array<EnumName<ScaleMode>, 3> kScaleModeNames{{
    {ScaleMode::kAuto, "auto"},
    {ScaleMode::kNone, "none"},
    {ScaleMode::kInvSqrtDk, "inv_sqrt_dk"},
}};
static_assert(names_every_value(kScaleModeNames));
constexpr const auto& enum_names(ScaleMode) { return kScaleModeNames; }
constexpr const char* to_string(ScaleMode mode) { return name_in(kScaleModeNames, mode); }

struct ProblemSpec {
  std::vector<std::string> tokens;      // labels, one per row of x
  Matrix x;                             // B·T × d_model: sequence b in rows [b·T, (b+1)·T)
  std::optional<Matrix> w_q, w_k, w_v;  // d_model × h·d_k, d_model × g·d_k, d_model × g·d_v
  std::optional<Matrix> w_o;            // h·d_v × d_out
  int heads = 1;
  // Key/value heads g (grouped-query attention: query head j reads key/value head j / (h / g));
  // 0 means h, ordinary multi-head attention.
  int kv_heads = 0;
  // B sequences of T tokens each, side by side in x's rows, sharing the weights (SDK 1.3).
  int batch = 1;
  // The padding mask: in sequence b only the first lengths[b] tokens are real (queries and keys
  // beyond take no part; their rows of Z, and rows and columns of A and S, are 0). Empty: every
  // sequence is T tokens long.
  std::vector<int64_t> lengths;
  bool causal = false;
  double sharpness = 1.0;
  ScaleMode scale = ScaleMode::kAuto;
  Family family = Family::kSoftmax;
  ParamValues params{};  // the variant's parameters as written; each subject resolves its own

  bool has_projections() const { return w_q && w_k && w_v; }
  int64_t tokens_count() const { return x.rows; }             // rows of X and Z: B·T
  int64_t sequence_tokens() const { return x.rows / batch; }  // T
  bool batched() const { return batch > 1 || !lengths.empty(); }
  int64_t planes() const { return int64_t(heads) * batch; }  // of A and S: B·h
  int64_t d_model() const { return x.cols; }
  int kv_head_count() const { return kv_heads > 0 ? kv_heads : heads; }
  bool grouped() const { return kv_head_count() < heads; }
  int64_t d_k() const { return has_projections() ? w_q->cols / heads : x.cols; }
  int64_t d_v() const { return has_projections() ? w_v->cols / kv_head_count() : x.cols; }
  ScaleMode resolved_scale() const {
    if (scale != ScaleMode::kAuto) return scale;
    return has_projections() ? ScaleMode::kInvSqrtDk : ScaleMode::kNone;
  }
  // Width of Z: W_o's columns, else h·d_v, else d_model.
  int64_t d_out() const;
};

// Checks every shape rule of awb_plugin.h; throws awb::Error("problem.*") naming the mismatch.
void validate(const ProblemSpec& spec);

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_PROBLEM_HPP_
