// bench.cpp: byte counts of a bench point, its parameters and cost model, and its timing.
#include "core/bench/bench.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <tuple>
#include <vector>

#include "core/bench/peak_memory.hpp"
#include "core/bench/statistics.hpp"
#include "graders/model/abi_buffers.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

bool has(uint64_t caps, uint64_t bit) { return (caps & bit) != 0; }

}  // namespace

int64_t BenchShape::length(int b) const {
  const double share = batch > 1 ? padding * double(b) / double(batch - 1) : padding;
  const auto kept = static_cast<int64_t>(std::floor(double(tokens) * (1 - share) + 0.5));
  return std::clamp<int64_t>(kept, 1, tokens);
}

namespace {

// Widths of a point on a variant: d_model, and whether it reads weights and W_o.
struct Layout {
  int64_t d_model;
  bool projected;
  bool output_projection;
};

Layout layout(const BenchShape& s, uint64_t caps) {
  const bool projected = has(caps, AWB_CAP_QKV);
  return {projected ? s.heads * s.d : s.d, projected,
          projected && s.w_o && has(caps, AWB_CAP_OUTPUT_PROJ)};
}

// The host's buffers for one point, filled once with random values. Weights are scaled by
// 1/sqrt(d_model) so that the scores stay of order one, as in a trained model.
template <class T>
struct PointBuffers {
  std::vector<T> x, wq, wk, wv, wo, z, a, s;
  std::vector<T> dz, dx, dwq, dwk, dwv, dwo;  // a backward point's
  awb_tensor dz_tensor{};
  awb_gradients grads{};
  std::vector<awb_param_value> params;  // names point into the binding's declarations
  std::vector<int64_t> lengths;         // with padding: each sequence's
  awb_problem problem{};
  awb_results results{};

  PointBuffers(const BenchShape& shape, uint64_t caps, int threads, const ParamBinding& binding) {
    // The parameters first: a value the variant does not take fails before anything is filled.
    const std::vector<double> values = bench_param_values(shape, binding);
    for (size_t i = 0; i < binding.decls.size(); ++i)
      params.push_back(awb_param_value{binding.decls[i].name.c_str(), values[i]});
    const Layout l = layout(shape, caps);
    // Rows of X and Z (every sequence's, side by side) and planes of A and S.
    const int64_t T_ = shape.tokens * shape.batch, H = shape.heads, hd = H * shape.d;
    const int64_t planes = H * shape.batch, T1 = shape.tokens;
    std::mt19937 rng(20261129);
    std::uniform_real_distribution<double> unit(-1.0, 1.0);
    auto fill = [&](std::vector<T>& v, size_t n, double scale) {
      v.resize(n);
      for (T& e : v) e = static_cast<T>(unit(rng) * scale);
    };
    problem.struct_size = sizeof(awb_problem);
    problem.scalar = std::is_same_v<T, double> ? AWB_SCALAR_F64 : AWB_SCALAR_F32;
    problem.n_heads = shape.heads;
    problem.n_kv_heads = l.projected ? shape.kv_head_count() : 0;
    problem.causal = shape.causal ? 1 : 0;
    problem.scale_mode = AWB_SCALE_INV_SQRT_DK;
    problem.n_threads = threads;
    problem.sharpness = 1.0;
    problem.n_params = params.size();
    problem.params = params.empty() ? nullptr : params.data();
    problem.batch = shape.batch;
    if (shape.padding > 0) {
      for (int b = 0; b < shape.batch; ++b) lengths.push_back(shape.length(b));
      problem.lengths = lengths.data();
    }
    fill(x, static_cast<size_t>(T_ * l.d_model), 1.0);
    problem.x = make_tensor(x.data(), 2, {T_, l.d_model, 1});
    const double w_scale = 1.0 / std::sqrt(static_cast<double>(l.d_model));
    int64_t d_out = l.d_model;
    if (l.projected) {
      // W_q has a column block per head, W_k and W_v one per key/value head.
      const int64_t kvd = shape.kv_head_count() * shape.d;
      for (auto [buf, t, cols] : {std::tuple{&wq, &problem.w_q, hd},
                                  {&wk, &problem.w_k, kvd},
                                  {&wv, &problem.w_v, kvd}}) {
        fill(*buf, static_cast<size_t>(l.d_model * cols), w_scale);
        *t = make_tensor(buf->data(), 2, {l.d_model, cols, 1});
      }
      d_out = hd;
      if (l.output_projection) {
        fill(wo, static_cast<size_t>(hd * l.d_model), 1.0 / std::sqrt(static_cast<double>(hd)));
        problem.w_o = make_tensor(wo.data(), 2, {hd, l.d_model, 1});
        d_out = l.d_model;
      }
    }
    results.struct_size = sizeof(awb_results);
    // Outputs are written once here so that their pages are resident before anything is timed.
    z.assign(static_cast<size_t>(T_ * d_out), T(0));
    results.z = make_tensor(z.data(), 2, {T_, d_out, 1});
    if (shape.want_weights) {
      a.assign(static_cast<size_t>(planes * T1 * T1), T(0));
      results.a = make_tensor(a.data(), 3, {planes, T1, T1});
    }
    if (shape.want_scores) {
      s.assign(static_cast<size_t>(planes * T1 * T1), T(0));
      results.s = make_tensor(s.data(), 3, {planes, T1, T1});
    }
    if (shape.backward) add_gradients(l, T_, d_out, fill);
  }

