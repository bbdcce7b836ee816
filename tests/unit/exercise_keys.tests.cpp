// exercise_keys.tests.cpp: the loader's table of exercise keys is the loader's: every key it
// lists is accepted where the table says, a value of another type is an exercise.type error at
// that key, and a required key left out is an exercise.missing_key error.
#include "core/exercises/exercise_keys.hpp"

#include <yaml-cpp/yaml.h>

#include <catch2/catch.hpp>
#include <functional>
#include <optional>
#include <string>

#include "core/exercises/exercise.hpp"

using namespace awb;
using core::Section;
using core::ValueType;

namespace {

// Every section and key of the table, once: top-level weights, transforms and limits.
const char* const kFlat = R"(
awb-exercise: 1
id: keys
title: Keys
lesson: a lesson
variant: {kind: qkv, requires: [f64]}
tokens: [a, b]
embeddings: [[1.0, 0.0], [0.0, 1.0]]
positions: none
transforms: {scale_embeddings: 1.0}
weights:
  w_q: [[1.0, 0.0], [0.0, 1.0]]
  w_k: [[1.0, 0.0], [0.0, 1.0]]
  w_v: [[1.0, 0.0], [0.0, 1.0]]
  w_o: [[1.0, 0.0], [0.0, 1.0]]
parameters: {sharpness: 1.0, heads: 1, causal: false, scale: auto}
limits: {cpu_seconds: 10, wall_seconds: 30, memory_mb: 1024}
checks:
  - {id: c, kind: property, property: finite, points: 1, hint: h, visibility: visible, case: keys,
     layer: 0, parameters: {sharpness: 1.0}, scalar: f64}
questions:
  - {id: q, ask: Which, answer: token, case: keys, layer: 0, head: 0, query: a, explain: e}
)";

// Cases and a stack of layers.
const char* const kStacked = R"(
awb-exercise: 1
id: keys
title: Keys
variant: {kind: qkv}
layers:
  - weights:
      w_q: [[1.0, 0.0], [0.0, 1.0]]
      w_k: [[1.0, 0.0], [0.0, 1.0]]
      w_v: [[1.0, 0.0], [0.0, 1.0]]
    residual: true
cases:
  - {id: one, tokens: [a, b], embeddings: [[1.0, 0.0], [0.0, 1.0]], positions: none}
checks:
  - {id: c, kind: property, property: finite}
)";

// The mapping that holds a section's keys in `root`, and its path, or an undefined node.
std::pair<YAML::Node, std::string> section_of(YAML::Node root, Section s) {
  switch (s) {
    case Section::kTop:
      return {root, ""};
    case Section::kVariant:
    case Section::kTransforms:
    case Section::kParameters:
    case Section::kLimits:
    case Section::kWeights: {
      const std::string name(core::to_string(s));
      if (s == Section::kWeights && !root["weights"])
        return {root["layers"][0]["weights"], "layers[0].weights"};
      return {root[name], name};
    }
    case Section::kCase:
      return {root["cases"][0], "cases[0]"};
    case Section::kLayer:
      return {root["layers"][0], "layers[0]"};
    case Section::kCheck:
      return {root["checks"][0], "checks[0]"};
    case Section::kQuestion:
      return {root["questions"][0], "questions[0]"};
  }
  return {};
}

// A value that is not of type `t`.
std::string other_than(ValueType t) {
  switch (t) {
    case ValueType::kInteger:
    case ValueType::kNumber:
    case ValueType::kBoolean:
      return "abc";
    case ValueType::kString:
    case ValueType::kWord:
    case ValueType::kWordOrMapping:
    case ValueType::kIntegerOrString:
      return "[1]";
    case ValueType::kList:
    case ValueType::kMapping:
    case ValueType::kListOrMapping:
      return "7";
  }
  return "";
}

// Loads `base` changed by `edit` on the mapping of section `s`; nothing when the base lacks it.
std::optional<core::ExerciseLoad> load_edited(const char* base, Section s,
                                              const std::function<void(YAML::Node&)>& edit) {
  YAML::Node root = YAML::Load(base);
  auto [map, path] = section_of(root, s);
  if (!map.IsDefined() || !map.IsMap()) return std::nullopt;
  edit(map);
  return core::parse_exercise(YAML::Dump(root), "keys.yaml");
}

bool has_error(const core::ExerciseLoad& load, const std::string& id, const std::string& path) {
  for (const auto& e : load.errors)
    if (e.id() == id && e.message().rfind(path + ": ", 0) == 0) return true;
  return false;
}

std::string key_path(const std::string& section_path, std::string_view key) {
  return section_path.empty() ? std::string(key) : section_path + "." + std::string(key);
}

}  // namespace

TEST_CASE("exercise keys: both bases load cleanly", "[exercise][keys]") {
  for (const char* base : {kFlat, kStacked}) {
    const auto load = core::parse_exercise(base, "keys.yaml");
    for (const auto& e : load.errors) INFO(e.what());
    CHECK(load.errors.empty());
  }
}

TEST_CASE("exercise keys: a value of another type is a type error at the key", "[exercise][keys]") {
  for (const auto& k : core::exercise_keys()) {
    INFO(core::to_string(k.section) << "." << k.name << " (" << core::to_string(k.type) << ")");
    bool found = false;
    for (const char* base : {kFlat, kStacked}) {
      const std::string wrong = other_than(k.type);
      const auto load = load_edited(
          base, k.section, [&](YAML::Node& m) { m[std::string(k.name)] = YAML::Load(wrong); });
      if (!load) continue;
      const std::string path = key_path(section_of(YAML::Load(base), k.section).second, k.name);
      found = found || has_error(*load, "exercise.type", path);
    }
    CHECK(found);
  }
}

TEST_CASE("exercise keys: a required key left out is reported missing", "[exercise][keys]") {
  for (const auto& k : core::exercise_keys()) {
    if (!k.required) continue;
    INFO(core::to_string(k.section) << "." << k.name);
    bool found = false;
    for (const char* base : {kFlat, kStacked}) {
      const auto load =
          load_edited(base, k.section, [&](YAML::Node& m) { m.remove(std::string(k.name)); });
      if (!load) continue;
      for (const auto& e : load->errors)
        found = found || (e.id() == "exercise.missing_key" &&
                          e.message().find(std::string(k.name)) != std::string::npos);
    }
    CHECK(found);
  }
}

TEST_CASE("exercise keys: a key outside the table is unknown in every section",
          "[exercise][keys]") {
  for (Section s : {Section::kTop, Section::kVariant, Section::kTransforms, Section::kParameters,
                    Section::kLimits, Section::kCase, Section::kLayer, Section::kWeights,
                    Section::kCheck, Section::kQuestion}) {
    INFO(core::to_string(s));
    bool found = false;
    for (const char* base : {kFlat, kStacked}) {
      const auto load = load_edited(base, s, [](YAML::Node& m) { m["not_a_key"] = 1; });
      if (!load) continue;
      const std::string path = key_path(section_of(YAML::Load(base), s).second, "not_a_key");
      found = found || has_error(*load, "exercise.unknown_key", path);
    }
    CHECK(found);
  }
}
