// new_plugin.hpp: `awb new-plugin`: a complete out-of-tree plugin project of one variant kind,
// written from the SDK template (the single copy in sdk/template, installed as share/awb/template)
// as a working solution or as a starter whose maths is left as TODOs.
#ifndef AWB_CORE_PLUGIN_PROJECT_NEW_PLUGIN_HPP_
#define AWB_CORE_PLUGIN_PROJECT_NEW_PLUGIN_HPP_

#include <filesystem>
#include <string>
#include <vector>

namespace awb::core {

// A kind of variant the template can be made into (the rows of kVariantKinds with `new_plugin`):
// the id of the bundled assignment that grades it (exercises/assignments/<id>.yaml) and its title.
struct PluginKind {
  const char* id;
  const char* title;
};
const std::vector<PluginKind>& plugin_kinds();
std::vector<std::string> plugin_kind_ids();

struct NewPluginOptions {
  std::string kind = "parameter-free";
  bool starter = false;  // the maths left as TODOs that throw, naming the step to write
  std::string name;      // the variant id; empty: "student-<kind>"
};

// What was written: the variant's id, its plugin's id, and the files (relative to the project).
struct NewPluginProject {
  std::string name, plugin_id, target;
  std::vector<std::filesystem::path> files;
};

// The template: <prefix>/share/awb/template, or the source tree's sdk/template.
std::filesystem::path template_dir();

// Writes the project into `dir`, which must not hold anything yet (it is made when missing).
// Throws awb::Error: new_plugin.unknown_kind, new_plugin.bad_name, new_plugin.not_empty,
// template.not_found, template.invalid (nothing is written then), io.read, io.write. A file
// is never overwritten, even one that appears while the project is written.
NewPluginProject write_plugin_project(const std::filesystem::path& dir,
                                      const NewPluginOptions& options,
                                      const std::filesystem::path& from = template_dir());

}  // namespace awb::core

#endif  // AWB_CORE_PLUGIN_PROJECT_NEW_PLUGIN_HPP_
