// isa.hpp: which x86-64 instruction-set level a plugin's kernels run at. A plugin built for any
// x86-64 carries its hot code compiled once per level (the bundled kernels do: cmake/AwbIsaWorlds
// .cmake) and picks one when it loads: the best this CPU runs, or the one named by the
// environment variable AWB_KERNEL_ISA (for tests and comparisons).
//
// Levels are the psABI's: baseline = x86-64 (SSE2), avx2 = x86-64-v3 (AVX2, FMA, BMI1/2, F16C,
// LZCNT, MOVBE), avx512 = x86-64-v4 (AVX-512 F, BW, CD, DQ, VL). The CPU check includes the
// operating system's support for the wider registers (XGETBV), as the compiler's
// __builtin_cpu_supports does. Elsewhere than x86-64 there is only the baseline.
// SPDX-License-Identifier: MIT
#ifndef AWB_ISA_HPP_
#define AWB_ISA_HPP_

#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace awb::isa {

enum class Level : int { kBaseline = 0, kAvx2 = 1, kAvx512 = 2 };

// The name AWB_KERNEL_ISA takes and `awb bench` prints.
constexpr std::string_view name(Level level) {
  switch (level) {
    case Level::kAvx2:
      return "avx2";
    case Level::kAvx512:
      return "avx512";
    case Level::kBaseline:
      break;
  }
  return "baseline";
}

// The level the including translation unit is compiled for (its -march).
inline constexpr Level kCompiledLevel =
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__) && defined(__AVX512CD__)
    Level::kAvx512;
#elif defined(__AVX2__) && defined(__FMA__)
    Level::kAvx2;
#else
    Level::kBaseline;
#endif

inline std::optional<Level> parse(std::string_view text) {
  for (Level l : {Level::kBaseline, Level::kAvx2, Level::kAvx512})
    if (text == name(l)) return l;
  return std::nullopt;
}

// Whether this CPU (and operating system) runs code built for `level`.
inline bool supported(Level level) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  switch (level) {
    case Level::kAvx512:
      return __builtin_cpu_supports("x86-64-v4");
    case Level::kAvx2:
      return __builtin_cpu_supports("x86-64-v3");
    case Level::kBaseline:
      break;
  }
  return true;
#else
  return level == Level::kBaseline;
#endif
}

// The highest level this CPU runs.
inline Level best_supported() {
  for (Level l : {Level::kAvx512, Level::kAvx2})
    if (supported(l)) return l;
  return Level::kBaseline;
}

// The level to run, of those `built` into the plugin: AWB_KERNEL_ISA's when it names one ("auto"
// or unset: the highest this CPU runs). Throws std::runtime_error, saying why, when the variable
// names no level, one not built, or one this CPU cannot run: a forced choice is never silently
// replaced by another.
inline Level choose(const Level* built, size_t n_built) {
  const char* forced = std::getenv("AWB_KERNEL_ISA");
  auto is_built = [&](Level l) {
    for (size_t i = 0; i < n_built; ++i)
      if (built[i] == l) return true;
    return false;
  };
  if (forced && *forced && std::string_view(forced) != "auto") {
    const auto level = parse(forced);
    const std::string why = std::string("AWB_KERNEL_ISA=") + forced + ": ";
    if (!level) throw std::runtime_error(why + "not a level (baseline, avx2, avx512 or auto)");
    if (!is_built(*level)) throw std::runtime_error(why + "these kernels were not built for it");
    if (!supported(*level))
      throw std::runtime_error(why + "this CPU cannot run " + std::string(name(*level)) + " code");
    return *level;
  }
  for (Level l : {Level::kAvx512, Level::kAvx2, Level::kBaseline})
    if (is_built(l) && supported(l)) return l;
  throw std::runtime_error("no kernel built for this CPU");
}
inline Level choose(std::initializer_list<Level> built) {
  return choose(built.begin(), built.size());
}

// The same choice among compiled worlds of code, each a struct with its `level`.
template <class World, size_t N>
const World& choose_world(const World* const (&built)[N]) {
  Level levels[N] = {};
  for (size_t i = 0; i < N; ++i) levels[i] = built[i]->level;
  const Level level = choose(levels, N);
  for (const World* w : built)
    if (w->level == level) return *w;
  throw std::runtime_error("no kernel built for this CPU");
}

// The world of `level`, when it is built and this CPU runs it; else nullptr.
template <class World, size_t N>
const World* find_world(const World* const (&built)[N], Level level) {
  for (const World* w : built)
    if (w->level == level && supported(level)) return w;
  return nullptr;
}

}  // namespace awb::isa

#endif  // AWB_ISA_HPP_
