// hint_threshold.cpp: a hint's numbers read against its check's threshold, clause by clause.
#include "graders/checks/hint_threshold.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <optional>
#include <regex>

namespace awb::grade {
namespace {

// What a check measures, as its hint names it, and the thresholds it judges by.
struct Threshold {
  std::vector<std::string> words;  // a clause naming one of these may state the threshold
  std::vector<double> values;
  bool count = false;  // in_top_k: "top k", "k largest"
};

std::optional<Threshold> threshold_of(const CheckSpec& c) {
  if (c.kind != CheckKind::kExpect) return std::nullopt;
  const std::string& p = c.name;
  const double tol = c.tolerance.atol;
  if (p == "weight_above" || p == "weight_below")
    return Threshold{{"weight", "of the row"}, {c.value}};
  if (p == "entropy_above" || p == "entropy_below") return Threshold{{"entropy"}, {c.value}};
  if (p == "one_hot_rows") return Threshold{{"weight", "one-hot"}, {1.0 - tol, tol}};
  if (p == "uniform_rows") return Threshold{{"weight", "uniform"}, {tol}};
  if (p == "scores_symmetric") return Threshold{{"transpose", "symmetric"}, {tol}};
  if (p == "context_close") return Threshold{{"context"}, {tol}};
  if (p == "scores_asymmetric") return Threshold{{"margin"}, {c.margin}};
  if (p == "in_top_k") return Threshold{{"largest", "top", "highest"}, {double(c.k)}, true};
  return std::nullopt;
}

std::string lower(std::string s) {
  for (char& ch : s) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
  return s;
}

// The hint in clauses, with the typographic minus made ASCII so numbers parse.
std::vector<std::string> clauses(std::string text) {
  for (size_t at; (at = text.find("\xE2\x88\x92")) != std::string::npos;)  // U+2212 −
    text.replace(at, 3, "-");
  std::vector<std::string> out(1);
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    // A full stop ends a clause; a decimal point (a digit on both sides) does not.
    const bool stop = ch == '.' && !(i > 0 && i + 1 < text.size() &&
                                     std::isdigit(static_cast<unsigned char>(text[i - 1])) &&
                                     std::isdigit(static_cast<unsigned char>(text[i + 1])));
    if (stop || ch == ',' || ch == ';' || ch == ':' || ch == '(' || ch == ')')
      out.emplace_back();
    else
      out.back() += ch;
  }
  return out;
}

double number(const std::string& whole, const std::string& over) {
  const double n = std::stod(whole);
  return over.empty() ? n : n / std::stod(over);
}

}  // namespace

std::vector<std::string> hint_threshold_mismatches(const CheckSpec& check) {
  const auto t = threshold_of(check);
  if (!t) return {};
  static const std::string kNumber = R"((-?\d+(?:\.\d+)?(?:e-?\d+)?)(?:\s*/\s*(\d+(?:\.\d+)?))?)";
  static const std::regex comparison(
      R"((?:\b(?:above|below|more than|less than|greater than|fewer than|at least|at most|)"
      R"(no more than|no less than|exceeds?|within)\b|>=|<=|>|<|≥|≤)\s*)" +
          kNumber,
      std::regex::icase);
  static const std::regex count(R"(\btop\s+(\d+)\b|\b(\d+)\s+(?:largest|highest)\b)",
                                std::regex::icase);
  std::vector<std::string> out;
  auto judge = [&](const std::string& phrase, double stated) {
    const bool agrees = std::any_of(t->values.begin(), t->values.end(), [&](double v) {
      return std::fabs(stated - v) <= 1e-9 * std::max(1.0, std::fabs(v));
    });
    if (agrees) return;
    char want[32];
    std::snprintf(want, sizeof want, "%.6g", t->values.front());
    out.push_back("'" + phrase + "' but the check wants " + want);
  };
  for (const std::string& clause : clauses(check.hint)) {
    const std::string low = lower(clause);
    if (std::none_of(t->words.begin(), t->words.end(),
                     [&](const std::string& w) { return low.find(w) != std::string::npos; }))
      continue;
    if (t->count) {
      for (std::sregex_iterator m(clause.begin(), clause.end(), count), end; m != end; ++m)
        judge(m->str(), std::stod((*m)[1].matched ? (*m)[1].str() : (*m)[2].str()));
      continue;
    }
    for (std::sregex_iterator m(clause.begin(), clause.end(), comparison), end; m != end; ++m)
      judge(m->str(), number((*m)[1].str(), (*m)[2].str()));
  }
  return out;
}

}  // namespace awb::grade
