// did_you_mean.hpp: the closest known name to a mistyped one, for every "unknown X" message
// (commands, options' values, variants, exercises, cases, keys of a file).
#ifndef AWB_CORE_BASE_DID_YOU_MEAN_HPP_
#define AWB_CORE_BASE_DID_YOU_MEAN_HPP_

#include <string>
#include <vector>

namespace awb::core {

// The closest of `options` to `word` within edit distance 2, or "".
std::string did_you_mean(const std::string& word, const std::vector<std::string>& options);

// " (did you mean 'x'?)" for the closest of `options`, or "" when none is close.
std::string did_you_mean_note(const std::string& word, const std::vector<std::string>& options);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_DID_YOU_MEAN_HPP_
