// runner_overhead.cpp: timing runner starts and round trips through the same code grading uses.
#include "core/bench/runner_overhead.hpp"

#include <algorithm>
#include <chrono>

#include "core/bench/statistics.hpp"
#include "core/plugins/forward.hpp"
#include "core/plugins/variant_session.hpp"

namespace awb::core {
namespace {

using Clock = std::chrono::steady_clock;

}  // namespace

Spread spread_of(std::vector<double> s) {
  Spread out;
  if (s.empty()) return out;
  std::sort(s.begin(), s.end());
  const auto at = [&](double q) {
    return s[std::min(s.size() - 1,
                      static_cast<size_t>(q * static_cast<double>(s.size() - 1) + 0.5))];
  };
  out.median = at(0.5);
  out.p95 = at(0.95);
  out.min = s.front();
  out.max = s.back();
  return out;
}

RunnerOverhead measure_runner_overhead(const VariantRef& variant, const VariantRef* in_process,
                                       const ProblemSpec& problem, Scalar scalar,
                                       const RunnerOptions& options, int runs,
                                       const std::function<void(const char*, int, int)>& progress) {
  RunnerOverhead out;
  out.runs = runs;
  ForwardOptions fo;
  fo.scalar = scalar;
  SessionOptions so;
  so.runner = options;
  std::vector<double> cold, warm, local;
  for (int i = 0; i < runs; ++i) {
    const auto t0 = Clock::now();
    auto session = open_session(variant, so);
    run_forward(session->as_raw(), problem, fo);
    cold.push_back(seconds_since(t0));
    out.level = runner::to_string(session->isolation());
    session->finish();
    if (progress) progress("cold", i + 1, runs);
  }
  {
    auto session = open_session(variant, so);
    const RawForward fn = session->as_raw();
    run_forward(fn, problem, fo);  // warm-up: first-touch costs belong to the cold figure
    for (int i = 0; i < runs; ++i) {
      const auto t0 = Clock::now();
      run_forward(fn, problem, fo);
      warm.push_back(seconds_since(t0));
      if (progress) progress("warm", i + 1, runs);
    }
    session->finish();
  }
  if (in_process) {
    auto session = open_session(*in_process, so);
    const RawForward fn = session->as_raw();
    run_forward(fn, problem, fo);
    for (int i = 0; i < runs; ++i) {
      const auto t0 = Clock::now();
      run_forward(fn, problem, fo);
      local.push_back(seconds_since(t0));
    }
  }
  out.cold_seconds = spread_of(cold);
  out.warm_seconds = spread_of(warm);
  out.in_process_seconds = spread_of(local);
  return out;
}

}  // namespace awb::core
