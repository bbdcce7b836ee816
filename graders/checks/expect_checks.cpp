// expect_checks.cpp: the `expect` predicates: the lesson's claims, each read off one run.
#include <cmath>
#include <cstdio>

#include "graders/checks/check.hpp"
#include "graders/checks/measures.hpp"

namespace awb::grade {
namespace {

struct View {
  const RunInput& in;
  const LayerRun& layer;
  const Matrix& a;
};

View view(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& run = ctx.subject_run();
  return {ctx.base(), layer_of(run, spec.layer), weights_of(run, spec.layer, spec.head)};
}

std::string tok(const CheckContext& ctx, int64_t i) { return token_name(ctx.base(), i); }

Judgement verdict(bool ok, std::string summary) { return {ok, 0, std::move(summary), "", ""}; }

// A key tied with another for the largest weight is not "the" argmax: a constant row has none.
Judgement argmax_is(const CheckSpec& s, CheckContext& ctx) {
  const View v = view(s, ctx);
  if (rank_in_row(v.a, s.query, s.key) == 0)
    return verdict(true, tok(ctx, s.query) + " attends most to " + tok(ctx, s.key) + " (" +
                             format_value(v.a(s.query, s.key)) + ")");
  int64_t rival = -1;  // the first other key at least as large: the best, or a tie
  for (int64_t c = 0; c < v.a.cols; ++c)
    if (c != s.key && (rival < 0 || v.a(s.query, c) > v.a(s.query, rival))) rival = c;
  const bool tie = v.a(s.query, rival) == v.a(s.query, s.key);
  return verdict(
      false,
      tok(ctx, s.query) +
          (tie ? " gives " + tok(ctx, s.key) + " and " + tok(ctx, rival) + " the same weight ("
               : " attends most to " + tok(ctx, rival) + " (") +
          format_value(v.a(s.query, rival)) + ")" +
          (tie ? ": a tie is no argmax; expected " + tok(ctx, s.key) + " alone"
               : "; expected " + tok(ctx, s.key) + " (" + format_value(v.a(s.query, s.key)) + ")"));
}

Judgement in_top_k(const CheckSpec& s, CheckContext& ctx) {
  const View v = view(s, ctx);
  const int64_t rank = rank_in_row(v.a, s.query, s.key);
  return verdict(rank < s.k, tok(ctx, s.key) + " is number " + std::to_string(rank + 1) +
                                 " in the weights of " + tok(ctx, s.query) + " (" +
                                 format_value(v.a(s.query, s.key)) + ", ties ranked above it)" +
                                 "; expected within the top " + std::to_string(s.k));
}

Judgement weight_above(const CheckSpec& s, CheckContext& ctx) {
  const double w = view(s, ctx).a(s.query, s.key);
  return verdict(w > s.value, "A[" + tok(ctx, s.query) + ", " + tok(ctx, s.key) +
                                  "] = " + format_value(w) +
                                  (w > s.value ? " > " : " is not above ") + format_value(s.value));
}

Judgement weight_below(const CheckSpec& s, CheckContext& ctx) {
  const double w = view(s, ctx).a(s.query, s.key);
  return verdict(w < s.value, "A[" + tok(ctx, s.query) + ", " + tok(ctx, s.key) +
                                  "] = " + format_value(w) +
                                  (w < s.value ? " < " : " is not below ") + format_value(s.value));
}

// The key is the query's, not everyone's: A[query, key] > value while every other row keeps its
// weight on key below value (a key every row looks at says nothing about the query).
Judgement only_query_above(const CheckSpec& s, CheckContext& ctx) {
  const View v = view(s, ctx);
  const double w = v.a(s.query, s.key);
  const std::string own =
      "A[" + tok(ctx, s.query) + ", " + tok(ctx, s.key) + "] = " + format_value(w);
  if (!(w > s.value)) return verdict(false, own + " is not above " + format_value(s.value));
  for (int64_t t = 0; t < v.a.rows; ++t)
    if (t != s.query && !(v.a(t, s.key) < s.value))
      return verdict(false, own + ", but A[" + tok(ctx, t) + ", " + tok(ctx, s.key) +
                                "] = " + format_value(v.a(t, s.key)) + " is not below " +
                                format_value(s.value) + " either");
  return verdict(true, own + " > " + format_value(s.value) + "; every other row's is below " +
                           format_value(s.value));
}

Judgement weight_greater(const CheckSpec& s, CheckContext& ctx) {
  const View v = view(s, ctx);
  const double w = v.a(s.query, s.key), other = v.a(s.query, s.than);
  return verdict(w > other, tok(ctx, s.query) + " gives " + tok(ctx, s.key) + " " +
                                format_value(w) + " and " + tok(ctx, s.than) + " " +
                                format_value(other));
}

Judgement entropy_bound(const CheckSpec& s, CheckContext& ctx, bool below) {
  const View v = view(s, ctx);
  for (int64_t t = 0; t < v.a.rows; ++t) {
    if (!s.all_rows && t != s.query) continue;
    const double h = row_entropy(v.a, t);
    const bool ok = below ? h < s.value : h > s.value;
    if (!ok)
      return verdict(false, "entropy of the row of " + tok(ctx, t) + " is " + format_value(h) +
                                " nats, expected " + (below ? "below " : "above ") +
                                format_value(s.value));
  }
  return verdict(true, std::string(s.all_rows ? "every row's" : "the row's") + " entropy is " +
                           (below ? "below " : "above ") + format_value(s.value) + " nats");
}

Judgement uniform_rows(const CheckSpec& s, CheckContext& ctx) {
  const double tol = s.tolerance.atol;  // an expect tolerance is absolute
  const View v = view(s, ctx);
  const bool causal = ctx.base().params.causal;
  for (int64_t t = 0; t < v.a.rows; ++t) {
    const int64_t visible = causal ? t + 1 : v.a.cols;
    for (int64_t c = 0; c < visible; ++c)
      if (!(std::fabs(v.a(t, c) - 1.0 / double(visible)) <= tol))
        return verdict(false, "A[" + tok(ctx, t) + ", " + tok(ctx, c) + "] = " +
                                  format_value(v.a(t, c)) + ", not within " + format_value(tol) +
                                  " of the uniform 1/" + std::to_string(visible));
  }
  return verdict(true, "every row is uniform within " + format_value(tol));
}

Judgement one_hot_rows(const CheckSpec& s, CheckContext& ctx) {
  const double tol = s.tolerance.atol;  // an expect tolerance is absolute
  const View v = view(s, ctx);
  for (int64_t t = 0; t < v.a.rows; ++t) {
    const double top = v.a(t, row_argmax(v.a, t));
    if (!(top > 1.0 - tol))
      return verdict(false, "the largest weight of " + tok(ctx, t) + " is " + format_value(top) +
                                ", expected above " + format_value(1.0 - tol));
  }
  return verdict(true, "every row puts more than " + format_value(1.0 - tol) + " on one token");
}

Judgement context_close(const CheckSpec& s, CheckContext& ctx) {
  const double tol = s.tolerance.atol;  // an expect tolerance is absolute
  const View v = view(s, ctx);
  const auto z = row_of(v.layer.result.z, s.query);
  double worst = 0;
  std::string got;
  for (size_t i = 0; i < z.size(); ++i) {
    // Not fmax: it drops a NaN, and a NaN entry is as far from the value as can be.
    const double d = i < s.vector_value.size() ? std::fabs(z[i] - s.vector_value[i]) : INFINITY;
    if (!(d <= worst)) worst = std::isnan(d) ? INFINITY : d;
    got += (i ? ", " : "") + format_value(z[i]);
  }
  if (z.size() != s.vector_value.size()) worst = INFINITY;
  return verdict(worst <= tol, "context vector of " + tok(ctx, s.query) + " is [" + got +
                                   "], max difference " + format_value(worst) + " (allowed " +
                                   format_value(tol) + ")");
}

Judgement cosine_closer_to(const CheckSpec& s, CheckContext& ctx) {
  const View v = view(s, ctx);
  const auto z = row_of(v.layer.result.z, s.query);
  const double c_to = cosine(z, row_of(v.layer.input, s.to));
  const double c_than = cosine(z, row_of(v.layer.input, s.than));
  return verdict(c_to > c_than, "the context vector of " + tok(ctx, s.query) + " has cosine " +
                                    format_value(c_to) + " with " + tok(ctx, s.to) + " and " +
                                    format_value(c_than) + " with " + tok(ctx, s.than));
}

Judgement scores_asymmetric(const CheckSpec& s, CheckContext& ctx) {
  const Matrix& sc = scores_of(ctx.subject_run(), s.layer, s.head);
  const double fwd = sc(s.query, s.key), back = sc(s.key, s.query);
  return verdict(fwd - back > s.margin, "S[" + tok(ctx, s.query) + ", " + tok(ctx, s.key) +
                                            "] = " + format_value(fwd) + ", S[" + tok(ctx, s.key) +
                                            ", " + tok(ctx, s.query) + "] = " + format_value(back) +
                                            " (margin wanted " + format_value(s.margin) + ")");
}

Judgement scores_symmetric(const CheckSpec& s, CheckContext& ctx) {
  const double tol = s.tolerance.atol;  // an expect tolerance is absolute
  const Matrix& sc = scores_of(ctx.subject_run(), s.layer, s.head);
  for (int64_t i = 0; i < sc.rows; ++i)
    for (int64_t j = i + 1; j < sc.cols; ++j)
      if (!(std::fabs(sc(i, j) - sc(j, i)) <= tol))
        return verdict(false, "S[" + tok(ctx, i) + ", " + tok(ctx, j) +
                                  "] = " + format_value(sc(i, j)) + " but S[" + tok(ctx, j) + ", " +
                                  tok(ctx, i) + "] = " + format_value(sc(j, i)));
  return verdict(true, "S equals its transpose within " + format_value(tol));
}

Judgement monotone(const CheckSpec& s, CheckContext& ctx) {
  std::vector<double> readings;
  std::string trace;
  for (double value : s.sweep.values) {
    RunInput in = ctx.base();
    in.params.sharpness = value;  // the loader only admits sharpness sweeps in version 1
    const RunOutput run = ctx.run_subject(in);
    const Matrix& a = weights_of(run, s.layer, s.head);
    if (const std::string bad = unjudgeable(layer_of(run, s.layer), kReadsWeights, s.head);
        !bad.empty())
      return verdict(false, "at " + s.sweep.parameter + " " + format_value(value) +
                                " the run cannot be judged: " + bad);
    const int64_t q = s.measure.query;
    double m = 0;
    if (s.measure.metric == "entropy")
      m = row_entropy(a, q);
    else if (s.measure.metric == "max_weight")
      m = a(q, row_argmax(a, q));
    else
      m = a(q, s.measure.key);
    readings.push_back(m);
    trace += (trace.empty() ? "" : ", ") + s.sweep.parameter + " " + format_value(value) + " -> " +
             format_value(m);
  }
  const bool up = s.direction == Direction::kIncreasing;
  for (size_t i = 1; i < readings.size(); ++i)
    if (!(up ? readings[i] > readings[i - 1] : readings[i] < readings[i - 1]))
      return verdict(false, s.measure.metric + " is not " + to_string(s.direction) + ": " + trace);
  return verdict(true, s.measure.metric + " is " + to_string(s.direction) + ": " + trace);
}

// An expect predicate: every one reads one head's outputs (`head`, default 0).
CheckDef predicate(CheckDef def) {
  def.kind = CheckKind::kExpect;
  def.keys.push_back({"head", KeyType::kHead});
  return def;
}

}  // namespace

// Long for a reason: one registration per check, each with its parameters, as a table.
void register_expect_checks(Registry& r) {
  const unsigned weights = kReadsWeights, context = kReadsContext, scores = kReadsScores;
  // The keys the predicates take, required unless said otherwise.
  const CheckKey query{"query", KeyType::kToken, true}, key{"key", KeyType::kToken, true},
      than{"than", KeyType::kToken, true}, to{"to", KeyType::kToken, true},
      k{"k", KeyType::kCount, true}, value{"value", KeyType::kNumber, true},
      margin{"margin", KeyType::kNumber, true},
      tolerance{"tolerance", KeyType::kAbsTolerance, true};
  r.add(
      predicate({.name = "argmax_is",
                 .description =
                     "`key` has the largest weight in `query`'s row, strictly (a tie is no argmax)",
                 .keys = {query, key},
                 .reads = weights,
                 .judge = argmax_is}));
  r.add(
      predicate({.name = "in_top_k",
                 .description = "fewer than `k` other weights of `query`'s row are ≥ A[query, key]",
                 .keys = {query, key, k},
                 .reads = weights,
                 .judge = in_top_k}));
  r.add(predicate({.name = "weight_above",
                   .description = "A[query, key] > value",
                   .keys = {query, key, value},
                   .reads = weights,
                   .judge = weight_above}));
  r.add(predicate({.name = "weight_below",
                   .description = "A[query, key] < value",
                   .keys = {query, key, value},
                   .reads = weights,
                   .judge = weight_below}));
  r.add(predicate({.name = "only_query_above",
                   .description = "A[query, key] > value, and A[t, key] < value for every other "
                                  "row t: the key is the query's, not every row's",
                   .keys = {query, key, value},
                   .reads = weights,
                   .judge = only_query_above}));
  r.add(predicate({.name = "weight_greater",
                   .description = "A[query, key] > A[query, than]",
                   .keys = {query, key, than},
                   .reads = weights,
                   .judge = weight_greater}));
  // One row's entropy, or every row's: query and all_rows are each optional, one is needed.
  const std::vector<CheckKey> entropy_keys = {
      value, {"query", KeyType::kToken}, {"all_rows", KeyType::kBoolean}};
  r.add(predicate(
      {.name = "entropy_below",
       .description = "row entropy (nats) < value",
       .keys = entropy_keys,
       .needs_query_or_all_rows = true,
       .reads = weights,
       .judge = [](const CheckSpec& s, CheckContext& c) { return entropy_bound(s, c, true); }}));
  r.add(predicate(
      {.name = "entropy_above",
       .description = "row entropy (nats) > value",
       .keys = entropy_keys,
       .needs_query_or_all_rows = true,
       .reads = weights,
       .judge = [](const CheckSpec& s, CheckContext& c) { return entropy_bound(s, c, false); }}));
  r.add(
      predicate({.name = "uniform_rows",
                 .description = "every row is within `tolerance` of 1/T (of 1/visible when causal)",
                 .keys = {tolerance},
                 .reads = weights,
                 .judge = uniform_rows}));
  r.add(predicate({.name = "one_hot_rows",
                   .description = "every row's largest weight is > 1 − `tolerance`",
                   .keys = {tolerance},
                   .reads = weights,
                   .judge = one_hot_rows}));
  r.add(predicate({.name = "context_close",
                   .description = "Z[query] is within `tolerance` (max abs) of `value`",
                   .keys = {query, {"value", KeyType::kVector, true}, tolerance},
                   .reads = context,
                   .judge = context_close}));
  r.add(predicate(
      {.name = "cosine_closer_to",
       .description = "cos(Z[query], x[to]) > cos(Z[query], x[than]) (x: the layer's input)",
       .keys = {query, to, than},
       .reads = context,
       .judge = cosine_closer_to}));
  r.add(predicate({.name = "scores_asymmetric",
                   .description = "S[query, key] − S[key, query] > margin",
                   .keys = {query, key, margin},
                   .reads = scores,
                   .judge = scores_asymmetric}));
  r.add(predicate({.name = "scores_symmetric",
                   .description = "S equals Sᵀ within `tolerance`",
                   .keys = {tolerance},
                   .reads = scores,
                   .judge = scores_symmetric}));
  // A sweep reads runs of its own; monotone() looks at each of them.
  r.add(predicate({.name = "monotone",
                   .description = "the measure moves in `direction` over the sweep",
                   .keys = {{"sweep", KeyType::kSweep, true},
                            {"measure", KeyType::kMeasure, true},
                            {"direction", KeyType::kDirection, true}},
                   .reads = 0,
                   .judge = monotone}));
}

}  // namespace awb::grade
