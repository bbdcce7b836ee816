// option_number.hpp: a whole option value read as a number, for the command lines of awb-runner
// and awb-builder (both started by awb, both refusing anything but a plain number).
#ifndef AWB_RUNNER_OPTION_NUMBER_HPP_
#define AWB_RUNNER_OPTION_NUMBER_HPP_

#include <charconv>
#include <cstring>
#include <optional>

namespace awb::runner {

// The number `text` spells, all of it; nothing when any of it is not part of the number.
template <class T>
std::optional<T> option_number(const char* text) {
  T v{};
  const char* end = text + std::strlen(text);
  if (std::from_chars(text, end, v).ptr != end) return std::nullopt;
  return v;
}

}  // namespace awb::runner

#endif  // AWB_RUNNER_OPTION_NUMBER_HPP_
