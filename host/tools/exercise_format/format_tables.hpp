// format_tables.hpp: FORMAT.md's key tables and check tables, generated from the exercise key
// table and the registry of check definitions, and put between the page's markers.
#ifndef AWB_TOOLS_EXERCISE_FORMAT_FORMAT_TABLES_HPP_
#define AWB_TOOLS_EXERCISE_FORMAT_FORMAT_TABLES_HPP_

#include <string>

namespace awb::tools {

// `page` with every generated table replaced by the current one. A table sits between
//   <!-- generated: keys SECTION -->   (SECTION: top, variant, ..., as exercise_keys.hpp names it)
//   <!-- generated: checks KIND -->    (KIND: property or expect)
// and the next `<!-- end generated -->`. Throws std::runtime_error for a marker without an end,
// an unknown name, or a section or kind whose table the page lacks.
std::string with_generated_tables(const std::string& page);

}  // namespace awb::tools

#endif  // AWB_TOOLS_EXERCISE_FORMAT_FORMAT_TABLES_HPP_
