// property_checks.cpp: properties every correct attention has, read from the plugin's own
// outputs (and, at higher strictness, from extra runs on perturbed inputs).
#include <cmath>
#include <cstdio>

#include "graders/checks/check.hpp"
#include "graders/checks/diagnosis.hpp"
#include "graders/checks/measures.hpp"
#include "graders/model/error.hpp"

namespace awb::grade {
namespace {

size_t layer_index(const RunOutput& run, int layer) {
  return layer < 0 ? run.layers.size() - 1 : static_cast<size_t>(layer);
}

Judgement with_diagnosis(Judgement j, const CheckSpec& spec, CheckContext& ctx,
                         const RunOutput& got) {
  if (!j.passed) {
    const size_t l = layer_index(got, spec.layer);
    j.diagnosis =
        diagnose(got.layers[l], nullptr, ctx.base().layer_problem(l, got.layers[l].input));
  }
  return j;
}

Judgement rows_sum_to_one(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& got = ctx.subject_run();
  const auto& weights = layer_of(got, spec.layer).result.weights;
  const double tol = ctx.scalar() == Scalar::kF64 ? 1e-9 : 1e-5;
  Judgement j{true, 0, "every row of A is >= 0 and sums to 1", "", ""};
  for (size_t h = 0; h < weights.size(); ++h) {
    const Matrix& a = weights[h];
    for (int64_t t = 0; t < a.rows; ++t) {
      double sum = 0, low = 0;
      for (int64_t c = 0; c < a.cols; ++c) {
        sum += a(t, c);
        low = std::fmin(low, a(t, c));
      }
      if (!(std::fabs(sum - 1) <= tol) || low < 0) {
        j.passed = false;
        j.summary = "row " + token_name(ctx.base(), t) + " of A" +
                    (weights.size() > 1 ? " (head " + std::to_string(h) + ")" : "") + " sums to " +
                    format_value(sum) +
                    (low < 0 ? " and has a negative weight " + format_value(low) : "");
        return with_diagnosis(j, spec, ctx, got);
      }
    }
  }
  return j;
}

Judgement finite(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& got = ctx.subject_run();
  const LayerRun& l = layer_of(got, spec.layer);
  auto bad = [&](const Matrix& m, const std::string& name) -> std::optional<Judgement> {
    const std::string where = first_non_finite(m);
    if (where.empty()) return std::nullopt;
    return with_diagnosis(Judgement{false, 0, name + " has " + where, "", ""}, spec, ctx, got);
  };
  if (auto j = bad(l.result.z, "Z")) return *j;
  for (const auto& a : l.result.weights)
    if (auto j = bad(a, "A")) return *j;
  for (const auto& s : l.result.scores)
    if (auto j = bad(s, "S")) return *j;
  return {true, 0, "no NaN or Inf in A, S or Z", "", ""};
}

Judgement shape(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& got = ctx.subject_run();
  const size_t li = layer_index(got, spec.layer);
  const ProblemSpec p = ctx.base().layer_problem(li, got.layers[li].input);
  const auto& z = got.layers[li].result.z;
  if (z.rows != p.tokens_count() || z.cols != p.d_out())
    return {false, 0,
            "Z is " + std::to_string(z.rows) + " x " + std::to_string(z.cols) + ", expected " +
                std::to_string(p.tokens_count()) + " x " + std::to_string(p.d_out()),
            "", ""};
  return {true, 0, "Z is " + std::to_string(z.rows) + " x " + std::to_string(z.cols), "", ""};
}

Judgement masked_zero(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& got = ctx.subject_run();
  const auto& weights = layer_of(got, spec.layer).result.weights;
  for (size_t h = 0; h < weights.size(); ++h) {
    const Matrix& a = weights[h];
    for (int64_t t = 0; t < a.rows; ++t)
      for (int64_t c = t + 1; c < a.cols; ++c)
        if (a(t, c) != 0.0)
          return with_diagnosis(
              Judgement{false, 0,
                        "query " + token_name(ctx.base(), t) + " gives weight " +
                            format_value(a(t, c)) + " to the later token " +
                            token_name(ctx.base(), c) + "; masked weights must be exactly 0",
                        "", ""},
              spec, ctx, got);
  }
  return {true, 0, "every weight on a later token is exactly 0", "", ""};
}

bool bitwise_equal(const Matrix& a, const Matrix& b) {
  return a.rows == b.rows && a.cols == b.cols &&
         std::equal(a.data.begin(), a.data.end(), b.data.begin(),
                    [](double x, double y) { return x == y || (std::isnan(x) && std::isnan(y)); });
}

Judgement deterministic(const CheckSpec&, CheckContext& ctx) {
  const RunOutput& first = ctx.subject_run();
  const RunOutput second = ctx.run_subject(ctx.base());
  for (size_t l = 0; l < first.layers.size(); ++l) {
    const auto& a = first.layers[l].result;
    const auto& b = second.layers.at(l).result;
    bool same = bitwise_equal(a.z, b.z);
    for (size_t h = 0; same && h < a.weights.size(); ++h)
      same = bitwise_equal(a.weights[h], b.weights.at(h));
    if (!same)
      return {
          false, 0,
          "a second run on the same input gave different outputs (layer " + std::to_string(l) + ")",
          "",
          "The plugin is not deterministic: look for uninitialised memory, state kept "
          "between calls, or threads racing on a shared accumulator."};
  }
  return {true, 0, "a second run gave bit-identical outputs", "", ""};
}

Judgement causal_no_leak(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& base = ctx.subject_run();
  const RunInput& in = ctx.base();
  const int64_t T = in.x.rows;
  if (T < 2) return {true, 0, "one token: nothing in its future", "", ""};
  const int64_t cut = (T - 1) / 2;  // rows 0..cut must not see rows cut+1..T-1
  RunInput perturbed = in;
  for (int64_t t = cut + 1; t < T; ++t)
    for (int64_t c = 0; c < in.x.cols; ++c)
      perturbed.x(t, c) += 0.75 * std::sin(1.0 + 3.0 * double(t) + 7.0 * double(c));
  const RunOutput other = ctx.run_subject(perturbed);
  const size_t li = layer_index(base, spec.layer);
  const auto& z0 = base.layers[li].result.z;
  const auto& z1 = other.layers.at(li).result.z;
  for (int64_t t = 0; t <= cut; ++t)
    for (int64_t c = 0; c < z0.cols; ++c)
      if (!(std::fabs(z0(t, c) - z1(t, c)) <= 1e-12 + 1e-9 * std::fabs(z0(t, c))))
        return with_diagnosis(
            Judgement{false, 0,
                      "changing tokens after " + token_name(in, cut) + " changed the output of " +
                          token_name(in, t) + " (Z[" + std::to_string(t) + "][" +
                          std::to_string(c) + "]: " + format_value(z0(t, c)) + " -> " +
                          format_value(z1(t, c)) + "): information leaks from the future",
                      "", ""},
            spec, ctx, base);
  return {true, 0,
          "changing tokens after " + token_name(in, cut) + " left every earlier output unchanged",
          "", ""};
}

// Asked for Z alone, the host passes null A and S (awb_plugin.h: the plugin must not write them).
// A write through them faults: plugin.hpp's weights()/scores() throw "... was not requested",
// a raw write through the null pointer crashes the runner. Either fails this check, as does a Z
// that changes when A is not wanted.
Judgement context_alone(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& full = ctx.subject_run();
  const char* kWhy =
      "The plugin writes A or S although the host did not ask for them: their data is NULL when "
      "the host wants Z alone (awb run, compare and bench ask so, and a plugin may then stream "
      "and never hold T x T). Test r.wants_weights() and r.wants_scores() (plugin.hpp), or "
      "results->a.data and s.data (C), before writing either.";
  RunOutput alone;
  try {
    alone = ctx.run_subject_context_only(ctx.base());
  } catch (const Error& e) {
    if (e.id() != "plugin.forward_failed" && e.id() != "runner.crashed") throw;
    return {false, 0, "asked for Z alone (A and S not requested): " + e.message(), "", kWhy};
  }
  const size_t li = layer_index(full, spec.layer);
  const auto& z0 = full.layers[li].result.z;
  const auto& z1 = alone.layers.at(li).result.z;
  const double tol = ctx.scalar() == Scalar::kF64 ? 1e-9 : 1e-4;
  for (int64_t t = 0; t < z0.rows; ++t)
    for (int64_t c = 0; c < z0.cols; ++c)
      if (z1.rows != z0.rows || z1.cols != z0.cols ||
          !(std::fabs(z1(t, c) - z0(t, c)) <= tol * (1 + std::fabs(z0(t, c)))))
        return {
            false, 0,
            "asked for Z alone (A and S not requested), Z changed: Z[" + std::to_string(t) + "][" +
                std::to_string(c) + "] " + format_value(z0(t, c)) + " -> " +
                (z1.rows == z0.rows && z1.cols == z0.cols ? format_value(z1(t, c))
                                                          : std::string("a Z of another shape")),
            "",
            "Z depends on whether A and S are wanted: the path that skips them (a streaming "
            "softmax, say) computes something else, or leaves Z unwritten."};
  return {true, 0, "asked for Z alone (A and S not requested), the plugin returned the same Z", "",
          ""};
}

Judgement permutation_equivariant(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& base = ctx.subject_run();
  const RunInput& in = ctx.base();
  const int64_t T = in.x.rows;
  // A fixed derangement-like order: reverse, then rotate by one.
  std::vector<int64_t> perm(static_cast<size_t>(T));
  for (int64_t i = 0; i < T; ++i) perm[size_t(i)] = (T - 1 - i + 1) % T;
  RunInput shuffled = in;
  for (int64_t i = 0; i < T; ++i) {
    for (int64_t c = 0; c < in.x.cols; ++c) shuffled.x(i, c) = in.x(perm[size_t(i)], c);
    if (!in.tokens.empty()) shuffled.tokens[size_t(i)] = in.tokens[size_t(perm[size_t(i)])];
  }
  const RunOutput other = ctx.run_subject(shuffled);
  const size_t li = layer_index(base, spec.layer);
  const auto& z0 = base.layers[li].result.z;
  const auto& z1 = other.layers.at(li).result.z;
  const double tol = ctx.scalar() == Scalar::kF64 ? 1e-9 : 1e-4;
  for (int64_t i = 0; i < T; ++i)
    for (int64_t c = 0; c < z0.cols; ++c) {
      const double want = z0(perm[size_t(i)], c);
      if (!(std::fabs(z1(i, c) - want) <= tol * (1 + std::fabs(want))))
        return {false, 0,
                "permuting the tokens did not just permute the outputs: " +
                    token_name(in, perm[size_t(i)]) + " moved and its context vector changed (" +
                    format_value(want) + " -> " + format_value(z1(i, c)) + ")",
                "",
                "The output of a token depends on where it sits although there are no "
                "positions: look for an index used in place of a token's own values."};
    }
  return {true, 0, "permuting the tokens permuted the context vectors the same way", "", ""};
}

}  // namespace

void register_property_checks(Registry& r) {
  // A property of outputs that hold a NaN, an Inf or one constant is never "held": each reads
  // the weights or the context (the base run's; the reruns are compared against it).
  const unsigned weights = kReadsWeights, context = kReadsContext;
  const CheckKind kind = CheckKind::kProperty;
  r.add({.kind = kind,
         .name = "rows_sum_to_one",
         .description = "every row of A is ≥ 0 and sums to 1 (within 1e-9 in f64, 1e-5 in f32)",
         .reads = weights,
         .judge = rows_sum_to_one});
  r.add({.kind = kind,
         .name = "finite",
         .description = "no NaN or Inf in A, S or Z",
         .reads = weights | kReadsScores | context,
         .judge = finite});
  r.add({.kind = kind,
         .name = "shape",
         .description = "Z is T × d_out (the host checks shapes before anything else; this makes "
                        "it a scored check)",
         .reads = context,
         .judge = shape});
  r.add({.kind = kind,
         .name = "masked_zero",
         .description = "with the causal mask, A[t, t2] is exactly 0 for every t2 > t",
         .needs_causal = true,
         .reads = weights,
         .judge = masked_zero});
  r.add({.kind = kind,
         .name = "deterministic",
         .description = "a second run gives bit-identical outputs",
         .strictness = 2,
         .reads = weights | context,
         .judge = deterministic});
  r.add({.kind = kind,
         .name = "causal_no_leak",
         .description = "changing the embeddings of tokens after t changes no output row ≤ t",
         .strictness = 2,
         .needs_causal = true,
         .reads = context,
         .judge = causal_no_leak});
  r.add({.kind = kind,
         .name = "context_alone",
         .description = "asked for Z alone (A and S not requested: null, which the plugin must not "
                        "write), the call succeeds and Z is the same (relative 1e-9 in f64, 1e-4 "
                        "in f32); a write through the null A or S faults (plugin.hpp throws, a raw "
                        "write crashes the runner) and fails the check",
         .reads = context,
         .judge = context_alone});
  r.add({.kind = kind,
         .name = "permutation_equivariant",
         .description = "permuting the rows of X permutes the output rows the same way (relative "
                        "1e-9 in f64, 1e-4 in f32); not with the causal mask",
         .strictness = 2,
         .forbids_causal = true,
         .reads = context,
         .judge = permutation_equivariant});
}

}  // namespace awb::grade
