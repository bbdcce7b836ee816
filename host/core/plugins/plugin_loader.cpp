// plugin_loader.cpp: Boost.DLL loading and descriptor checks; every failure becomes data.
#include "core/plugins/plugin_loader.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "core/base/did_you_mean.hpp"
#include "core/base/install_paths.hpp"
#include "core/base/sha256.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/elf_check.hpp"
#include "core/runner_client/runner_process.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

using runner::kMaxVariants;

class Library {
 public:
  boost::dll::shared_library lib;
};

namespace fs = std::filesystem;

namespace {

bool valid_variant_id(const char* s) {
  if (!s || !*s) return false;
  for (const char* c = s; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-')) return false;
  return std::strlen(s) <= 64;
}

bool valid_plugin_id(const char* s) {
  if (!s || !*s || !std::strchr(s, '.')) return false;
  for (const char* c = s; *c; ++c)
    if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '-' || *c == '.' ||
          *c == '_'))
      return false;
  return std::strlen(s) <= 128;
}

std::string str(const char* s) { return s ? s : ""; }

}  // namespace

const char* to_string(LoadStage stage) {
  switch (stage) {
    case LoadStage::kDiscover:
      return "discover";
    case LoadStage::kOpen:
      return "open";
    case LoadStage::kEntrySymbol:
      return "entry-symbol";
    case LoadStage::kAbi:
      return "abi";
    case LoadStage::kDescriptor:
      return "descriptor";
    case LoadStage::kDuplicate:
      return "duplicate";
  }
  return "unknown";
}

fs::path bundled_plugin_dir() {
  return shipped_path(AWB_BUILD_TREE_PLUGIN_DIR, AWB_INSTALL_PLUGIN_DIR);
}

namespace {

// A path as written, absolute and without "." or ".." or a trailing "/", its links left as
// they are.
fs::path as_written(const fs::path& p) {
  std::error_code ec;
  const fs::path n = fs::absolute(p, ec).lexically_normal();
  return n.has_filename() || !n.has_relative_path() ? n : n.parent_path();
}

fs::path resolved(const fs::path& p) {
  std::error_code ec;
  return fs::weakly_canonical(fs::absolute(p, ec), ec);
}

// A folder as written and as resolved: a path is in it when it is written in either form.
std::set<fs::path> both_forms(const fs::path& dir) { return {as_written(dir), resolved(dir)}; }

}  // namespace

bool links_into_bundled(const fs::path& path) {
  const std::set<fs::path> bundled = both_forms(bundled_plugin_dir());
  const fs::path bundled_resolved = resolved(bundled_plugin_dir());
  auto links_in = [&](const fs::path& p) {
    const fs::path r = resolved(p);
    const fs::path w = as_written(p);
    const bool lies_there = r == bundled_resolved || r.parent_path() == bundled_resolved;
    return lies_there && !bundled.count(w) && !bundled.count(w.parent_path());
  };
  if (links_in(path)) return true;
  std::error_code ec;
  if (!fs::is_directory(path, ec)) return false;
  for (const auto& entry : fs::directory_iterator(path, ec))
    if (entry.path().extension() == ".so" && links_in(entry.path())) return true;
  return false;
}

std::vector<fs::path> plugin_search_path(const std::vector<fs::path>& extra) {
  std::vector<fs::path> out{bundled_plugin_dir()};
  if (const char* env = std::getenv("AWB_PLUGIN_PATH")) {
    std::stringstream ss(env);
    std::string item;
    while (std::getline(ss, item, ':'))
      if (!item.empty()) out.emplace_back(item);
  }
  out.insert(out.end(), extra.begin(), extra.end());
  return out;
}

