// isa.hpp: which instruction-set level a plugin's kernels run at. A plugin built for any x86-64
// carries its hot code compiled once per level (the bundled kernels do: cmake/AwbIsaWorlds
// .cmake) and picks one when it loads: the best this CPU runs, or the one named by the
// environment variable AWB_KERNEL_ISA (for tests and comparisons).
//
// The levels are the rows of isa_levels.def, which CMake reads too. On x86-64 they are the
// psABI's: baseline = x86-64 (SSE2), avx2 = x86-64-v3 (AVX2, FMA, BMI1/2, F16C, LZCNT, MOVBE),
// avx512 = x86-64-v4 (AVX-512 F, BW, CD, DQ, VL). The CPU check includes the operating system's
// support for the wider registers (XGETBV), as the compiler's __builtin_cpu_supports does. On an
// architecture without rows of its own there is one level, the first row, which runs anywhere.
// SPDX-License-Identifier: MIT
#ifndef AWB_ISA_HPP_
#define AWB_ISA_HPP_

#include <array>
#include <cstddef>
#include <cstdlib>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace awb::isa {

enum class Level : int {
#define AWB_ISA_LEVEL(enumerator, ...) enumerator,
#include "awb/isa_levels.def"
#undef AWB_ISA_LEVEL
};

// A row of isa_levels.def, as the code needs it.
struct LevelInfo {
  Level level;
  std::string_view name;
  std::string_view architecture;
  bool fused;
  std::string_view peak_label;
};

inline constexpr LevelInfo kLevels[] = {
#define AWB_ISA_LEVEL(enumerator, name, architecture, flags, cpu, fused, peak, peak_label) \
  {Level::enumerator, name, #architecture, (fused) != 0, peak_label},
#include "awb/isa_levels.def"
#undef AWB_ISA_LEVEL
};

// The rows are in the enumeration's order, so a level indexes its row.
constexpr bool rows_in_order() {
  for (size_t i = 0; i < std::size(kLevels); ++i)
    if (static_cast<size_t>(kLevels[i].level) != i) return false;
  return true;
}
static_assert(rows_in_order(), "isa_levels.def: the table is read in its own order");

constexpr const LevelInfo& info(Level level) { return kLevels[static_cast<size_t>(level)]; }

// The name AWB_KERNEL_ISA takes and `awb bench` prints.
constexpr std::string_view name(Level level) { return info(level).name; }

constexpr std::optional<Level> parse(std::string_view text) {
  for (const LevelInfo& row : kLevels)
    if (text == row.name) return row.level;
  return std::nullopt;
}

// The architecture this translation unit is compiled for, in isa_levels.def's spelling.
inline constexpr std::string_view kArchitecture =
#if defined(__x86_64__) || defined(_M_X64)
    "x86_64";
#elif defined(__aarch64__)
    "aarch64";
#else
    "";
#endif

// Whether isa_levels.def has rows for this architecture; if not, only the first row runs here.
constexpr bool architecture_has_rows() {
  for (const LevelInfo& row : kLevels)
    if (row.architecture == kArchitecture) return true;
  return false;
}

// Every level this architecture may run, from the lowest up.
constexpr size_t count_here() {
  if (!architecture_has_rows()) return 1;
  size_t n = 0;
  for (const LevelInfo& row : kLevels) n += row.architecture == kArchitecture;
  return n;
}
constexpr std::array<Level, count_here()> levels_here() {
  std::array<Level, count_here()> out{};
  if (!architecture_has_rows()) return {kLevels[0].level};
  size_t n = 0;
  for (const LevelInfo& row : kLevels)
    if (row.architecture == kArchitecture) out[n++] = row.level;
  return out;
}

// The level the including translation unit is compiled for: its world's (a world's sources are
// compiled with AWB_ISA_WORLD_NAME), else the highest its -march reaches.
constexpr Level compiled_level() {
#if defined(AWB_ISA_WORLD_NAME)
  if (const auto level = parse(AWB_ISA_WORLD_NAME)) return *level;
#endif
#if defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__) && defined(__AVX512CD__)
  return Level::kAvx512;
#elif defined(__AVX2__) && defined(__FMA__)
  return Level::kAvx2;
#else
  return levels_here()[0];
#endif
}
inline constexpr Level kCompiledLevel = compiled_level();

// How a row's `cpu` is checked, one macro per architecture; on another architecture than the
// row's, never (its code cannot run here).
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define AWB_ISA_CPU_x86_64(cpu) (__builtin_cpu_init(), __builtin_cpu_supports(cpu))
#else
#define AWB_ISA_CPU_x86_64(cpu) false
#endif
#if defined(__aarch64__)
// Only the architecture's mandatory level is known here: a row that needs more adds its check.
#define AWB_ISA_CPU_aarch64(cpu) (sizeof(cpu) == 1)
#else
#define AWB_ISA_CPU_aarch64(cpu) false
#endif

// Whether this CPU (and operating system) runs code built for `level`.
inline bool supported(Level level) {
  if (!architecture_has_rows()) return level == kLevels[0].level;
  switch (level) {
#define AWB_ISA_LEVEL(enumerator, name, architecture, flags, cpu, ...) \
  case Level::enumerator:                                              \
    return AWB_ISA_CPU_##architecture(cpu);
#include "awb/isa_levels.def"
#undef AWB_ISA_LEVEL
  }
  return false;
}
#undef AWB_ISA_CPU_x86_64
#undef AWB_ISA_CPU_aarch64

// The highest level this CPU runs.
inline Level best_supported() {
  const auto here = levels_here();
  for (size_t i = here.size(); i-- > 0;)
    if (supported(here[i])) return here[i];
  return here[0];
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
    if (!level) {
      std::string names;
      for (const LevelInfo& row : kLevels) names.append(row.name).append(", ");
      throw std::runtime_error(why + "not a level (" + names.substr(0, names.size() - 2) +
                               " or auto)");
    }
    if (!is_built(*level)) throw std::runtime_error(why + "these kernels were not built for it");
    if (!supported(*level))
      throw std::runtime_error(why + "this CPU cannot run " + std::string(name(*level)) + " code");
    return *level;
  }
  const auto here = levels_here();
  for (size_t i = here.size(); i-- > 0;)
    if (is_built(here[i]) && supported(here[i])) return here[i];
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
