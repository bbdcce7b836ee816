// exercise_schema.cpp: the JSON Schema of an exercise file from the key table, the value shapes
// and the check registry.
#include "tools/exercise_format/exercise_schema.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/exercises/exercise_keys.hpp"
#include "graders/checks/check.hpp"
#include "tools/exercise_format/schema_shapes.hpp"

namespace awb::tools {
namespace {

using core::ExerciseKey;
using core::Section;
using core::ValueType;

Json ref(std::string_view def) { return {{"$ref", "#/$defs/" + std::string(def)}}; }

Json words(const ExerciseKey& k) { return {{"enum", k.words()}}; }

// A bound as the schema writes it: a whole number without a decimal point.
Json bound(double v) {
  if (v == std::floor(v)) return static_cast<std::int64_t>(v);
  return v;
}

// What one key's value may be.
Json key_schema(const ExerciseKey& k) {
  Json s = Json::object();
  if (!k.shape.empty() && !k.each) {
    s = ref(k.shape);
  } else if (k.type == ValueType::kList) {
    s["type"] = "array";
    if (k.min_items > 0) s["minItems"] = k.min_items;
    if (k.max_items > 0) s["maxItems"] = k.max_items;
    s["items"] = k.words ? words(k) : ref(k.shape);
  } else if (k.words) {
    s = words(k);
  } else {
    switch (k.type) {
      case ValueType::kInteger:
        s["type"] = "integer";
        break;
      case ValueType::kNumber:
        s["type"] = "number";
        break;
      case ValueType::kBoolean:
        s["type"] = "boolean";
        break;
      case ValueType::kMapping:
        s["type"] = "object";
        break;
      default:
        s["type"] = "string";
    }
    if (!k.pattern.empty()) s["pattern"] = k.pattern;
    if (k.low) s[k.low_open ? "exclusiveMinimum" : "minimum"] = bound(*k.low);
    if (k.high) s[k.high_open ? "exclusiveMaximum" : "maximum"] = bound(*k.high);
  }
  // What FORMAT.md's row says, so that an editor shows the default beside the meaning.
  std::string description(k.meaning);
  if (!k.when_absent.empty() && !k.required)
    description += (description.empty() ? "Default: " : ". Default: ") + std::string(k.when_absent);
  if (!description.empty()) s["description"] = description;
  return s;
}

// A section's mapping: its keys, those required, nothing else, and its own rules.
Json section_schema(Section section) {
  Json s = {{"type", "object"}, {"properties", Json::object()}};
  std::vector<std::string> required;
  for (const auto& k : core::exercise_keys()) {
    if (k.section != section) continue;
    s["properties"][std::string(k.name)] = key_schema(k);
    if (k.required) required.emplace_back(k.name);
  }
  if (!required.empty()) s["required"] = required;
  s["additionalProperties"] = false;
  const Json rules = section_rules(section);
  for (const auto& [name, value] : rules.items()) {
    if (name == "required") {
      for (const auto& r : value)
        if (std::find(required.begin(), required.end(), r) == required.end()) required.push_back(r);
      s["required"] = required;
    } else {
      s[name] = value;
    }
  }
  return s;
}

// How a check's own key is written (graders/checks/check.hpp's KeyType).
Json check_key_schema(grade::KeyType t) {
  using grade::KeyType;
  const Json number = {{"type", "number"}, {"minimum", 0}};
  switch (t) {
    case KeyType::kToken:
      return ref("token_ref");
    case KeyType::kTokenList:
      return {{"type", "array"}, {"minItems", 1}, {"items", ref("token_ref")}};
    case KeyType::kCount:
      return {{"type", "integer"}, {"minimum", 1}, {"maximum", 4096}};
    case KeyType::kHead:
      return {{"type", "integer"}, {"minimum", 0}, {"maximum", 63}};
    case KeyType::kNumber:
      return ref("number");
    case KeyType::kVector:
      return {{"type", "array"}, {"minItems", 1}, {"items", ref("number")}};
    case KeyType::kBoolean:
      return {{"type", "boolean"}};
    case KeyType::kDirection:
      return {{"enum", all_names<grade::Direction>()}};
    case KeyType::kOutputs:
      return {{"type", "array"},
              {"minItems", 1},
              {"maxItems", grade::kOutputNames.size()},
              {"items", {{"enum", all_names<grade::Output>()}}}};
    case KeyType::kAbsTolerance:
      return number;
    case KeyType::kTolerance:
      return {{"type", "object"},
              {"properties", {{"atol", number}, {"rtol", number}}},
              {"additionalProperties", false}};
    case KeyType::kSweep:
      return ref("sweep");
    case KeyType::kMeasure:
      return ref("measure");
  }
  throw std::logic_error("a check key type without a schema");
}

constexpr grade::CheckKind kKinds[] = {grade::CheckKind::kReference, grade::CheckKind::kProperty,
                                       grade::CheckKind::kExpect, grade::CheckKind::kGradient};

// The if/then block that holds for one definition: only its keys, its required ones, and its
// own form of a key that definitions write differently (`tolerance`, `value`).
Json definition_block(const grade::CheckDef& def, const std::vector<std::string>& common,
                      const Json& shared) {
  const std::string selector(core::check_selector(def.kind));
  Json when = {{"properties", {{"kind", {{"const", grade::to_string(def.kind)}}}}},
               {"required", {"kind"}}};
  std::vector<std::string> allowed = common;
  if (!selector.empty()) {
    when["properties"][selector] = {{"const", def.name}};
    when["required"].push_back(selector);
    allowed.push_back(selector);
  }
  Json then = Json::object();
  std::vector<std::string> required;
  Json narrowed = Json::object();
  for (const auto& k : def.keys) {
    allowed.push_back(k.name);
    if (k.required) required.push_back(k.name);
    const Json own = check_key_schema(k.type);
    if (shared.at(k.name) != own) narrowed[k.name] = own;
  }
  if (!required.empty()) then["required"] = required;
  then["propertyNames"] = {{"enum", allowed}};
  if (!narrowed.empty()) then["properties"] = narrowed;
  return {{"if", when}, {"then", then}};
}

// A check: the common keys (the table's), the selectors, every definition's keys (a key that
// definitions write differently takes any of their forms here, and its own in their block).
Json check_schema() {
  Json s = section_schema(Section::kCheck);
  const auto& registry = grade::Registry::instance();
  const std::vector<std::string> common = core::key_names(Section::kCheck);
  std::vector<std::string> all = common;
  std::map<std::string, std::vector<Json>> forms;
  for (auto kind : kKinds) {
    const std::string selector(core::check_selector(kind));
    if (!selector.empty()) {
      s["properties"][selector] = {{"enum", registry.names(kind)}};
      all.push_back(selector);
    }
    for (const auto& name : registry.names(kind)) {
      for (const auto& k : registry.find(kind, name)->keys) {
        auto& f = forms[k.name];
        if (f.empty()) all.push_back(k.name);
        const Json own = check_key_schema(k.type);
        if (std::find(f.begin(), f.end(), own) == f.end()) f.push_back(own);
      }
    }
  }
  for (const auto& name : all) {
    if (!forms.count(name)) continue;
    const auto& f = forms[name];
    s["properties"][name] = f.size() == 1 ? f[0] : Json{{"oneOf", f}};
  }
  s.erase("additionalProperties");
  s["propertyNames"] = {{"enum", all}};
  Json blocks = Json::array();
  for (auto kind : kKinds) {
    const std::string selector(core::check_selector(kind));
    if (!selector.empty())
      blocks.push_back({{"if",
                         {{"properties", {{"kind", {{"const", grade::to_string(kind)}}}}},
                          {"required", {"kind"}}}},
                        {"then", {{"required", {selector}}}}});
    for (const auto& name : registry.names(kind))
      blocks.push_back(definition_block(*registry.find(kind, name), common, s["properties"]));
  }
  s["allOf"] = blocks;
  return s;
}

// Every $ref in `node` names a definition of `defs`.
void check_refs(const Json& node, const Json& defs) {
  if (node.is_object()) {
    if (auto r = node.find("$ref"); r != node.end()) {
      // The definition a reference starts from ("variant" of "#/$defs/variant/properties/kind").
      std::string target = r->get<std::string>().substr(std::string("#/$defs/").size());
      target = target.substr(0, target.find('/'));
      if (!defs.contains(target))
        throw std::logic_error("the exercise schema refers to '" + target +
                               "', which no definition provides");
    }
  }
  if (node.is_structured())
    for (const auto& child : node) check_refs(child, defs);
}

}  // namespace

std::string exercise_schema() {
  Json schema = {
      {"$schema", "https://json-schema.org/draft/2020-12/schema"},
      {"title", "Attention Workbench exercise, format version 1"},
      {"description",
       "An exercise file (exercises/FORMAT.md). awb lint is the authority: it also checks "
       "shapes, token names, caps and cross-references that a schema cannot. Generated from "
       "the workbench's key table: do not edit by hand."}};
  schema.update(section_schema(Section::kTop));
  Json defs = value_shapes();
  for (auto s : {Section::kVariant, Section::kTransforms, Section::kParameters, Section::kLimits,
                 Section::kCase, Section::kLayer, Section::kWeights, Section::kQuestion})
    defs[std::string(core::to_string(s))] = section_schema(s);
  defs["check"] = check_schema();
  schema["$defs"] = defs;
  check_refs(schema, defs);
  return schema.dump(2, ' ', false) + "\n";
}

}  // namespace awb::tools
