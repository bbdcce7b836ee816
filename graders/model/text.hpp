// text.hpp: small text helpers shared by the reports and the host.
// SPDX-License-Identifier: MIT
#ifndef AWB_GRADERS_MODEL_TEXT_HPP_
#define AWB_GRADERS_MODEL_TEXT_HPP_

#include <string>
#include <string_view>
#include <vector>

namespace awb {

// The parts with `separator` between them ("" for none).
inline std::string join(const std::vector<std::string>& parts, std::string_view separator) {
  std::string out;
  for (const auto& p : parts) {
    if (&p != &parts.front()) out += separator;
    out += p;
  }
  return out;
}

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_TEXT_HPP_