namespace {

// Why a descriptor's own fields are unsound (the stage that refuses it and the message), or
// nothing.
std::optional<std::pair<LoadStage, std::string>> descriptor_problem(
    const runner::RawDescriptor& d) {
  auto bad = [](LoadStage stage, std::string message) {
    return std::optional<std::pair<LoadStage, std::string>>({stage, std::move(message)});
  };
  if (!d.present) return bad(LoadStage::kDescriptor, "awb_plugin_entry() returned NULL");
  constexpr size_t kHeader = offsetof(awb_plugin_descriptor, abi_minor) + sizeof(uint32_t);
  if (d.struct_size < kHeader)
    return bad(LoadStage::kDescriptor,
               "descriptor struct_size " + std::to_string(d.struct_size) + " is too small");
  if (d.abi_major != AWB_ABI_MAJOR)
    return bad(LoadStage::kAbi, "plugin built for ABI " + std::to_string(d.abi_major) + "." +
                                    std::to_string(d.abi_minor) + ", this host speaks ABI " +
                                    std::to_string(AWB_ABI_MAJOR) + "." +
                                    std::to_string(AWB_ABI_MINOR) + " (majors must match)");
  constexpr size_t kRequired = offsetof(awb_plugin_descriptor, variants) + sizeof(void*);
  if (d.struct_size < kRequired)
    return bad(LoadStage::kDescriptor, "descriptor struct_size " + std::to_string(d.struct_size) +
                                           " does not cover the required fields");
  if (!d.unreadable.empty())
    return bad(LoadStage::kDescriptor, d.unreadable +
                                           " is not a string: not readable up to a NUL within "
                                           "4096 bytes (unterminated?)");
  if (!valid_plugin_id(d.id.c_str()))
    return bad(LoadStage::kDescriptor,
               "plugin id '" + d.id + "' is not reverse-DNS ([a-z0-9._-], with a dot)");
  if (d.name.empty()) return bad(LoadStage::kDescriptor, "plugin name is empty");
  if (d.version.empty()) return bad(LoadStage::kDescriptor, "plugin version is empty");
  if (d.n_variants < 1 || d.n_variants > kMaxVariants || !d.has_variants)
    return bad(LoadStage::kDescriptor,
               "plugin lists " + std::to_string(d.n_variants) + " variants (1 to 256 allowed)");
  if (d.variants.size() != d.n_variants)
    return bad(LoadStage::kDescriptor, "the variant list does not match n_variants");
  return std::nullopt;
}

// Why variant `i` is unsound (its id repeated among `seen`, a missing entry point, ...), or
// nothing; `seen` gains its id.
std::optional<std::string> variant_problem(const runner::RawVariant& v, size_t i,
                                           uint32_t abi_minor, std::set<std::string>& seen) {
  const std::string where = "variant #" + std::to_string(i + 1);
  if (!v.present) return where + " is NULL";
  constexpr size_t kVarRequired = offsetof(awb_variant, forward) + sizeof(void*);
  if (v.struct_size < kVarRequired)
    return where + ": struct_size " + std::to_string(v.struct_size) + " is too small";
  if (!valid_variant_id(v.id.c_str()))
    return where + ": id '" + v.id + "' must be 1-64 of [a-z0-9-]";
  const std::string vname = where + " '" + v.id + "'";
  if (!seen.insert(v.id).second) return vname + ": the id appears twice in this plugin";
  if (v.name.empty()) return vname + ": name is empty";
  if (!v.has_create) return vname + ": create() is missing";
  if (!v.has_destroy) return vname + ": destroy() is missing";
  if (!v.has_forward) return vname + ": forward() is missing";
  if (auto why = inconsistent_capabilities(v.capabilities, abi_minor))
    return vname + ": inconsistent capabilities: " + *why;
  if (!v.params_valid)
    return vname + ": the parameter list cannot be read (more than " +
           std::to_string(runner::kMaxParams) +
           " parameters, a NULL entry, a short struct_size or too many choices)";
  return std::nullopt;
}

}  // namespace

LoadResult validate_descriptor(const runner::RawDescriptor& d, const fs::path& path) {
  LoadResult result;
  auto fail = [&](LoadStage stage, std::string message) {
    result.failure =
        std::make_unique<LoadFailure>(LoadFailure{path, stage, std::move(message), {}});
    return std::move(result);
  };
  if (auto problem = descriptor_problem(d)) return fail(problem->first, problem->second);

  auto plugin = std::make_unique<PluginDesc>();
  plugin->path = path;
  plugin->id = d.id;
  plugin->name = d.name;
  plugin->version = d.version;
  plugin->author = d.author;
  plugin->description = d.description;
  plugin->abi_major = d.abi_major;
  plugin->abi_minor = d.abi_minor;
  std::set<std::string> seen;
  for (size_t i = 0; i < d.variants.size(); ++i) {
    const runner::RawVariant& v = d.variants[i];
    if (auto why = variant_problem(v, i, d.abi_minor, seen))
      return fail(LoadStage::kDescriptor, *why);
    std::vector<ParamDecl> params;
    for (const auto& p : v.params)
      params.push_back(ParamDecl{p.name, static_cast<ParamType>(p.type), p.doc, p.default_value,
                                 p.min_value, p.max_value, p.choices});
    if (auto why = invalid_declarations(params); !why.empty())
      return fail(LoadStage::kDescriptor,
                  "variant #" + std::to_string(i + 1) + " '" + v.id + "': " + why);
    plugin->variants.push_back(VariantDesc{v.id, v.name, v.description, v.capabilities, nullptr,
                                           static_cast<uint32_t>(i), v.has_backward, v.has_cost,
                                           std::move(params)});
  }
  result.plugin = std::move(plugin);
  return result;
}

