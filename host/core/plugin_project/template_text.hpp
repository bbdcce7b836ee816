// template_text.hpp: the marker language of the SDK template (sdk/template): one copy of each file
// serves every variant kind, as a working solution or as a starter with the maths left as TODOs.
//
// A marker is a line of its own, inside the file's own comment syntax, so that the template
// stays a C++, CMake or Markdown file that editors and clang-format read as usual:
//
//   // awb-template: if kind qkv multi-head     (C++; "#" in CMake, "<!-- ... -->" in Markdown)
//   // awb-template: if starter                 (or: if solution)
//   // awb-template: else
//   // awb-template: end
//
// Regions nest; a line is kept when every region around it is taken, and marker lines are
// dropped. Kept lines have their placeholders (@name@, @kind@, ...) replaced. A line that names
// awb-template but is no marker, an unknown kind or placeholder, an `else` or `end` without its
// `if`, and an `if` never ended are errors (template.invalid), so a typo in the template fails
// the generation instead of shipping half a region.
#ifndef AWB_CORE_PLUGIN_PROJECT_TEMPLATE_TEXT_HPP_
#define AWB_CORE_PLUGIN_PROJECT_TEMPLATE_TEXT_HPP_

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace awb::core {

// Which regions to keep, and what the placeholders stand for.
struct TemplateChoice {
  std::string kind;                                 // keeps the regions `if kind` names it in
  bool starter = false;                             // keeps `if starter`, else `if solution`
  std::vector<std::string> kinds;                   // every kind a marker may name
  std::map<std::string, std::string> placeholders;  // "name" -> "student-qkv" replaces @name@
};

// The text with the chosen regions kept and the placeholders replaced. `file` names the file in
// errors ("CMakeLists.txt:7"). Throws awb::Error("template.invalid").
std::string render_template(std::string_view text, const TemplateChoice& choice,
                            const std::string& file);

}  // namespace awb::core

#endif  // AWB_CORE_PLUGIN_PROJECT_TEMPLATE_TEXT_HPP_
