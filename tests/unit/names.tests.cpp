// names.tests.cpp: every enum ↔ name table round-trips, names no value twice and covers its enum.
#include "graders/model/names.hpp"

#include <catch2/catch.hpp>
#include <cctype>
#include <set>
#include <string>

#include "core/exercises/exercise.hpp"
#include "core/exercises/seeded.hpp"
#include "graders/checks/check.hpp"
#include "graders/model/problem.hpp"
#include "runner/protocol.hpp"

using namespace awb;

namespace {

// Every name parses back to its value and prints as itself; names and values are distinct; the
// values are 0 ..= last, so no enumerator up to `last` lacks a name.
template <typename E>
void round_trips(E last) {
  const auto& table = enum_names(E{});
  std::set<std::string> names;
  std::set<int> values;
  for (const auto& entry : table) {
    INFO(entry.name);
    CHECK(parse<E>(entry.name) == entry.value);
    CHECK(std::string(to_string(entry.value)) == entry.name);
    CHECK(names.insert(entry.name).second);
    CHECK(values.insert(static_cast<int>(entry.value)).second);
    // Names are matched exactly: the files and journals that hold them are case-sensitive.
    std::string upper = entry.name;
    for (char& c : upper) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    CHECK_FALSE(parse<E>(upper).has_value());
  }
  for (int v = 0; v <= static_cast<int>(last); ++v) CHECK(values.count(v) == 1);
  CHECK(static_cast<int>(table.size()) == static_cast<int>(last) + 1);
  CHECK(std::string(to_string(static_cast<E>(static_cast<int>(last) + 1))) == "?");
  CHECK_FALSE(parse<E>("").has_value());
  CHECK_FALSE(parse<E>("no-such-name").has_value());
  CHECK(all_names<E>().size() == table.size());
}

}  // namespace

TEST_CASE("the model's tables round-trip: scalar, scale", "[names]") {
  round_trips(Scalar::kF32);
  round_trips(ScaleMode::kInvSqrtDk);
  round_trips(Family::kLinear);
  round_trips(ParamType::kEnum);
  CHECK(parse<Scalar>("f32") == Scalar::kF32);
  CHECK(all_names<ScaleMode>() == std::vector<std::string>{"auto", "none", "inv_sqrt_dk"});
}

TEST_CASE("the checks' tables round-trip: kind, visibility, status, output, direction", "[names]") {
  round_trips(grade::CheckKind::kGradient);
  round_trips(grade::Visibility::kAfterDueDate);
  round_trips(grade::Status::kNotRun);
  round_trips(grade::Output::kContext);
  round_trips(grade::Direction::kDecreasing);
  // The spellings reports, journals and exercise files already hold.
  CHECK(std::string(to_string(grade::Status::kNotRun)) == "not-run");
  CHECK(std::string(to_string(grade::Visibility::kAfterDueDate)) == "after_due_date");
}

TEST_CASE("the exercise model's tables round-trip: variant kind, optimizer, distribution",
          "[names]") {
  round_trips(VariantKind::kLinear);
  round_trips(core::Optimizer::kAdam);
  round_trips(core::Distribution::kUniform);
  CHECK(parse<VariantKind>("multi-head") == VariantKind::kMultiHead);
}

TEST_CASE("the runner's isolation levels round-trip through their own table", "[names]") {
  std::set<std::string> names;
  for (const auto& entry : runner::kIsolationNames) {
    INFO(entry.name);
    CHECK(runner::parse_isolation(entry.name) == entry.level);
    CHECK(std::string(runner::to_string(entry.level)) == entry.name);
    CHECK(names.insert(entry.name).second);
  }
  CHECK(runner::kIsolationNames.size() == 4);
  CHECK_FALSE(runner::parse_isolation("Confined").has_value());
  CHECK(std::string(runner::to_string(static_cast<runner::Isolation>(9))) == "unknown");
}