  // dZ (random, as a loss would give) and a gradient buffer for X and each weight given.
  template <class Fill>
  void add_gradients(const Layout& l, int64_t T_, int64_t d_out, Fill& fill) {
    fill(dz, static_cast<size_t>(T_ * d_out), 1.0);
    dz_tensor = make_tensor(dz.data(), 2, {T_, d_out, 1});
    grads.struct_size = sizeof(awb_gradients);
    auto gradient = [](std::vector<T>& buf, const awb_tensor& like) {
      buf.assign(static_cast<size_t>(like.shape[0] * like.shape[1]), T(0));
      return make_tensor(buf.data(), 2, {like.shape[0], like.shape[1], 1});
    };
    grads.dx = gradient(dx, problem.x);
    if (l.projected) {
      grads.dw_q = gradient(dwq, problem.w_q);
      grads.dw_k = gradient(dwk, problem.w_k);
      grads.dw_v = gradient(dwv, problem.w_v);
      if (l.output_projection) grads.dw_o = gradient(dwo, problem.w_o);
    }
  }

  // The problem as a cost model sees it: every shape, flag and parameter, no data.
  awb_problem shapes_only() const {
    awb_problem p = problem;
    for (awb_tensor* t : {&p.x, &p.w_q, &p.w_k, &p.w_v, &p.w_o}) t->data = nullptr;
    return p;
  }
};

// Yardstick GEMMs per point: enough for a median, few enough not to dominate small points.
constexpr int kGemmSamples = 7;

bool enough_calls(const BenchSettings& settings, const std::vector<double>& times, double elapsed) {
  const int n = static_cast<int>(times.size());
  if (settings.reps > 0) return n >= settings.reps;
  // The minimum first: without it there is no interval to report.
  if (n < std::max(1, settings.min_reps)) return false;
  if (n >= settings.max_reps || elapsed >= settings.max_seconds) return true;
  const MedianInterval ci = median_interval(times);
  return ci.coverage >= 0.95 && ci.relative_half_width() <= settings.target;
}

template <class T>
BenchMeasure measure_typed(const ForwardFactory& make, uint64_t caps, const BenchShape& shape,
                           const BenchSettings& settings, Yardstick& yardstick,
                           const ParamBinding& binding) {
  BenchMeasure m;
  m.io_bytes = io_bytes(shape, caps);
  const double n = static_cast<double>(yardstick.gemm_n());
  m.gemm_flops = 2 * n * n * n;
  m.fma_peak_gflops = yardstick.fma_peak_gflops(shape.scalar, settings.threads);
  m.blas_gflops = yardstick.best_gemm_gflops(shape.scalar, settings.threads);
  PointBuffers<T> b(shape, caps, settings.threads, binding);

  // A fresh instance: its first call pays for its workspace and the pages it touches first.
  BenchSubject subject = make();
  if (shape.backward && !subject.backward)
    throw Error("run.cannot_run", "the variant has no backward pass (AWB_EXT_BACKWARD)");
  if (subject.cost) {
    // The variant's own count: the host cannot know what a variant computes (a window, a
    // feature map), so without a model the FLOPs stay NaN.
    try {
      if (const auto c = subject.cost(b.shapes_only(), shape.want_weights)) {
        m.flops = c->flops * (shape.backward ? kForwardBackwardFlops : 1.0);
        m.cost_bytes = c->bytes;
      }
    } catch (const Error& e) {
      m.cost_error = e.what();
    }
  }
  // The timed call: the forward, then (a training step) the backward of its results.
  const RawForward call = [&](const awb_problem& p, awb_results& r) {
    subject.forward(p, r);
    if (shape.backward) subject.backward(p, r, b.dz_tensor, nullptr, b.grads);
  };
  PeakMemoryProbe probe;
  probe.start();
  auto t0 = std::chrono::steady_clock::now();
  call(b.problem, b.results);
  m.first_call = seconds_since(t0);
  m.peak_first = probe.stop();

  // The yardstick before the point's own calls and outside their budget: timed between them, its
  // 25-45 ms GEMMs took most of --quick's 0.25 s and the call after each ran on cold caches.
  std::vector<double> gemms;
  for (int i = 0; i < kGemmSamples; ++i)
    gemms.push_back(yardstick.gemm_seconds(shape.scalar, settings.threads));

  // Then the warm-up, which also brings the point's data back into the caches.
  for (int i = 0; i < settings.warmup; ++i) call(b.problem, b.results);
  probe.start();
  call(b.problem, b.results);
  m.peak_warm = probe.stop();

  // A training step's forward alone is timed after each step, so that the backward's share is
  // a ratio of one run.
  std::vector<double> times;
  const auto start = std::chrono::steady_clock::now();
  while (!enough_calls(settings, times, seconds_since(start))) {
    t0 = std::chrono::steady_clock::now();
    call(b.problem, b.results);
    times.push_back(seconds_since(t0));
    if (!shape.backward) continue;
    t0 = std::chrono::steady_clock::now();
    subject.forward(b.problem, b.results);
    m.forward_samples.push_back(seconds_since(t0));
  }
  if (shape.backward) m.forward_median = median(m.forward_samples);
  m.samples = times;
  m.interval = median_interval(times);
  m.median = m.interval.median;
  m.min = *std::min_element(times.begin(), times.end());
  m.max = *std::max_element(times.begin(), times.end());
  m.gemm_median = median(gemms);
  return m;
}

}  // namespace

