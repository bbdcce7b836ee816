// did_you_mean.cpp: Levenshtein distance over the known names; a guess only within 2 edits, so a
// name unlike any known one gets no suggestion rather than a misleading one.
#include "core/base/did_you_mean.hpp"

#include <algorithm>

namespace awb::core {
namespace {

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] != b[j - 1])});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

}  // namespace

std::string did_you_mean(const std::string& word, const std::vector<std::string>& options) {
  std::string best;
  size_t best_d = 3;
  for (const auto& o : options) {
    const size_t d = edit_distance(word, o);
    if (d < best_d) {
      best_d = d;
      best = o;
    }
  }
  return best;
}

std::string did_you_mean_note(const std::string& word, const std::vector<std::string>& options) {
  const std::string guess = did_you_mean(word, options);
  return guess.empty() ? std::string() : " (did you mean '" + guess + "'?)";
}

}  // namespace awb::core
