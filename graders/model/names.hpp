// names.hpp: one table per enum of its values and the names files and reports spell them with,
// and the lookups both ways, so a name is written once however many readers and writers use it.
//
// An enum takes part by declaring, next to itself, its table and an `enum_names` overload that
// returns it (found by argument-dependent lookup):
//   inline constexpr std::array<EnumName<Status>, 2> kStatusNames{{{Status::kPassed, "passed"},
//                                                                  {Status::kFailed, "failed"}}};
//   constexpr const auto& enum_names(Status) { return kStatusNames; }
// The table's order is the order error messages list the names in ("is not one of: ..."), and
// beside it `static_assert(names_every_value(kStatusNames));` makes a value without its name (or a
// name twice) fail to compile.
#ifndef AWB_GRADERS_MODEL_NAMES_HPP_
#define AWB_GRADERS_MODEL_NAMES_HPP_

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace awb {

// Whether V is one of its enum's named values. The compiler spells a template argument in
// __PRETTY_FUNCTION__ by its enumerator's name when it has one ("V = awb::Scalar::kF32") and as
// a cast or a number when not ("V = (awb::Scalar)2"); GCC and Clang both do.
template <auto V>
constexpr bool is_named_value() {
  constexpr std::string_view f = __PRETTY_FUNCTION__;
  constexpr auto at = f.find("V = ");
  static_assert(at != std::string_view::npos, "this compiler does not spell template arguments");
  constexpr char c = f[at + 4];
  return c != '(' && c != '-' && (c < '0' || c > '9');
}

template <typename E, std::size_t... I>
constexpr std::size_t count_named(std::index_sequence<I...>) {
  std::size_t n = 0;
  ((is_named_value<static_cast<E>(I)>() ? ++n : n), ...);
  return n;
}

// How many values E names among 0..63: the count a complete table of E has, read from the enum
// itself, so adding an enumerator is enough to fail every table that lacks it.
template <typename E>
constexpr std::size_t enum_size() {
  return count_named<E>(std::make_index_sequence<64>{});
}

namespace detail {
enum class ProbeCheck { kA, kB, kC = 5 };
static_assert(enum_size<ProbeCheck>() == 3 && !is_named_value<static_cast<ProbeCheck>(2)>(),
              "enum_size cannot read enumerators with this compiler");
}  // namespace detail

template <typename E>
struct EnumName {
  E value;
  const char* name;  // a literal, so callers that need a C string get one
};

// The name of `v`, or "?" for a value the table lacks (an integer cast to the enum).
template <typename E, std::size_t N>
constexpr const char* name_in(const std::array<EnumName<E>, N>& table, E v) {
  for (const auto& entry : table)
    if (entry.value == v) return entry.name;
  return "?";
}

// Whether `table` names every value of E once: as many rows as E has values, no value twice.
template <typename E, std::size_t N>
constexpr bool names_every_value(const std::array<EnumName<E>, N>& table) {
  if (N != enum_size<E>()) return false;
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = i + 1; j < N; ++j)
      if (table[i].value == table[j].value) return false;
  return true;
}

// The value named `name` exactly (case and all), or nothing.
template <typename E, std::size_t N>
constexpr std::optional<E> parse_in(const std::array<EnumName<E>, N>& table,
                                    std::string_view name) {
  for (const auto& entry : table)
    if (std::string_view(entry.name) == name) return entry.value;
  return std::nullopt;
}

// For an enum that declares `enum_names` (see above).
template <typename E>
constexpr std::optional<E> parse(std::string_view name) {
  return parse_in(enum_names(E{}), name);
}

// Every name of E, in the table's order: the choices a reader offers.
template <typename E>
std::vector<std::string> all_names() {
  std::vector<std::string> out;
  for (const auto& entry : enum_names(E{})) out.emplace_back(entry.name);
  return out;
}

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_NAMES_HPP_
