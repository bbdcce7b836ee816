// runner_overhead.hpp: what isolation costs: the cold start of a runner (spawn, lockdown, load,
// first call) and the warm round trip of one small forward call, over many runs.
#ifndef AWB_CORE_BENCH_RUNNER_OVERHEAD_HPP_
#define AWB_CORE_BENCH_RUNNER_OVERHEAD_HPP_

#include <functional>
#include <string>
#include <vector>

#include "core/plugins/plugin_loader.hpp"
#include "core/runner_client/runner_process.hpp"
#include "graders/model/problem.hpp"

namespace awb::core {

struct Spread {
  double median = 0, p95 = 0, min = 0, max = 0;
};
Spread spread_of(std::vector<double> samples);

struct RunnerOverhead {
  std::string level;  // the lockdown the runners reached
  int runs = 0;
  Spread cold_seconds;        // spawn + lockdown + open + first call, one fresh runner per run
  Spread warm_seconds;        // one forward round trip on a warm runner
  Spread in_process_seconds;  // the same call in this process, for comparison
};

// Measures `runs` cold starts and `runs` warm calls of `variant` on `problem` (which must fit
// it). `in_process` is the same variant loaded here (null to skip that column). Progress goes
// to `progress` (phase, done, total) when given.
RunnerOverhead measure_runner_overhead(
    const VariantRef& variant, const VariantRef* in_process, const ProblemSpec& problem,
    Scalar scalar, const RunnerOptions& options, int runs,
    const std::function<void(const char*, int, int)>& progress = {});

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_RUNNER_OVERHEAD_HPP_
