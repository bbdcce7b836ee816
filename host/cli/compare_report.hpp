// compare_report.hpp: what `awb compare` shows: its rows as a terminal table, JSON and CSV,
// and the export folder of metrics and matrices.
#ifndef AWB_CLI_COMPARE_REPORT_HPP_
#define AWB_CLI_COMPARE_REPORT_HPP_

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "core/compare/compare.hpp"
#include "core/compare/compare_metrics.hpp"

namespace awb::cli {

inline constexpr const char* kReference = "reference";

// One variant (or the reference, under --against) on the chosen layer against the baseline.
struct Row {
  std::string label;
  const core::CompareEntry* entry = nullptr;  // null for the reference
  std::string error;                          // why there are no metrics
  core::LayerComparison layer;
  std::string z_shapes;  // "6x2 against 6x3" when ||dZ|| cannot be measured
};

// Everything a comparison shows, in every format.
struct Report {
  std::string source, exercise, case_id, scalar, head;
  size_t layer = 0, layers = 0;
  int top_k = 3;
  std::string against;
  std::vector<std::string> tokens;
  std::vector<Row> rows;
};

// --format json: every metric, per head and pooled, the pairing, notes and tokens.
nlohmann::json report_json(const Report& r);
// --format csv: a row per variant and head, "all" for the pooled row.
std::string report_csv(const Report& r);
// The terminal table, with a legend.
void print_table(const Report& r);

// Writes into `dir`, for the reference and every variant of `c` that ran, every layer and head:
// <variant>.layer<L>.head<H>.A.{npy,csv} and <variant>.layer<L>.Z.{npy,csv}; then metrics.json
// and metrics.csv (report_json and report_csv). Throws Error("io.write").
void export_report(const std::filesystem::path& dir, const Report& r, const core::Comparison& c);

}  // namespace awb::cli

#endif  // AWB_CLI_COMPARE_REPORT_HPP_
