// seeded.hpp: the workbench's own random numbers, identical on every compiler and platform.
#ifndef AWB_CORE_EXERCISES_SEEDED_HPP_
#define AWB_CORE_EXERCISES_SEEDED_HPP_

#include <array>
#include <cstdint>

#include "graders/model/names.hpp"
#include "graders/model/tensor.hpp"

namespace awb::core {

// SplitMix64 (Steele, Lea and Flood, 2014). The standard library's distributions are not
// specified bit for bit, so exercises never use them.
class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}
  uint64_t next();
  double uniform();  // [0, 1), from the top 53 bits
  double uniform(double low, double high) { return low + (high - low) * uniform(); }
  // One normal per two draws (Box–Muller, cosine branch): mean + std · sqrt(−2 ln(1−u1)) ·
  // cos(2π u2).
  double normal(double mean, double std);

 private:
  uint64_t state_;
};

enum class Distribution { kNormal, kUniform };
inline constexpr std::array<EnumName<Distribution>, 2> kDistributionNames{{
    {Distribution::kNormal, "normal"},
    {Distribution::kUniform, "uniform"},
}};
static_assert(names_every_value(kDistributionNames));
constexpr const auto& enum_names(Distribution) { return kDistributionNames; }
constexpr const char* to_string(Distribution d) { return name_in(kDistributionNames, d); }

struct SeededSpec {
  uint64_t seed = 0;
  Distribution distribution = Distribution::kNormal;
  double mean = 0, std = 1;   // normal
  double low = -1, high = 1;  // uniform
};

// rows × cols, filled row by row.
Matrix seeded_matrix(const SeededSpec& spec, int64_t rows, int64_t cols);

// Sinusoidal positions (Vaswani et al., 2017): PE(t, 2i) = sin(t / 10000^(2i/d)),
// PE(t, 2i+1) = cos(t / 10000^(2i/d)).
Matrix sinusoidal_positions(int64_t tokens, int64_t d_model);

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_SEEDED_HPP_
