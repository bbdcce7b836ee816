// tolerance.cpp: the comparison rules behind every `reference` check.
#include "graders/tolerance/tolerance.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace awb::grade {

Difference max_difference(std::span<const double> got, std::span<const double> expected) {
  Difference d;
  if (got.size() != expected.size()) {
    d.shapes_match = false;
    d.max_abs = std::numeric_limits<double>::infinity();
    return d;
  }
  for (std::size_t i = 0; i < got.size(); ++i) {
    double diff = std::fabs(got[i] - expected[i]);
    if (std::isnan(diff)) {
      // Equal non-finite values (both +inf, say) agree; anything else is an infinite miss.
      const bool same = (std::isnan(got[i]) && std::isnan(expected[i])) || got[i] == expected[i];
      diff = same ? 0.0 : std::numeric_limits<double>::infinity();
    }
    if (diff > d.max_abs || (std::isinf(diff) && !std::isinf(d.max_abs))) {
      d.max_abs = diff;
      d.index = i;
    }
  }
  return d;
}

bool within_f64(std::span<const double> got, std::span<const double> expected,
                const F64Tolerance& tol) {
  if (got.size() != expected.size()) return false;
  for (std::size_t i = 0; i < got.size(); ++i) {
    if (!std::isfinite(got[i])) return false;
    if (!(std::fabs(got[i] - expected[i]) <= tol.atol + tol.rtol * std::fabs(expected[i])))
      return false;
  }
  return true;
}

double f32_bound(std::span<const double> f32_reference, std::span<const double> f64_reference) {
  double largest = 0;
  for (double v : f64_reference) largest = std::fmax(largest, std::fabs(v));
  const double ulp =
      std::nextafter(static_cast<float>(largest), INFINITY) - static_cast<float>(largest);
  return 2.0 * max_difference(f32_reference, f64_reference).max_abs + 4.0 * ulp;
}

bool within_f32(std::span<const double> got, std::span<const double> f32_reference,
                std::span<const double> f64_reference) {
  const Difference d = max_difference(got, f64_reference);
  return d.shapes_match && d.max_abs <= f32_bound(f32_reference, f64_reference);
}

bool within_f32(std::span<const double> got, std::span<const double> f32_reference,
                std::span<const double> f64_reference, std::span<const double> rounding) {
  if (got.size() != f64_reference.size() || rounding.size() != f64_reference.size()) return false;
  const double bound = f32_bound(f32_reference, f64_reference);
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double diff = std::isfinite(got[i]) ? std::fabs(got[i] - f64_reference[i]) : INFINITY;
    if (!(diff <= std::max(bound, rounding[i]))) return false;
  }
  return true;
}

}  // namespace awb::grade
