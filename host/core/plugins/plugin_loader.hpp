// plugin_loader.hpp: finds plugin files, loads them with Boost.DLL, validates their descriptors.
#ifndef AWB_CORE_PLUGINS_PLUGIN_LOADER_HPP_
#define AWB_CORE_PLUGINS_PLUGIN_LOADER_HPP_

#include <awb/awb_plugin.h>

#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "core/runner_client/runner_process.hpp"
#include "graders/model/params.hpp"
#include "runner/protocol.hpp"

namespace awb::core {

class Library;  // a loaded shared object; stays loaded while anything from it lives

enum class LoadStage { kDiscover, kOpen, kEntrySymbol, kAbi, kDescriptor, kDuplicate };
const char* to_string(LoadStage stage);

// Why one file did not become a plugin. Data, never an exception.
struct LoadFailure {
  std::filesystem::path path;
  LoadStage stage;
  std::string message;
  std::string system_error;  // dlerror() text where the system gave one
};

// "A variant you can run" is one family of names, from what a plugin declares to what a check
// runs: VariantDesc (declared, as loaded), VariantRef (one picked from a Catalog), VariantInstance
// (live in this process), VariantSession (in this process or in an awb-runner), VariantSubject
// (what checks run, core/plugins/subjects.hpp) and WarmVariants (subjects kept warm between calls).
struct VariantDesc {
  std::string id;
  std::string name;
  std::string description;
  uint64_t capabilities = 0;
  const awb_variant* raw = nullptr;  // in-process only; valid while `library` is loaded
  uint32_t index = 0;                // position in the plugin's descriptor
  bool trainable = false;            // exports AWB_EXT_BACKWARD (as described at load)
  bool has_cost = false;             // exports AWB_EXT_COST (as described at load)
  std::vector<ParamDecl> params{};   // SDK 1.2 parameters, validated
};

struct PluginDesc {
  std::filesystem::path path;
  std::string id, name, version, author, description;
  uint32_t abi_major = 0, abi_minor = 0;
  bool bundled = false;  // shipped with awb, hence trusted
  // kInProcess when loaded here (trusted); otherwise the level its describing runner reached.
  runner::Isolation isolation = runner::Isolation::kInProcess;
  std::vector<VariantDesc> variants;
  std::shared_ptr<const Library> library;  // null for a plugin that only runs in a runner
};

struct Catalog {
  std::vector<PluginDesc> plugins;
  std::vector<LoadFailure> failures;
  // What a user should hear although nothing failed: a plugin that took a bundled plugin's id.
  std::vector<std::string> notes;
};

// Where plugins are looked for, in order: the bundled folder, then AWB_PLUGIN_PATH
// (colon-separated), then `extra` (folders or single files).
std::filesystem::path bundled_plugin_dir();
std::vector<std::filesystem::path> plugin_search_path(
    const std::vector<std::filesystem::path>& extra);

// Whether `path` reaches awb's bundled plugins through a symbolic link: it (or, for a folder,
// a *.so file in it) lies in the bundled folder once links are resolved, but is not written as
// a path in that folder. A submission that does is awb's own code handed in: not gradable, with
// kBundledLinkRefusal as the reason (and never trusted).
bool links_into_bundled(const std::filesystem::path& path);
inline constexpr const char* kBundledLinkRefusal =
    "the submission is (a link to) awb's bundled plugins";

// Which plugins are loaded into this process. The bundled folder is always trusted; every other
// plugin is described by (and later runs in) an awb-runner, unless `trust_all` (--trusted).
// Trust goes by the path as written: a file named through a link (to the file or to a folder
// above it) runs in a runner, wherever the link leads.
struct LoadPolicy {
  bool trust_all = false;
  std::vector<std::filesystem::path> trusted_dirs;  // shipped code besides the bundled folder
  // A submission: a symbolic link is refused, not followed (files found through links are
  // never trusted, whatever the policy).
  bool regular_files_only = false;
  RunnerOptions runner;
};

// Loads every *.so in the given folders (sorted by name) and every file given directly.
// Files seen twice (same canonical path) are loaded once; a plugin id seen twice keeps the
// first and reports the second as a kDuplicate failure, except that a plugin from anywhere but
// the bundled folder replaces a bundled plugin of the same id (the bundled file becomes the
// kDuplicate failure, and a note says so). A file whose ELF headers are unsound fails at kOpen,
// "not a valid shared library: ...", before anything maps it. Never throws for a bad plugin.
Catalog load_catalog(const std::vector<std::filesystem::path>& locations,
                     const LoadPolicy& policy = {});

// A variant picked by "variant-id" or "plugin.id:variant-id".
struct VariantRef {
  const PluginDesc* plugin = nullptr;
  const VariantDesc* variant = nullptr;
};
// Throws awb::Error("plugin.variant_not_found" | "plugin.variant_ambiguous") naming the
// candidates.
VariantRef find_variant(const Catalog& catalog, const std::string& spec);

// Loads one file; exactly one of the two results is set.
struct LoadResult {
  std::unique_ptr<PluginDesc> plugin;
  std::unique_ptr<LoadFailure> failure;
};
LoadResult load_plugin(const std::filesystem::path& file);

// Loads one file in an awb-runner and validates what it reports; a runner fault (a static
// constructor that crashes, a load that hangs) becomes a kOpen failure naming the fault.
LoadResult describe_isolated(const std::filesystem::path& file, const RunnerOptions& options);

// The descriptor checks both loading paths share; `d` may come from untrusted code.
LoadResult validate_descriptor(const runner::RawDescriptor& d, const std::filesystem::path& path);

}  // namespace awb::core

#endif  // AWB_CORE_PLUGINS_PLUGIN_LOADER_HPP_
