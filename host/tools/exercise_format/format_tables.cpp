// format_tables.cpp: the Markdown tables of exercises/FORMAT.md that the key table and the check
// registry say.
#include "tools/exercise_format/format_tables.hpp"

#include <cmath>
#include <cstdio>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/exercises/exercise_keys.hpp"
#include "graders/checks/check.hpp"

namespace awb::tools {
namespace {

using core::ExerciseKey;
using core::Section;
using core::ValueType;

constexpr std::string_view kOpen = "<!-- generated: ";
constexpr std::string_view kEnd = "<!-- end generated -->";

// A table cell: a `|` of the text is escaped so that it does not end the cell.
std::string cell(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '|') out += '\\';
    out += c;
  }
  return out;
}

// 1000000 as "1,000,000"; a fraction as printf's %g writes it.
std::string number(double v) {
  if (v != std::floor(v)) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
  }
  std::string digits = std::to_string(static_cast<long long>(v));
  for (int i = static_cast<int>(digits.size()) - 3; i > (digits[0] == '-' ? 1 : 0); i -= 3)
    digits.insert(static_cast<size_t>(i), ",");
  return digits;
}

// FORMAT.md's "type" column: the row's own words, else the allowed words, else the type and its
// range.
std::string written_type(const ExerciseKey& k) {
  if (!k.written.empty()) return std::string(k.written);
  std::string out;
  if (k.words) {
    for (const auto& w : k.words()) out += (out.empty() ? "`" : " | `") + w + "`";
    return k.type == ValueType::kList ? "list of " + out : out;
  }
  out = std::string(core::to_string(k.type));
  if (k.type == ValueType::kList && k.min_items > 0) out += ", ≥ " + number(k.min_items);
  if (k.low && k.high) return out + ", " + number(*k.low) + " to " + number(*k.high);
  if (k.low) return out + (k.low_open ? " > " : " ≥ ") + number(*k.low);
  if (k.high) return out + (k.high_open ? " < " : " ≤ ") + number(*k.high);
  return out;
}

std::string key_table(Section section) {
  std::string out = "| key | type | default | meaning |\n|---|---|---|---|\n";
  for (const auto& k : core::exercise_keys()) {
    if (k.section != section) continue;
    std::string absent(k.when_absent);
    if (absent.empty()) absent = k.required ? "required" : "none";
    out += "| `" + std::string(k.name) + "` | " + cell(written_type(k)) + " | " + cell(absent) +
           " | " + cell(k.meaning) + " |\n";
  }
  return out;
}

// An expect predicate's keys as a person writes them: the required ones, and `query` or
// `all_rows` for a predicate that judges one row or every row.
std::string predicate_keys(const grade::CheckDef& def) {
  std::string out;
  auto add = [&out](const std::string& text) { out += (out.empty() ? "" : ", ") + text; };
  if (def.needs_query_or_all_rows) add("`query` (or `all_rows: true`)");
  for (const auto& k : def.keys) {
    if (!k.required) continue;
    add("`" + k.name + "`" + (k.type == grade::KeyType::kVector ? " (a vector)" : ""));
  }
  return out;
}

std::string check_table(grade::CheckKind kind) {
  const auto& registry = grade::Registry::instance();
  const bool expect = kind == grade::CheckKind::kExpect;
  std::string out = expect ? "| predicate | keys | holds when |\n|---|---|---|\n"
                           : "| property | what holds |\n|---|---|\n";
  for (const auto& name : registry.names(kind)) {
    const grade::CheckDef& def = *registry.find(kind, name);
    out += "| `" + name + "` | ";
    if (expect) out += cell(predicate_keys(def)) + " | ";
    out += cell(def.description) + " |\n";
  }
  return out;
}

// The table a marker's name ("keys top", "checks expect") stands for.
std::string table_named(const std::string& name) {
  constexpr Section kSections[] = {Section::kTop,        Section::kVariant, Section::kTransforms,
                                   Section::kParameters, Section::kLimits,  Section::kCase,
                                   Section::kLayer,      Section::kWeights, Section::kCheck,
                                   Section::kQuestion};
  for (auto s : kSections)
    if (name == "keys " + std::string(core::to_string(s))) return key_table(s);
  if (name == "checks property") return check_table(grade::CheckKind::kProperty);
  if (name == "checks expect") return check_table(grade::CheckKind::kExpect);
  throw std::runtime_error("FORMAT.md names a generated table '" + name + "' that is none");
}

}  // namespace

std::string with_generated_tables(const std::string& page) {
  std::string out;
  std::set<std::string> seen;
  size_t pos = 0;
  for (;;) {
    const size_t open = page.find(kOpen, pos);
    if (open == std::string::npos) break;
    const size_t name_end = page.find(" -->\n", open);
    const size_t end = page.find(kEnd, open);
    if (name_end == std::string::npos || end == std::string::npos || end < name_end)
      throw std::runtime_error("FORMAT.md: a generated table's marker has no end marker");
    const std::string name = page.substr(open + kOpen.size(), name_end - open - kOpen.size());
    const size_t body = name_end + std::string_view(" -->\n").size();
    out += page.substr(pos, body - pos) + table_named(name);
    seen.insert(name);
    pos = end;
  }
  out += page.substr(pos);
  for (const auto& k : core::exercise_keys()) {
    const std::string name = "keys " + std::string(core::to_string(k.section));
    if (!seen.count(name))
      throw std::runtime_error("FORMAT.md has no generated table '" + name + "'");
  }
  for (const char* name : {"checks property", "checks expect"})
    if (!seen.count(name))
      throw std::runtime_error("FORMAT.md has no generated table '" + std::string(name) + "'");
  return out;
}

}  // namespace awb::tools
