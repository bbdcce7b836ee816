// bench_baseline.hpp: saved `awb bench` runs (--save, --from) and the comparison of a run with a
// saved one (--compare): per point the change of the median and a rank test's verdict.
#ifndef AWB_CLI_BENCH_BASELINE_HPP_
#define AWB_CLI_BENCH_BASELINE_HPP_

#include <filesystem>
#include <ostream>
#include <string>

#include "cli/bench_report.hpp"
#include "core/bench/statistics.hpp"

namespace awb::cli {

// Where a baseline called `name` lives: `name` itself when it contains a '/' or ends in .json,
// else $XDG_DATA_HOME/awb/bench/<name>.json ($HOME/.local/share when XDG_DATA_HOME is unset).
// Throws awb::Error("bench.usage") for an empty name or one that could leave that folder.
std::filesystem::path baseline_path(const std::string& name);

// Writes `run` as the JSON of --format json, atomically (creating the folder).
void save_baseline(const std::filesystem::path& path, const BenchRun& run);
// Reads a saved run; throws awb::Error("bench.baseline") naming the file when it cannot.
BenchRun load_baseline(const std::filesystem::path& path);

// Matches the points of `current` with those of `baseline` by (plugin, variant, mode, parameter
// values as written, scalar, T, d, heads, causal, A, S) and prints, for each, both medians, the
// change, the p-value of the Mann-Whitney U test on their samples and the verdict; then the points
// found in only one run, and a warning for each way the machine or the build differs. Returns how
// many points are significantly slower.
int write_comparison(std::ostream& out, const BenchRun& baseline, const BenchRun& current,
                     const std::string& baseline_name, const core::ChangeRule& rule = {});

}  // namespace awb::cli

#endif  // AWB_CLI_BENCH_BASELINE_HPP_
