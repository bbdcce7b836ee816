// exercise_keys.hpp: the one table of the keys an exercise file takes: where each may appear, its
// type, whether it is required, what it means and the values it takes. The loader's unknown-key
// and required-key checks read it, a test holds the loader's type errors to it, and
// exercises/exercise.schema.json and FORMAT.md's key tables are generated from it
// (host/tools/exercise_format).
#ifndef AWB_CORE_EXERCISES_EXERCISE_KEYS_HPP_
#define AWB_CORE_EXERCISES_EXERCISE_KEYS_HPP_

#include <optional>
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

// A key's row. The fields after `required` say what the generated schema and FORMAT.md say of
// it; rows are written with the setters below, e.g.
//   key(S::kParameters, "heads", V::kInteger).at_least(1).at_most(64).means("...").absent("`1`")
struct ExerciseKey {
  Section section;
  std::string_view name;
  ValueType type;
  bool required = false;  // tokens and embeddings: required unless every case has its own
  // One line for FORMAT.md's "meaning" column and the schema's description (Markdown).
  std::string_view meaning = {};
  // What leaving the key out means (FORMAT.md's "default" column); empty: "none", or "required".
  std::string_view when_absent = {};
  // FORMAT.md's "type" column where the type, the words and the range do not say enough.
  std::string_view written = {};
  // The schema's definition of the value ("tokens", "weight", a section's name, ...), or of each
  // item of a list when `each` is set.
  std::string_view shape = {};
  bool each = false;
  // The words a word (or each item of a list) may be, from the enum's own name table.
  std::vector<std::string> (*words)() = nullptr;
  std::string_view pattern = {};              // a string's regular expression (ECMA-262, anchored)
  std::optional<double> low = {}, high = {};  // a number's or integer's bounds
  bool low_open = false, high_open = false;
  int min_items = 0, max_items = 0;  // a list's length; 0: not bounded

  constexpr ExerciseKey req() const {
    return with([](ExerciseKey& k) { k.required = true; });
  }
  constexpr ExerciseKey means(std::string_view s) const {
    return with([s](ExerciseKey& k) { k.meaning = s; });
  }
  constexpr ExerciseKey absent(std::string_view s) const {
    return with([s](ExerciseKey& k) { k.when_absent = s; });
  }
  constexpr ExerciseKey as(std::string_view s) const {
    return with([s](ExerciseKey& k) { k.written = s; });
  }
  constexpr ExerciseKey is(std::string_view def) const {
    return with([def](ExerciseKey& k) { k.shape = def; });
  }
  constexpr ExerciseKey each_is(std::string_view def) const {
    return with([def](ExerciseKey& k) { k.shape = def, k.each = true; });
  }
  constexpr ExerciseKey one_of(std::vector<std::string> (*w)()) const {
    return with([w](ExerciseKey& k) { k.words = w; });
  }
  constexpr ExerciseKey matches(std::string_view re) const {
    return with([re](ExerciseKey& k) { k.pattern = re; });
  }
  constexpr ExerciseKey at_least(double v) const {
    return with([v](ExerciseKey& k) { k.low = v; });
  }
  constexpr ExerciseKey above(double v) const {
    return with([v](ExerciseKey& k) { k.low = v, k.low_open = true; });
  }
  constexpr ExerciseKey at_most(double v) const {
    return with([v](ExerciseKey& k) { k.high = v; });
  }
  constexpr ExerciseKey items(int least, int most) const {
    return with([least, most](ExerciseKey& k) { k.min_items = least, k.max_items = most; });
  }

 private:
  template <typename F>
  constexpr ExerciseKey with(F f) const {
    ExerciseKey k = *this;
    f(k);
    return k;
  }
};

constexpr ExerciseKey key(Section s, std::string_view name, ValueType t) { return {s, name, t}; }

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
