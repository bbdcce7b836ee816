// validators.cpp: a range check that, unlike CLI11's own, refuses NaN (every comparison with it
// is false, so "nan" passes `x > 0`) and prints the bounds as people write them.
#include "cli/validators.hpp"

#include <cmath>
#include <cstdio>

namespace awb::cli {
namespace {

std::string show(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

}  // namespace

CLI::Validator InRange(double lo, double hi, const std::string& unit) {
  const std::string range =
      "[" + show(lo) + ", " + show(hi) + "]" + (unit.empty() ? "" : " " + unit);
  return CLI::Validator(
      [lo, hi, range](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v)) return "'" + text + "' is not a number";
        if (!std::isfinite(v)) return "'" + text + "' is not a finite number; expected " + range;
        if (v < lo || v > hi) return text + " is outside " + range;
        return {};
      },
      "NUMBER in " + range);
}

CLI::Validator AtLeast(double lo) {
  const std::string bound = ">= " + show(lo);
  return CLI::Validator(
      [lo, bound](std::string& text) -> std::string {
        double v = 0;
        if (!CLI::detail::lexical_cast(text, v)) return "'" + text + "' is not a number";
        if (!std::isfinite(v) || v < lo) return text + ": must be " + bound;
        return {};
      },
      "NUMBER " + bound);
}

}  // namespace awb::cli
