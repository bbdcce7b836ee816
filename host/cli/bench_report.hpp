// bench_report.hpp: `awb bench` results as a table, CSV or JSON, and the scaling fits.
#ifndef AWB_CLI_BENCH_REPORT_HPP_
#define AWB_CLI_BENCH_REPORT_HPP_

#include <ostream>
#include <string>
#include <vector>

#include "core/bench/bench.hpp"

namespace awb::cli {

struct BenchRow {
  std::string plugin, variant;
  core::BenchShape shape;
  uint64_t capabilities = 0;
  std::string goal;
  std::string status;  // ok | skipped | failed
  std::string note;
  core::BenchMeasure measure;
};

struct BenchRun {
  int threads = 0, warmup = 0, reps = 0;
  int64_t gemm_n = 0;
  std::string fma_isa;
  std::vector<BenchRow> rows;
};

// Log-log least-squares slopes over T >= 1024 for the rows that differ only in T: time, and
// memory (inputs + outputs + the first call's high water).
struct ScalingFit {
  std::string label;
  int64_t from = 0, to = 0;
  int points = 0;
  double time_slope = 0, memory_slope = 0;
};
std::vector<ScalingFit> scaling_fits(const BenchRun& run);

// format: table | csv | json.
void write_bench(std::ostream& out, const BenchRun& run, const std::string& format);

}  // namespace awb::cli

#endif  // AWB_CLI_BENCH_REPORT_HPP_
