// exercise_parse.hpp: internals shared by the two halves of the exercise loader (data, checks).
#ifndef AWB_CORE_EXERCISES_EXERCISE_PARSE_HPP_
#define AWB_CORE_EXERCISES_EXERCISE_PARSE_HPP_

#include <optional>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_keys.hpp"
#include "core/exercises/yaml_reader.hpp"

namespace awb::core::parse {

// Size caps of format version 1 (FORMAT.md, "Caps").
inline constexpr int64_t kMaxTokens = 4096;
inline constexpr int64_t kMaxWidth = 4096;
inline constexpr int64_t kMaxHeads = 64;
inline constexpr int64_t kMaxLayers = 16;
inline constexpr int64_t kMaxCases = 64;
inline constexpr int64_t kMaxChecks = 256;
inline constexpr int64_t kMaxSweep = 64;
inline constexpr int64_t kMaxQuestions = 64;

// Mapping `n` at `path` holds only the table's keys of `s` (exercise_keys.hpp), each once; false
// when it is not a mapping.
bool check_section(YamlReader& rd, const YAML::Node& n, const std::string& path, Section s);
// Key `name` of section `s` in `map`, or nullopt when absent; a key the table marks required is
// then reported missing.
std::optional<YAML::Node> section_key(YamlReader& rd, const YAML::Node& map,
                                      const std::string& path, Section s, std::string_view name);

// `parameters:` at the top level or in a check (only the keys present are set).
grade::ParameterOverrides parameters(YamlReader& rd, const YAML::Node& n, const std::string& path);

// `variant.params` (a problem file's too): a mapping of parameter names to scalars, kept as
// written; they are checked against the declarations of whoever runs them.
void variant_params(YamlReader& rd, const YAML::Node& n, const std::string& path, ParamValues& out);

// Reads `checks:` into `ex.checks`, resolving token names against each check's case.
void checks(YamlReader& rd, const YAML::Node& n, Exercise& ex);
// The same for a list of checks at `path` (e.g. "train.success.checks") into `out`.
void checks(YamlReader& rd, const YAML::Node& n, const std::string& path, const Exercise& ex,
            std::vector<grade::CheckSpec>& out);

// A token of case `c` named by its text (first occurrence) or by its index.
std::optional<int> token_ref(YamlReader& rd, const YAML::Node& n, const std::string& path,
                             const ExerciseCase& c);

// A case of `ex` named by its id (exercise.unknown_case, with a did-you-mean, otherwise).
std::optional<int> case_ref(YamlReader& rd, const YAML::Node& n, const std::string& path,
                            const Exercise& ex);

// A seeded distribution {seed, distribution, mean, std, low, high} plus `extra_keys`.
std::optional<SeededSpec> seeded_spec(YamlReader& rd, const YAML::Node& n, const std::string& path,
                                      std::vector<std::string> extra_keys);

// A matrix written as a list of rows, or seeded {seed, rows, cols, distribution, ...} (an
// exercise's weights; a problem file's matrices too).
std::optional<Matrix> weight_matrix(YamlReader& rd, const YAML::Node& n, const std::string& path);

// Reads `train:` into `ex.train` (after the cases, layers and checks are read).
void train(YamlReader& rd, const YAML::Node& n, Exercise& ex);
// Reads `questions:` into `ex.questions` (after the cases and layers are read).
void questions(YamlReader& rd, const YAML::Node& n, Exercise& ex);

}  // namespace awb::core::parse

#endif  // AWB_CORE_EXERCISES_EXERCISE_PARSE_HPP_
