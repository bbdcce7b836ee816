// softmax_exp.tests.cpp: the kernels' vectorised exp of a shifted row agrees with std::exp (and
// their 2^x with std::exp2), to a few units in the last place, from 0 down to where the result
// underflows, and sums its output, at every vector width: as this file is compiled, and in each
// kernel world this CPU runs (AVX2's and AVX-512's have their own ways of scaling by 2ⁿ). Results
// below the smallest normal number may come out as 0: in a softmax row, whose sum is at least 1,
// they are below 10⁻³⁰⁷ (f64) or 10⁻³⁷ (f32) of it.
#include "common/softmax_exp.hpp"

#include <awb/isa.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "common/kernel_world.hpp"

namespace {

template <class T>
using ExpSum = T (*)(T*, Eigen::Index, T);

template <class T>
void check_row(ExpSum<T> exp_shifted_sum, std::vector<T> row, T shift, double ulps, bool base_two) {
  const std::vector<T> in = row;
  const T sum = exp_shifted_sum(row.data(), static_cast<Eigen::Index>(row.size()), shift);
  double want_sum = 0;
  for (size_t i = 0; i < row.size(); ++i) {
    const T want = base_two ? std::exp2(in[i] - shift) : std::exp(in[i] - shift);
    want_sum += static_cast<double>(want);
    INFO("x − shift = " << double(in[i] - shift) << ", got " << double(row[i]) << ", want "
                        << double(want));
    const T tolerance = static_cast<T>(ulps) * std::numeric_limits<T>::epsilon() * want +
                        std::numeric_limits<T>::min();
    CHECK(std::abs(row[i] - want) <= tolerance);
  }
  CHECK(static_cast<double>(sum) ==
        Approx(want_sum).epsilon(row.size() * 4.0 * std::numeric_limits<T>::epsilon()));
}

// exp (base e) or 2^x (base_two: arguments scaled by log₂ e, so the same results underflow).
template <class T>
void check_type(ExpSum<T> exp, double ulps, bool base_two = false) {
  std::mt19937_64 rng(11);
  const T unit = base_two ? T(1.4426950408889634) : T(1);
  const T lowest = (std::is_same_v<T, double> ? T(-760) : T(-110)) * unit;
  auto check_row = [&](std::vector<T> row, T shift) {
    ::check_row(exp, std::move(row), shift, ulps, base_two);
  };
  for (size_t n : {size_t(1), size_t(3), size_t(17), size_t(64), size_t(1000)}) {
    std::uniform_real_distribution<T> near(T(-30) * unit, T(0)), far(lowest, T(0));
    std::vector<T> a(n), b(n);
    for (size_t i = 0; i < n; ++i) {
      a[i] = near(rng);
      b[i] = far(rng);
    }
    check_row(a, T(0));
    check_row(b, T(0));
    for (T& x : a) x += T(12.5);  // a shifted row, as in a softmax after its maximum
    check_row(a, T(12.5));
  }
  // The ends: 0, the smallest normal results, subnormal results, underflow, and −inf; halves,
  // where rint rounds to even, and the lowest normal exponent of 2^x without scalef.
  auto log = [&](T x) { return base_two ? std::log2(x) : std::log(x); };
  check_row({T(0),
             T(-1e-9),
             log(std::numeric_limits<T>::min()),
             log(std::numeric_limits<T>::denorm_min()) + T(2),
             lowest,
             -std::numeric_limits<T>::infinity(),
             T(-0.5),
             T(-0.3465),
             T(-0.3466),
             T(-0.6931),
             T(-1),
             T(-2),
             T(-20),
             T(-700 > lowest ? -700 : -80) * unit,
             T(0),
             T(0),
             T(0),
             T(-0.4999),
             T(-0.5001),
             T(-1.5),
             T(-2.5),
             T(-125.5),
             T(-126),
             T(-126.5)},
            T(0));
}

}  // namespace

TEST_CASE("the vectorised exp and 2^x of a shifted row match std::exp and std::exp2",
          "[kernels][exp]") {
  SECTION("f64, this file's width") {
    check_type<double>(&awb::kernels::exp_shifted_sum<double>, 4);
  }
  SECTION("f32, this file's width") { check_type<float>(&awb::kernels::exp_shifted_sum<float>, 4); }
  using awb::kernels::ExpBase;
  SECTION("2^x, f64 and f32, this file's width") {
    check_type<double>(&awb::kernels::exp_shifted_sum<double, ExpBase::kTwo>, 4, true);
    check_type<float>(&awb::kernels::exp_shifted_sum<float, ExpBase::kTwo>, 4, true);
  }
  using awb::isa::Level;
  for (Level level : awb::isa::levels_here()) {
    const awb::kernels::KernelWorld* world = awb::kernels::kernel_world(level);
    if (!world) continue;  // not built in, or this CPU cannot run it
    INFO("kernel world " << world->name);
    check_type<double>(world->f64.exp_shifted_sum, 4);
    check_type<float>(world->f32.exp_shifted_sum, 4);
    check_type<double>(world->f64.exp2_shifted_sum, 4, true);
    check_type<float>(world->f32.exp2_shifted_sum, 4, true);
  }
}
