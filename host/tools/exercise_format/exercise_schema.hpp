// exercise_schema.hpp: exercises/exercise.schema.json, generated from the exercise key table
// (host/core/exercises/exercise_keys.hpp) and the registry of check definitions.
#ifndef AWB_TOOLS_EXERCISE_FORMAT_EXERCISE_SCHEMA_HPP_
#define AWB_TOOLS_EXERCISE_FORMAT_EXERCISE_SCHEMA_HPP_

#include <string>

namespace awb::tools {

// The schema's text, two-space indented, ending in a newline. Throws std::logic_error when a key
// row names a shape that no definition provides.
std::string exercise_schema();

}  // namespace awb::tools

#endif  // AWB_TOOLS_EXERCISE_FORMAT_EXERCISE_SCHEMA_HPP_
