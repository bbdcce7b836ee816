// tolerance.hpp: when a computed tensor counts as equal to the reference, by scalar type.
#ifndef AWB_GRADERS_TOLERANCE_TOLERANCE_HPP_
#define AWB_GRADERS_TOLERANCE_TOLERANCE_HPP_

#include <cstddef>
#include <cstdint>
#include <span>

namespace awb::grade {

// f64 results: elementwise |got − expected| ≤ atol + rtol·|expected|.
struct F64Tolerance {
  double atol = 1e-12;
  double rtol = 1e-9;
};

// The largest difference between two tensors of equal size, and where it is.
struct Difference {
  double max_abs = 0;     // max |got − expected|; +inf if any value is NaN/Inf in one only
  std::size_t index = 0;  // flat index of that element
  bool shapes_match = true;
};
Difference max_difference(std::span<const double> got, std::span<const double> expected);

// True when every element satisfies the f64 rule.
bool within_f64(std::span<const double> got, std::span<const double> expected,
                const F64Tolerance& tol = {});

// The f32 / fast-path rule (in the spirit of the flash-attention tests): the error of `got`
// against the f64 reference may be at most twice the error of the plain f32 reference against
// the f64 reference, plus 4 ulp of float at the tensor's largest magnitude.
double f32_bound(std::span<const double> f32_reference, std::span<const double> f64_reference);
bool within_f32(std::span<const double> got, std::span<const double> f32_reference,
                std::span<const double> f64_reference);
// The same, where entry i may also err by rounding[i]: the rounding bound of any correct f32
// evaluation (the reference's attention_backward_rounding_bound). The rule alone can be a few
// ulp too tight for an evaluation in another order when the f32 reference rounds luckily.
bool within_f32(std::span<const double> got, std::span<const double> f32_reference,
                std::span<const double> f64_reference, std::span<const double> rounding);

}  // namespace awb::grade

#endif  // AWB_GRADERS_TOLERANCE_TOLERANCE_HPP_
