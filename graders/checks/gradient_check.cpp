// gradient_check.cpp: the `gradient` check: a subject's backward pass against the reference
// backward, after the reference itself has been checked against central finite differences.
#include <algorithm>
#include <cmath>
#include <sstream>

#include "graders/checks/check.hpp"
#include "graders/checks/finite_difference.hpp"
#include "graders/checks/gradient_diagnosis.hpp"
#include "graders/checks/measures.hpp"
#include "graders/model/error.hpp"
#include "graders/reference/reference_gradients.hpp"

namespace awb::grade {
namespace {

// A fixed, irregular upstream gradient: every entry of dZ and dA non-zero and of mixed sign, so
// each path through the backward pass carries something. Deterministic: same on every machine.
BackwardSeed probe_upstream(const ProblemSpec& p, const ForwardResult& f) {
  BackwardSeed up;
  up.dz = Matrix(f.z.rows, f.z.cols);
  for (int64_t t = 0; t < up.dz.rows; ++t)
    for (int64_t o = 0; o < up.dz.cols; ++o) up.dz(t, o) = std::sin(0.7 + 1.3 * t + 2.1 * o);
  const int64_t T_ = p.tokens_count();
  for (size_t h = 0; h < f.weights.size(); ++h) {
    Matrix da(T_, T_);
    for (int64_t t = 0; t < T_; ++t)
      for (int64_t t2 = 0; t2 < T_; ++t2)
        da(t, t2) = 0.5 * std::cos(0.3 + 0.9 * h + 1.7 * t + 0.4 * t2);
    up.da.push_back(std::move(da));
  }
  return up;
}

struct TensorVerdict {
  size_t differing = 0;
  std::string largest;  // "dW_q[2][1]: got 0.3 vs expected 0.1"
};

// In f32 an entry passes within the f32 rule (f32_bound: twice the f32 reference's own error plus
// 4 ulp), or within its rounding bound (`rounding`: what any correct f32 evaluation may err by,
// in any order of its sums and with or without fused multiply-adds; the rule alone is a few ulp
// too tight where the f32 reference happens to round luckily).
TensorVerdict compare(const std::string& name, const Matrix& got, const Matrix& expected,
                      const Matrix* expected32, const Matrix* rounding, const F64Tolerance& tol) {
  TensorVerdict v;
  if (got.rows != expected.rows || got.cols != expected.cols) {
    v.differing = expected.data.size();
    v.largest = name + ": shape " + std::to_string(got.rows) + " x " + std::to_string(got.cols) +
                " vs " + std::to_string(expected.rows) + " x " + std::to_string(expected.cols);
    return v;
  }
  if (!expected32 && within_f64(got.data, expected.data, tol)) return v;
  const double bound32 = expected32 ? f32_bound(expected32->data, expected.data) : 0;
  double worst = -1;
  for (int64_t r = 0; r < expected.rows; ++r)
    for (int64_t c = 0; c < expected.cols; ++c) {
      const double g = got(r, c), e = expected(r, c);
      const double diff = std::isfinite(g) ? std::fabs(g - e) : INFINITY;
      const double allowed = expected32 ? std::max(bound32, rounding ? (*rounding)(r, c) : 0.0)
                                        : tol.atol + tol.rtol * std::fabs(e);
      if (diff <= allowed) continue;
      ++v.differing;
      if (diff > worst) {
        worst = diff;
        v.largest = name + "[" + std::to_string(r) + "][" + std::to_string(c) + "]: got " +
                    format_value(g) + " vs expected " + format_value(e);
      }
    }
  return v;
}

Judgement judge_gradient(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& ref = ctx.reference_run(Scalar::kF64);
  const size_t l = spec.layer < 0 ? ref.layers.size() - 1 : static_cast<size_t>(spec.layer);
  const LayerRun& layer = ref.layers.at(l);
  const ProblemSpec problem = ctx.base().layer_problem(l, layer.input);
  const BackwardSeed up = probe_upstream(problem, layer.result);
  const LayerGradients expected = reference::gradients_of(problem, up, Scalar::kF64);
  const std::string tag = ctx.base().layers.size() > 1 ? "layer " + std::to_string(l) + ": " : "";

  // The reference is checked before it judges: a wrong reference backward is the grader's fault
  // and must not fail a student.
  const auto probes = finite_difference_probes(problem, up, expected, [](const ProblemSpec& p) {
    return reference::forward_of(p, Scalar::kF64);
  });
  for (const auto& pr : probes)
    if (!pr.agrees)
      throw Error("reference.gradient",
                  "the reference backward disagrees with finite differences at " + pr.tensor + "[" +
                      std::to_string(pr.row) + "][" + std::to_string(pr.col) +
                      "]: " + format_value(pr.analytic) + " vs " + format_value(pr.numeric));

  const LayerGradients got = ctx.subject_backward(problem, up);
  std::optional<LayerGradients> expected32, rounding;
  if (ctx.scalar() == Scalar::kF32) {
    expected32 = reference::gradients_of(problem, up, Scalar::kF32);
    rounding = reference::f32_rounding_bounds(problem, up);
  }
  const auto g = gradient_tensors(got), e = gradient_tensors(expected);
  const auto e32 = expected32 ? gradient_tensors(*expected32)
                              : std::vector<std::pair<std::string, const Matrix*>>{};
  const auto r32 =
      rounding ? gradient_tensors(*rounding) : std::vector<std::pair<std::string, const Matrix*>>{};
  Judgement j;
  if (g.size() != e.size()) {
    j.summary = tag + "the backward returned " + std::to_string(g.size()) + " gradients; " +
                std::to_string(e.size()) + " were asked for";
    return j;
  }
  std::ostringstream d;
  std::string wrong, all;
  size_t matched = 0;
  for (size_t i = 0; i < e.size(); ++i) {
    const std::string& name = e[i].first;
    all += (all.empty() ? "" : ", ") + name;
    const TensorVerdict v =
        compare(name, *g[i].second, *e[i].second, expected32 ? e32[i].second : nullptr,
                rounding ? r32[i].second : nullptr, spec.tolerance);
    const size_t n = e[i].second->data.size();
    if (v.differing == 0) {
      ++matched;
      d << "  " << name << ": matches (" << n << " entries)\n";
      continue;
    }
    wrong += (wrong.empty() ? "" : ", ") + name;
    d << "  " << name << ": " << v.differing << " of " << n << " entries differ; largest at "
      << v.largest << "\n";
  }
  j.passed = matched == e.size();
  j.partial = double(matched) / double(e.size());
  const std::string fd = " (the reference agrees with finite differences at " +
                         std::to_string(probes.size()) + " probes)";
  if (j.passed) {
    j.summary = tag + all + " match the reference backward" + fd;
    return j;
  }
  j.summary = tag + wrong + " differ from the reference backward (" +
              std::to_string(e.size() - matched) + " of " + std::to_string(e.size()) +
              " gradients)";
  j.details = d.str();
  j.diagnosis = diagnose_gradients(problem, up, got, expected);
  return j;
}

}  // namespace

void register_gradient_checks(Registry& r) {
  r.add({.kind = CheckKind::kGradient,
         .name = "gradient",
         .description = "the backward pass's dX and weight gradients match the reference "
                        "backward, itself checked against central finite differences",
         .keys = {{"tolerance", KeyType::kTolerance}},
         .needs_backward = true,
         .judge = judge_gradient});
}

}  // namespace awb::grade
