// schema_shapes.hpp: the parts of exercise.schema.json that no key table holds: the shapes of
// values (a matrix, a seeded mapping, embeddings, training) and the rules that tie keys together.
#ifndef AWB_TOOLS_EXERCISE_FORMAT_SCHEMA_SHAPES_HPP_
#define AWB_TOOLS_EXERCISE_FORMAT_SCHEMA_SHAPES_HPP_

#include <nlohmann/json.hpp>

#include "core/exercises/exercise_keys.hpp"

namespace awb::tools {

using Json = nlohmann::ordered_json;

// The $defs of value shapes that key rows name with is()/each_is(), by name.
Json value_shapes();
// What a section's mapping says besides its keys (cross-key rules, a description); {} if none.
Json section_rules(core::Section s);

}  // namespace awb::tools

#endif  // AWB_TOOLS_EXERCISE_FORMAT_SCHEMA_SHAPES_HPP_
