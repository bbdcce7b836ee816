// exercise_keys.hpp: the one table of the keys an exercise file takes: where each may appear, its
// type and whether it is required. The loader's unknown-key and required-key checks read it, a
// test holds the loader's type errors to it, and another holds the JSON Schema and FORMAT.md to it.
#ifndef AWB_CORE_EXERCISES_EXERCISE_KEYS_HPP_
#define AWB_CORE_EXERCISES_EXERCISE_KEYS_HPP_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graders/checks/check.hpp"

namespace awb::core {

// The mappings of an exercise file whose keys the table lists. A check's own keys (those of a
// predicate, say) are its definition's (graders/checks/check.hpp), not the table's.
enum class Section {
  kTop,
  kVariant,
  kTransforms,
  kParameters,
  kLimits,
  kCase,
  kLayer,
  kWeights,
  kCheck,
  kQuestion
};
// The name a section has in FORMAT.md and in the key table's printout: "top", "variant", ...
std::string_view to_string(Section s);

// What a key's value is. Words are strings from a fixed list; the alternatives say a key takes
// either form (embeddings: a list of rows or a mapping; a token: its text or its index).
enum class ValueType {
  kInteger,
  kNumber,
  kString,
  kBoolean,
  kWord,
  kList,
  kMapping,
  kListOrMapping,
  kWordOrMapping,
  kIntegerOrString
};
std::string_view to_string(ValueType t);

struct ExerciseKey {
  Section section;
  std::string_view name;
  ValueType type;
  bool required = false;  // tokens and embeddings: required unless every case has its own
};

// Every key, by section, in the order FORMAT.md lists them.
std::span<const ExerciseKey> exercise_keys();
// The names of a section's keys, in table order.
std::vector<std::string> key_names(Section s);
// The entry for `name` in `s`; a name the table lacks is a programming error (std::logic_error).
const ExerciseKey& exercise_key(Section s, std::string_view name);

// The key that names a check of `kind` among its kind's definitions ("property", "predicate"), or
// "" for a kind with one definition, named as the kind (reference, gradient).
std::string_view check_selector(grade::CheckKind kind);

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_EXERCISE_KEYS_HPP_
