// problem.cpp: shape rules of a problem, checked before anything reaches a plugin.
#include "graders/model/problem.hpp"

#include <cmath>
#include <string>

#include "graders/model/error.hpp"

namespace awb {
namespace {

std::string dims(const Matrix& m) {
  return std::to_string(m.rows) + " x " + std::to_string(m.cols);
}

void require(bool ok, const std::string& message) {
  if (!ok) throw Error("problem.shape", message);
}

void require_finite(const Matrix& m, const char* name) {
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < m.cols; ++c)
      if (!std::isfinite(m(r, c)))
        throw Error("problem.not_finite", std::string(name) + "[" + std::to_string(r) + "][" +
                                              std::to_string(c) + "] is not a finite number");
}

}  // namespace

int64_t ProblemSpec::d_out() const {
  if (w_o) return w_o->cols;
  if (has_projections()) return heads * d_v();
  return x.cols;
}

void validate(const ProblemSpec& s) {
  require(s.x.rows >= 1 && s.x.cols >= 1, "x must have at least one row and one column");
  require(
      s.tokens.empty() || static_cast<int64_t>(s.tokens.size()) == s.x.rows,
      std::to_string(s.tokens.size()) + " tokens but x has " + std::to_string(s.x.rows) + " rows");
  require(s.heads >= 1, "heads must be at least 1");
  require(s.kv_heads >= 0 && s.kv_heads <= s.heads && s.heads % s.kv_head_count() == 0,
          "kv_heads must divide heads (" + std::to_string(s.heads) +
              "): " + std::to_string(s.kv_heads) + " does not");
  require(s.batch >= 1 && s.x.rows % s.batch == 0, "batch must be at least 1 and divide x's " +
                                                       std::to_string(s.x.rows) + " rows (" +
                                                       std::to_string(s.batch) + " does not)");
  require(s.lengths.empty() || static_cast<int64_t>(s.lengths.size()) == s.batch,
          std::to_string(s.lengths.size()) + " lengths for " + std::to_string(s.batch) +
              " sequences: give one length per sequence");
  for (size_t b = 0; b < s.lengths.size(); ++b)
    require(s.lengths[b] >= 1 && s.lengths[b] <= s.sequence_tokens(),
            "lengths[" + std::to_string(b) + "] is " + std::to_string(s.lengths[b]) +
                ": a sequence keeps 1 to T = " + std::to_string(s.sequence_tokens()) + " tokens");
  require(std::isfinite(s.sharpness) && s.sharpness > 0, "sharpness must be a positive number");
  require_finite(s.x, "x");
  const bool any_w = s.w_q || s.w_k || s.w_v;
  require(!any_w || s.has_projections(), "w_q, w_k and w_v come together: give all three");
  if (s.has_projections()) {
    const Matrix* ws[] = {&*s.w_q, &*s.w_k, &*s.w_v};
    const char* names[] = {"w_q", "w_k", "w_v"};
    // W_q has a column block per query head, W_k and W_v one per key/value head.
    const int blocks[] = {s.heads, s.kv_head_count(), s.kv_head_count()};
    for (int i = 0; i < 3; ++i) {
      require(ws[i]->rows == s.x.cols, std::string(names[i]) + " is " + dims(*ws[i]) +
                                           " but needs d_model = " + std::to_string(s.x.cols) +
                                           " rows");
      require(ws[i]->cols >= 1 && ws[i]->cols % blocks[i] == 0,
              std::string(names[i]) + " has " + std::to_string(ws[i]->cols) + " columns, which " +
                  std::to_string(blocks[i]) + (i == 0 ? " heads" : " key/value heads") +
                  " do not divide");
      require_finite(*ws[i], names[i]);
    }
    require(s.w_q->cols / s.heads == s.w_k->cols / s.kv_head_count(),
            "w_q is " + dims(*s.w_q) + " and w_k is " + dims(*s.w_k) +
                ": queries and keys need one width per head");
  } else {
    require(s.heads == 1, "more than one head needs w_q, w_k and w_v");
  }
  if (s.w_o) {
    require(s.has_projections(), "w_o needs w_q, w_k and w_v");
    require(s.w_o->rows == s.heads * s.d_v(), "w_o is " + dims(*s.w_o) + " but needs h*d_v = " +
                                                  std::to_string(s.heads * s.d_v()) + " rows");
    require_finite(*s.w_o, "w_o");
  }
}

}  // namespace awb
