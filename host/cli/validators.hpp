// validators.hpp: command-line number checks shared by every command: finite, inside a
// documented range, with a one-line message that names the range.
#ifndef AWB_CLI_VALIDATORS_HPP_
#define AWB_CLI_VALIDATORS_HPP_

#include <CLI/CLI.hpp>
#include <string>

namespace awb::cli {

// A number in [lo, hi] (NaN and infinities refused), e.g. InRange(0.01, 86400, "seconds").
CLI::Validator InRange(double lo, double hi, const std::string& unit = "");

// A finite number >= lo: "-1: must be >= 0".
CLI::Validator AtLeast(double lo);

}  // namespace awb::cli

#endif  // AWB_CLI_VALIDATORS_HPP_