ParamBinding bench_binding(const VariantRef& ref) {
  return {ref.variant->params, "variant '" + ref.variant->id + "'", true};
}

std::vector<double> bench_param_values(const BenchShape& shape, const ParamBinding& binding) {
  return resolve_params(binding.decls, shape.params, binding.owner, binding.strict);
}

bool bench_projected(uint64_t caps) { return has(caps, AWB_CAP_QKV); }

int64_t bench_d_out(const BenchShape& s, uint64_t caps) {
  const Layout l = layout(s, caps);
  return l.projected && !l.output_projection ? s.heads * s.d : l.d_model;
}

double materialised_bytes(const BenchShape& s) {
  const double plane = static_cast<double>(s.heads * s.batch) * static_cast<double>(s.tokens) *
                       static_cast<double>(s.tokens) * (s.scalar == Scalar::kF64 ? 8 : 4);
  return plane * ((s.want_weights ? 1 : 0) + (s.want_scores ? 1 : 0));
}

double io_bytes(const BenchShape& s, uint64_t caps) {
  const Layout l = layout(s, caps);
  const double T_ = static_cast<double>(s.tokens * s.batch), dm = static_cast<double>(l.d_model);
  const double hd = static_cast<double>(s.heads * s.d);
  const double kvd = static_cast<double>(s.kv_head_count() * s.d);
  double elements = T_ * dm;  // X
  double d_out = dm;
  if (l.projected) {
    elements += dm * (hd + 2 * kvd);
    d_out = hd;
    if (l.output_projection) {
      elements += hd * dm;
      d_out = dm;
    }
  }
  elements += T_ * d_out;
  // A backward point: dZ and a gradient as large as each input.
  if (s.backward) elements += elements;
  return elements * (s.scalar == Scalar::kF64 ? 8 : 4) + materialised_bytes(s);
}

