// bench_report.hpp: `awb bench` results as a table, CSV or JSON, and the scaling fits.
#ifndef AWB_CLI_BENCH_REPORT_HPP_
#define AWB_CLI_BENCH_REPORT_HPP_

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "core/bench/bench.hpp"
#include "core/bench/machine.hpp"
#include "core/bench/torch_peer.hpp"

namespace awb::cli {

struct BenchRow {
  std::string plugin, variant;
  std::string plugin_file, plugin_sha256;
  std::string mode;  // in-process | runner (core::bench_run_mode)
  core::BenchShape shape;
  uint64_t capabilities = 0;
  std::string goal;
  std::string status;  // ok | skipped | failed
  std::string note;
  core::BenchMeasure measure;
  // --peer torch: what torch ran and its median (seconds), or why the point has no peer time.
  std::string peer_op, peer_note;
  double peer_median = core::BenchMeasure::kNone;
  int peer_n = 0;
  // torch's median per awb's: above 1 awb is faster (NaN without both times).
  double peer_ratio() const {
    return status == "ok" && measure.median > 0 && peer_median > 0 ? peer_median / measure.median
                                                                   : core::BenchMeasure::kNone;
  }
};

struct BenchRun {
  std::string awb_version;
  core::BenchSettings settings;  // threads, warm-up, the repetition rule
  bool quick = false;
  int64_t gemm_n = 0;
  std::string fma_isa;
  std::string blas;  // the best packaged GEMM, or why it was not measured (empty: unknown)
  core::MachineInfo machine;
  std::vector<BenchRow> rows;
  bool before_w_o = false;  // read from a run saved before the W_o column (see --compare)
  core::PeerInfo peer;      // --peer: its name ("torch"), settings, or why it was skipped
};

// "parameter-free window=4 f32 d=64 h=1 causal A": a point's variant, parameters and shape but T.
std::string shape_label(const BenchRow& r);

// The measured points ("ok") with T >= `min_tokens` that differ only in T, one series each
// (plugin, variant, mode, parameters, scalar, d, heads, causal, A, S), each sorted by T.
std::vector<std::vector<const BenchRow*>> bench_series(const BenchRun& run, int64_t min_tokens = 0);

// Log-log least-squares fits over T >= 1024 for the rows that differ only in T: time, and
// memory (inputs + outputs + the first call's high water). A group with at least three such T
// has a fit; one with two has none, and `too_few` says so (two points always fit a line).
struct ScalingFit {
  std::string label;
  int64_t from = 0, to = 0;
  int points = 0;
  bool too_few = false;
  core::PowerFit time, memory;
};
std::vector<ScalingFit> scaling_fits(const BenchRun& run);

// One line per variant whose figures are left empty: it has no cost model, or its model claims
// more than the machine's FMA peak (a bug in the model). In the table and in JSON ("notes").
std::vector<std::string> bench_notes(const BenchRun& run);

// The line that says the peer was skipped and why ("torch peer skipped: ..."), or "" when none
// was asked for or it ran.
std::string peer_skip_line(const BenchRun& run);

// format: table | csv | json.
void write_bench(std::ostream& out, const BenchRun& run, const std::string& format);

// The JSON document of --format json (and of a saved baseline), and a run read back from one.
// Reading throws awb::Error("bench.baseline") on a document it cannot use.
nlohmann::json bench_json(const BenchRun& run);
// The machine and build, as bench runs and compare exports record them.
nlohmann::json machine_json(const core::MachineInfo& m);
BenchRun bench_run_from_json(const nlohmann::json& doc);

}  // namespace awb::cli

#endif  // AWB_CLI_BENCH_REPORT_HPP_
