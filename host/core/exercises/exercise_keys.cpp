// exercise_keys.cpp: the table of an exercise file's keys (FORMAT.md and exercise.schema.json
// follow it; tests/schema/check_exercise_keys.py compares them).
#include "core/exercises/exercise_keys.hpp"

#include <stdexcept>

namespace awb::core {
namespace {

using S = Section;
using V = ValueType;

constexpr ExerciseKey kKeys[] = {
    {S::kTop, "awb-exercise", V::kInteger, true},
    {S::kTop, "id", V::kString, true},
    {S::kTop, "title", V::kString, true},
    {S::kTop, "lesson", V::kString},
    {S::kTop, "lesson_after", V::kString},
    {S::kTop, "variant", V::kMapping, true},
    {S::kTop, "tokens", V::kList},
    {S::kTop, "embeddings", V::kListOrMapping},
    {S::kTop, "positions", V::kWordOrMapping},
    {S::kTop, "transforms", V::kMapping},
    {S::kTop, "weights", V::kMapping},
    {S::kTop, "layers", V::kList},
    {S::kTop, "parameters", V::kMapping},
    {S::kTop, "limits", V::kMapping},
    {S::kTop, "cases", V::kList},
    {S::kTop, "checks", V::kList, true},
    {S::kTop, "train", V::kMapping},
    {S::kTop, "questions", V::kList},

    {S::kVariant, "kind", V::kWord, true},
    {S::kVariant, "requires", V::kList},
    {S::kVariant, "params", V::kMapping},

    {S::kTransforms, "scale_embeddings", V::kNumber},

    {S::kParameters, "sharpness", V::kNumber},
    {S::kParameters, "heads", V::kInteger},
    {S::kParameters, "causal", V::kBoolean},
    {S::kParameters, "scale", V::kWord},

    {S::kLimits, "cpu_seconds", V::kNumber},
    {S::kLimits, "wall_seconds", V::kNumber},
    {S::kLimits, "memory_mb", V::kInteger},

    {S::kCase, "id", V::kString, true},
    {S::kCase, "tokens", V::kList},
    {S::kCase, "embeddings", V::kListOrMapping},
    {S::kCase, "positions", V::kWordOrMapping},

    {S::kLayer, "weights", V::kMapping, true},
    {S::kLayer, "residual", V::kBoolean},

    // w_q, w_k and w_v come together (or not at all, in a layer of a parameter-free stack).
    {S::kWeights, "w_q", V::kListOrMapping},
    {S::kWeights, "w_k", V::kListOrMapping},
    {S::kWeights, "w_v", V::kListOrMapping},
    {S::kWeights, "w_o", V::kListOrMapping},

    // Every check's keys; its kind adds the selector (property, predicate) and its definition's.
    {S::kCheck, "id", V::kString, true},
    {S::kCheck, "kind", V::kWord, true},
    {S::kCheck, "points", V::kNumber},
    {S::kCheck, "hint", V::kString},
    {S::kCheck, "visibility", V::kWord},
    {S::kCheck, "case", V::kString},
    {S::kCheck, "layer", V::kInteger},
    {S::kCheck, "parameters", V::kMapping},
    {S::kCheck, "scalar", V::kWord},

    // A question's answer is derived from the reference, never written (FORMAT.md, "Questions").
    {S::kQuestion, "id", V::kString, true},
    {S::kQuestion, "ask", V::kString, true},
    {S::kQuestion, "answer", V::kWord, true},
    {S::kQuestion, "case", V::kString},
    {S::kQuestion, "layer", V::kInteger},
    {S::kQuestion, "head", V::kInteger},
    {S::kQuestion, "query", V::kIntegerOrString, true},
    {S::kQuestion, "key", V::kIntegerOrString},
    {S::kQuestion, "explain", V::kString},
};

}  // namespace

std::string_view to_string(Section s) {
  switch (s) {
    case S::kTop:
      return "top";
    case S::kVariant:
      return "variant";
    case S::kTransforms:
      return "transforms";
    case S::kParameters:
      return "parameters";
    case S::kLimits:
      return "limits";
    case S::kCase:
      return "case";
    case S::kLayer:
      return "layer";
    case S::kWeights:
      return "weights";
    case S::kCheck:
      return "check";
    case S::kQuestion:
      return "question";
  }
  return "?";
}

std::string_view to_string(ValueType t) {
  switch (t) {
    case V::kInteger:
      return "integer";
    case V::kNumber:
      return "number";
    case V::kString:
      return "string";
    case V::kBoolean:
      return "boolean";
    case V::kWord:
      return "word";
    case V::kList:
      return "list";
    case V::kMapping:
      return "mapping";
    case V::kListOrMapping:
      return "list|mapping";
    case V::kWordOrMapping:
      return "mapping|word";
    case V::kIntegerOrString:
      return "integer|string";
  }
  return "?";
}

std::span<const ExerciseKey> exercise_keys() { return kKeys; }

std::vector<std::string> key_names(Section s) {
  std::vector<std::string> out;
  for (const auto& k : kKeys)
    if (k.section == s) out.emplace_back(k.name);
  return out;
}

const ExerciseKey& exercise_key(Section s, std::string_view name) {
  for (const auto& k : kKeys)
    if (k.section == s && k.name == name) return k;
  throw std::logic_error("the exercise key table has no '" + std::string(name) + "' in " +
                         std::string(to_string(s)));
}

std::string_view check_selector(grade::CheckKind kind) {
  switch (kind) {
    case grade::CheckKind::kProperty:
      return "property";
    case grade::CheckKind::kExpect:
      return "predicate";
    case grade::CheckKind::kReference:
    case grade::CheckKind::kGradient:
      return "";
  }
  return "";
}

}  // namespace awb::core