LoadResult load_plugin(const fs::path& file) {
  LoadResult result;
  auto fail = [&](LoadStage stage, std::string message, std::string sys = {}) {
    result.failure =
        std::make_unique<LoadFailure>(LoadFailure{file, stage, std::move(message), std::move(sys)});
    return std::move(result);
  };

  std::error_code fec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(file, fec), fec);
  if (fec || !fs::is_regular_file(abs, fec)) return fail(LoadStage::kDiscover, "not a file");
  if (auto why = elf_problem(abs))
    return fail(LoadStage::kOpen, "not a valid shared library: " + *why);

  auto library = std::make_shared<Library>();
  boost::dll::fs::error_code ec;
  ::dlerror();  // clear any stale message so the one we read belongs to this load
  library->lib.load(abs, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (ec || !library->lib.is_loaded()) {
    const char* why = ::dlerror();
    return fail(LoadStage::kOpen, "cannot load the shared library", str(why));
  }
  if (!library->lib.has(AWB_ENTRY_SYMBOL)) {
    const char* why = ::dlerror();
    return fail(LoadStage::kEntrySymbol,
                std::string("the library exports no '") + AWB_ENTRY_SYMBOL +
                    "' (build it with awb_add_plugin() and AWB_EXPORT_PLUGIN)",
                str(why));
  }
  const auto entry = library->lib.get<const awb_plugin_descriptor*()>(AWB_ENTRY_SYMBOL);
  const awb_plugin_descriptor* raw = entry();
  result = validate_descriptor(runner::read_descriptor(raw), abs);
  if (result.failure) result.failure->path = file;
  if (result.plugin) {
    for (auto& v : result.plugin->variants) v.raw = raw->variants[v.index];
    result.plugin->library = std::move(library);
    result.plugin->isolation = runner::Isolation::kInProcess;
  }
  return result;
}

LoadResult describe_isolated(const fs::path& file, const RunnerOptions& options) {
  LoadResult result;
  std::error_code ec;
  const fs::path abs = fs::weakly_canonical(fs::absolute(file, ec), ec);
  auto fail = [&](LoadStage stage, std::string message, std::string sys = {}) {
    result.failure =
        std::make_unique<LoadFailure>(LoadFailure{file, stage, std::move(message), std::move(sys)});
    return std::move(result);
  };
  if (ec || !fs::is_regular_file(abs, ec)) return fail(LoadStage::kDiscover, "not a file");
  // Judged here, before a runner maps it: a truncated library would fault there (SIGBUS) and
  // read as a crash of the student's code.
  if (auto why = elf_problem(abs))
    return fail(LoadStage::kOpen, "not a valid shared library: " + *why);
  try {
    RunnerProcess runner(abs, options);
    if (const auto& f = runner.load_failure()) {
      const LoadStage stage = f->stage == "entry-symbol" ? LoadStage::kEntrySymbol
                              : f->stage == "descriptor" ? LoadStage::kDescriptor
                                                         : LoadStage::kOpen;
      std::string sys = f->system_error;
      // The runner loads through /proc/self/fd/N; say the file's own name instead.
      for (auto at = sys.find("/proc/self/fd/"); at != std::string::npos;
           at = sys.find("/proc/self/fd/")) {
        auto end = sys.find_first_not_of("0123456789", at + 14);
        sys.replace(at, (end == std::string::npos ? sys.size() : end) - at, abs.string());
      }
      return fail(stage, f->message, sys);
    }
    result = validate_descriptor(runner.hello()->descriptor, abs);
    if (result.failure) result.failure->path = file;
    if (result.plugin) result.plugin->isolation = runner.level();
    runner.close();
  } catch (const Error& e) {
    return fail(LoadStage::kOpen, "the plugin's runner failed while loading it: " + e.message());
  }
  return result;
}

namespace {

// Why `file` is not even looked at as a plugin: not a regular file (a FIFO or a device would
// block or never end), larger than any plugin, or, where only regular files count (a
// submission), a symbolic link.
std::optional<std::string> unusable_file(const fs::path& file, bool link,
                                         const LoadPolicy& policy) {
  if (link && policy.regular_files_only)
    return "a symbolic link: a submission holds regular files only";
  std::error_code ec;
  const fs::file_status st = fs::status(file, ec);
  if (ec) return "cannot read it: " + ec.message();
  if (!fs::is_regular_file(st)) return "not a regular file";
  const auto size = fs::file_size(file, ec);
  if (!ec && size > kMaxPluginBytes)
    return std::to_string(size) + " bytes, larger than any plugin (the cap is " +
           std::to_string(kMaxPluginBytes >> 20) + " MiB)";
  return std::nullopt;
}

}  // namespace

