// compare_report.hpp: what `awb compare` shows: its rows as a terminal table, JSON and CSV,
// and the export folder of metrics and matrices.
#ifndef AWB_CLI_COMPARE_REPORT_HPP_
#define AWB_CLI_COMPARE_REPORT_HPP_

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/bench/machine.hpp"
#include "core/compare/compare.hpp"
#include "core/compare/compare_metrics.hpp"

namespace awb::cli {

inline constexpr const char* kReference = "reference";

// Where a compared variant came from and what it ran with.
struct VariantInfo {
  std::string id, plugin, plugin_file, plugin_sha256;
  ParamValues params;  // every parameter it declares, defaults filled in (canonical_params)
};

// One variant (or the reference, under --against) on the chosen layer against the baseline.
struct Row {
  std::string label;  // "sliding-window@window=2": the id and its full parameter set
  VariantInfo info;   // empty for the reference
  const core::CompareEntry* entry = nullptr;  // null for the reference
  std::string error;                          // why there are no metrics
  core::LayerComparison layer;
};

// Everything a comparison shows, in every format.
struct Report {
  std::string source, exercise, case_id, scalar, head;
  size_t layer = 0, layers = 0;
  int top_k = 3;
  std::string against;
  std::vector<std::string> tokens;
  std::vector<Row> rows;
  // Provenance, in metrics.json: this awb, the input's digest (input_sha256), the machine.
  std::string awb_version, problem_sha256;
  core::MachineInfo machine{};
  bool z_only = false;  // --no-weights: the variants were asked for Z alone
};

// --format json: every metric, per head and pooled, the pairing, notes and tokens.
nlohmann::json report_json(const Report& r);
// --format csv: a row per variant and head, "all" for the pooled row.
std::string report_csv(const Report& r);
// The terminal table, with a legend.
void print_table(const Report& r);

// Writes the folder `dir` whole (publish_folder: a new folder, or an earlier export replaced
// entirely, never a mix of two runs; a folder with other files is refused with export.usage):
// for the reference and every variant of `c` that ran, every layer and head,
// <label>.layer<L>.head<H>.A.{npy,csv} and <label>.layer<L>.Z.{npy,csv} (the label carries the
// parameters: sliding-window@window=2); then metrics.json and metrics.csv (report_json and
// report_csv). Throws Error("io.write").
void export_report(const std::filesystem::path& dir, const Report& r, const core::Comparison& c);

}  // namespace awb::cli

#endif  // AWB_CLI_COMPARE_REPORT_HPP_
