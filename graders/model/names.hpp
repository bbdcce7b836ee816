// names.hpp: one table per enum of its values and the names files and reports spell them with,
// and the lookups both ways, so a name is written once however many readers and writers use it.
//
// An enum takes part by declaring, next to itself, its table and an `enum_names` overload that
// returns it (found by argument-dependent lookup):
//   inline constexpr std::array<EnumName<Status>, 2> kStatusNames{{{Status::kPassed, "passed"},
//                                                                  {Status::kFailed, "failed"}}};
//   constexpr const auto& enum_names(Status) { return kStatusNames; }
// The table's order is the order error messages list the names in ("is not one of: ...").
#ifndef AWB_GRADERS_MODEL_NAMES_HPP_
#define AWB_GRADERS_MODEL_NAMES_HPP_

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace awb {

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