Catalog load_catalog(const std::vector<fs::path>& locations, const LoadPolicy& policy) {
  Catalog catalog;
  const std::set<fs::path> bundled = both_forms(bundled_plugin_dir());
  std::set<fs::path> trusted = bundled;
  for (const auto& d : policy.trusted_dirs) trusted.merge(both_forms(d));
  std::set<fs::path> seen_files;
  std::map<std::string, size_t> seen_ids;  // plugin id -> its index in catalog.plugins
  for (const fs::path& loc : locations) {
    std::error_code ec;
    std::vector<fs::path> files;
    if (fs::is_directory(loc, ec)) {
      for (const auto& entry : fs::directory_iterator(loc, ec))
        if (entry.path().extension() == ".so") files.push_back(entry.path());
      std::sort(files.begin(), files.end());
    } else if (fs::exists(loc, ec)) {
      files.push_back(loc);
    } else {
      catalog.failures.push_back({loc, LoadStage::kDiscover, "no such file or folder", {}});
      continue;
    }
    for (const fs::path& f : files) {
      const fs::path canon = fs::weakly_canonical(f, ec);
      if (!seen_files.insert(canon).second) continue;
      // Trust comes from where the file itself lies as written, never from what a link points
      // to: a link in a submission to a bundled plugin, or a submission folder that is a link
      // to the bundled folder, is still the submission's.
      const bool link = fs::is_symlink(fs::symlink_status(f, ec));
      if (auto why = unusable_file(f, link, policy)) {
        catalog.failures.push_back({f, LoadStage::kDiscover, *why, {}});
        continue;
      }
      const fs::path home = as_written(f).parent_path();
      const bool in_process = policy.trust_all || (!link && trusted.count(home));
      LoadResult r = in_process ? load_plugin(f) : describe_isolated(f, policy.runner);
      if (r.failure) {
        catalog.failures.push_back(std::move(*r.failure));
        continue;
      }
      r.plugin->bundled = !link && bundled.count(home) > 0;
      auto [it, fresh] = seen_ids.emplace(r.plugin->id, catalog.plugins.size());
      if (fresh) {
        catalog.plugins.push_back(std::move(*r.plugin));
        continue;
      }
      PluginDesc& first = catalog.plugins[it->second];
      if (first.bundled && !r.plugin->bundled) {
        // A plugin the user points at wins over the bundled one with its id: grading or running
        // the bundled file in its place would report on code the user never gave.
        catalog.failures.push_back({first.path,
                                    LoadStage::kDuplicate,
                                    "plugin id '" + first.id + "' is also provided by " +
                                        f.string() + ", which is used in its place",
                                    {}});
        catalog.notes.push_back(f.string() + " provides plugin id '" + first.id +
                                "', as the bundled " + first.path.string() +
                                " does: " + f.filename().string() + " is used");
        first = std::move(*r.plugin);
        continue;
      }
      catalog.failures.push_back(
          {f,
           LoadStage::kDuplicate,
           "plugin id '" + r.plugin->id + "' is already provided by " + first.path.string(),
           {}});
    }
  }
  return catalog;
}

VariantRef find_variant(const Catalog& catalog, const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string plugin_id = colon == std::string::npos ? "" : spec.substr(0, colon);
  const std::string variant_id = colon == std::string::npos ? spec : spec.substr(colon + 1);
  std::vector<VariantRef> hits;
  std::string known;
  std::vector<std::string> names;  // what a mistyped spec may have meant, in the spec's form
  for (const auto& p : catalog.plugins) {
    for (const auto& v : p.variants) {
      known += (known.empty() ? "" : ", ") + p.id + ":" + v.id;
      names.push_back(plugin_id.empty() ? v.id : p.id + ":" + v.id);
      if (v.id == variant_id && (plugin_id.empty() || p.id == plugin_id)) hits.push_back({&p, &v});
    }
  }
  if (hits.empty()) {
    // The plugin meant may be one that did not load: say why, rather than only that it is absent.
    std::string failed;
    for (const auto& f : catalog.failures) {
      failed += (failed.empty() ? "; did not load: " : "; ") + f.path.string() + ": " +
                to_string(f.stage) + ": " + f.message;
      if (!f.system_error.empty()) failed += " (" + f.system_error + ")";
    }
    throw Error("plugin.variant_not_found",
                "no loaded plugin provides '" + spec + "'" + did_you_mean_note(spec, names) +
                    " (loaded: " + (known.empty() ? std::string("none") : known) + ")" + failed);
  }
  if (hits.size() > 1) {
    std::string which;
    for (const auto& h : hits) which += (which.empty() ? "" : ", ") + h.plugin->id + ":" + spec;
    throw Error("plugin.variant_ambiguous",
                "'" + spec + "' is provided by several plugins; name one of: " + which);
  }
  return hits.front();
}

}  // namespace awb::core
