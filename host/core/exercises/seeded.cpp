// seeded.cpp: SplitMix64, its uniform and normal draws, and sinusoidal positions.
#include "core/exercises/seeded.hpp"

#include <cmath>
#include <numbers>

namespace awb::core {

uint64_t SplitMix64::next() {
  uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

double SplitMix64::uniform() { return double(next() >> 11) * 0x1.0p-53; }

double SplitMix64::normal(double mean, double std) {
  const double u1 = uniform(), u2 = uniform();
  return mean + std * std::sqrt(-2.0 * std::log(1.0 - u1)) * std::cos(2.0 * std::numbers::pi * u2);
}

Matrix seeded_matrix(const SeededSpec& spec, int64_t rows, int64_t cols) {
  SplitMix64 rng(spec.seed);
  Matrix m(rows, cols);
  for (double& v : m.data)
    v = spec.distribution == Distribution::kNormal ? rng.normal(spec.mean, spec.std)
                                                   : rng.uniform(spec.low, spec.high);
  return m;
}

Matrix sinusoidal_positions(int64_t tokens, int64_t d_model) {
  Matrix pe(tokens, d_model);
  for (int64_t t = 0; t < tokens; ++t)
    for (int64_t c = 0; c < d_model; ++c) {
      const double i2 = double(c - c % 2);  // 2i
      const double angle = double(t) / std::pow(10000.0, i2 / double(d_model));
      pe(t, c) = c % 2 == 0 ? std::sin(angle) : std::cos(angle);
    }
  return pe;
}

}  // namespace awb::core