std::optional<std::string> bench_fit_reason(const BenchShape& s, uint64_t caps) {
  if (s.scalar == Scalar::kF32 && !has(caps, AWB_CAP_F32)) return "the variant has no f32";
  if (s.scalar == Scalar::kF64 && !has(caps, AWB_CAP_F64)) return "the variant has no f64";
  if (s.causal && !has(caps, AWB_CAP_CAUSAL)) return "the variant has no causal mask";
  if (!s.causal && has(caps, AWB_CAP_CAUSAL_ONLY)) return "the variant always masks";
  if (s.heads > 1 && !has(caps, AWB_CAP_MULTI_HEAD)) return "the variant has one head";
  if (s.grouped() && !has(caps, AWB_CAP_GROUPED_KV))
    return "the variant does not share key/value heads (no grouped-kv)";
  if (s.w_o && !(has(caps, AWB_CAP_QKV) && has(caps, AWB_CAP_OUTPUT_PROJ)))
    return "the variant has no output projection W_o";
  return std::nullopt;
}

std::optional<std::string> bench_skip_reason(const BenchShape& s, uint64_t caps,
                                             double budget_bytes) {
  if (auto why = bench_fit_reason(s, caps)) return why;
  if (materialised_bytes(s) > budget_bytes)
    return "A/S would need " + format_bytes(materialised_bytes(s)) +
           ", over the memory budget of " + format_bytes(budget_bytes);
  // Checked before anything is allocated: T, d and heads large enough to exhaust memory.
  if (io_bytes(s, caps) > budget_bytes)
    return "its inputs and outputs would need " + format_bytes(io_bytes(s, caps)) +
           ", over the memory budget of " + format_bytes(budget_bytes);
  return std::nullopt;
}

std::string format_bytes(double bytes) {
  const bool gib = bytes >= 1024.0 * 1024 * 1024;
  char buf[64];
  std::snprintf(buf, sizeof buf, gib ? "%.2f GiB" : "%.1f MiB",
                bytes / (gib ? 1024.0 * 1024 * 1024 : 1024.0 * 1024));
  return buf;
}

ForwardFactory session_factory(const VariantRef& ref, const SessionOptions& options) {
  return [ref, options] {
    // The session's calls (a batch one sequence at a time for a variant without the batch
    // capability), each holding the session alive.
    std::shared_ptr<VariantSession> session = open_session(ref, options);
    auto held = [session](auto fn) {
      return [session, fn = std::move(fn)](auto&&... args) {
        return fn(std::forward<decltype(args)>(args)...);
      };
    };
    CostQuery cost;
    if (ref.variant->has_cost) cost = held(session->cost_raw());
    RawBackward backward;
    if (ref.variant->trainable) backward = held(session->backward_raw());
    return BenchSubject(held(session->as_raw()), std::move(cost), std::move(backward));
  };
}

std::string bench_run_mode(const VariantRef& ref) {
  // The same test open_session makes: a plugin loaded here runs here.
  return ref.plugin->library ? "in-process" : "runner";
}

BenchMeasure measure_point(const ForwardFactory& make, uint64_t capabilities,
                           const BenchShape& shape, const BenchSettings& settings,
                           Yardstick& yardstick, const ParamBinding& params) {
  if (shape.scalar == Scalar::kF64)
    return measure_typed<double>(make, capabilities, shape, settings, yardstick, params);
  return measure_typed<float>(make, capabilities, shape, settings, yardstick, params);
}

BenchPointResult bench_point(const VariantRef& ref, const BenchShape& shape,
                             const BenchSettings& settings, Yardstick& yardstick,
                             double budget_bytes, const SessionOptions& options) {
  BenchPointResult r;
  r.mode = bench_run_mode(ref);
  const uint64_t caps = ref.variant->capabilities;
  if (auto why = bench_skip_reason(shape, caps, budget_bytes)) {
    r.status = "skipped";
    r.note = *why;
    return r;
  }
  if (shape.backward && !ref.variant->trainable) {
    r.status = "skipped";
    r.note = "the variant has no backward pass";
    return r;
  }
  try {
    r.measure = measure_point(session_factory(ref, options), caps, shape, settings, yardstick,
                              bench_binding(ref));
    r.status = "ok";
    if (!r.measure.cost_error.empty()) r.note = "cost model: " + r.measure.cost_error;
  } catch (const Error& e) {
    r.status = "failed";
    r.note = e.what();
  }
  return r;
}

}  // namespace awb::core
