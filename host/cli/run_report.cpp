// run_report.cpp: `awb run`'s report: labelled text matrices and JSON.
#include "cli/run_report.hpp"

#include <algorithm>
#include <cstdio>
#include <iostream>

#include "graders/report/format.hpp"

namespace awb::cli {

std::vector<std::string> token_labels(const ProblemSpec& problem) {
  if (!problem.tokens.empty()) return problem.tokens;
  std::vector<std::string> out;
  // t0, t1, ... in each sequence of a batch.
  for (int64_t t = 0; t < problem.tokens_count(); ++t)
    out.push_back("t" + std::to_string(t % problem.sequence_tokens()));
  return out;
}

void print_matrix(std::ostream& out, const Matrix& m, const std::vector<std::string>& rows,
                  const std::vector<std::string>& cols) {
  size_t label_w = 0;
  for (const auto& r : rows) label_w = std::max(label_w, r.size());
  size_t cell_w = 8;
  for (const auto& c : cols) cell_w = std::max(cell_w, c.size() + 1);
  auto pad = [](const std::string& s, size_t w, bool left) {
    const std::string fill(w > s.size() ? w - s.size() : 0, ' ');
    return left ? s + fill : fill + s;
  };
  out << pad("", label_w, true);
  for (const auto& c : cols) out << ' ' << pad(c, cell_w, false);
  out << '\n';
  for (int64_t r = 0; r < m.rows; ++r) {
    out << pad(rows[static_cast<size_t>(r)], label_w, true);
    for (int64_t c = 0; c < m.cols; ++c) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.4f", m(r, c));
      out << ' ' << pad(buf, cell_w, false);
    }
    out << '\n';
  }
}

void print_result_text(std::ostream& out, const ProblemSpec& problem, const ForwardResult& result) {
  const auto toks = token_labels(problem);
  const int planes = static_cast<int>(std::max(result.weights.size(), result.scores.size()));
  // Planes are per sequence, then per head; a sequence's rows and columns are its own tokens.
  const int64_t T1 = problem.sequence_tokens();
  const int heads = problem.heads;
  for (int plane = 0; plane < planes; ++plane) {
    const int b = plane / heads, h = plane % heads;
    std::string head;
    if (problem.batched()) head = "sequence " + std::to_string(b);
    if (heads > 1)
      head += (head.empty() ? "" : ", ") + std::string("head ") + std::to_string(h) + " of " +
              std::to_string(heads);
    if (!head.empty()) head = " (" + head + ")";
    const std::vector<std::string> seq(toks.begin() + b * T1, toks.begin() + (b + 1) * T1);
    if (!result.scores.empty()) {
      out << "Scores S" << head << ": the softmax input, query rows x key columns\n";
      print_matrix(out, result.scores[static_cast<size_t>(plane)], seq, seq);
    }
    if (!result.weights.empty()) {
      out << "Weights A" << head
          << (problem.lengths.empty() ? ": each row sums to 1\n"
                                      : ": each real token's row sums to 1, padding is 0\n");
      print_matrix(out, result.weights[static_cast<size_t>(plane)], seq, seq);
    }
  }
  std::vector<std::string> dims;
  for (int64_t c = 0; c < result.z.cols; ++c) dims.push_back("z" + std::to_string(c));
  out << "Context vectors Z: one row per token\n";
  print_matrix(out, result.z, toks, dims);
}

nlohmann::json matrix_json(const Matrix& m) {
  nlohmann::json rows = nlohmann::json::array();
  for (int64_t r = 0; r < m.rows; ++r) {
    nlohmann::json row = nlohmann::json::array();
    for (int64_t c = 0; c < m.cols; ++c) row.push_back(m(r, c));
    rows.push_back(std::move(row));
  }
  return rows;
}

nlohmann::json result_json(const ProblemSpec& problem, const ForwardResult& result) {
  nlohmann::json j;
  j["tokens"] = token_labels(problem);
  if (problem.batched()) {
    j["batch"] = problem.batch;
    if (!problem.lengths.empty()) j["lengths"] = problem.lengths;
  }
  j["z"] = matrix_json(result.z);
  auto planes = [](const std::vector<Matrix>& ms) {
    nlohmann::json a = nlohmann::json::array();
    for (const auto& m : ms) a.push_back(matrix_json(m));
    return a;
  };
  if (!result.weights.empty()) j["weights"] = planes(result.weights);
  if (!result.scores.empty()) j["scores"] = planes(result.scores);
  return j;
}

}  // namespace awb::cli
