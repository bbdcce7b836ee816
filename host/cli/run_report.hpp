// run_report.hpp: `awb run`'s report: forward results as labelled text matrices and as JSON.
#ifndef AWB_CLI_RUN_REPORT_HPP_
#define AWB_CLI_RUN_REPORT_HPP_

#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <vector>

#include "core/plugins/forward.hpp"

namespace awb::cli {

// A labelled matrix: row labels on the left, column labels on top, fixed 4 decimals.
void print_matrix(std::ostream& out, const Matrix& m, const std::vector<std::string>& rows,
                  const std::vector<std::string>& cols);

void print_result_text(std::ostream& out, const ProblemSpec& problem, const ForwardResult& result);

nlohmann::json matrix_json(const Matrix& m);
nlohmann::json result_json(const ProblemSpec& problem, const ForwardResult& result);

// Token labels, or t0..t{T-1} when the problem has none.
std::vector<std::string> token_labels(const ProblemSpec& problem);

}  // namespace awb::cli

#endif  // AWB_CLI_RUN_REPORT_HPP_
