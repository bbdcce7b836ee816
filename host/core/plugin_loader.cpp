// plugin_loader.cpp: Boost.DLL loading and descriptor checks; every failure becomes data.
#include "core/plugin_loader.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <boost/dll/shared_library.hpp>
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include "core/capabilities.hpp"
#include "core/install_paths.hpp"
#include "model/error.hpp"

namespace awb::core {

class Library {
 public:
  boost::dll::shared_library lib;
};

namespace fs = std::filesystem;

namespace {

constexpr size_t kMaxVariants = 256;

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

// The struct-size rule: copy what the plugin declares into a zeroed struct of our size.
template <class S>
S copy_declared(const S* raw) {
  S out{};
  const size_t n = std::min(raw->struct_size, sizeof(S));
  std::memcpy(static_cast<void*>(&out), raw, n);
  return out;
}

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
  if (!raw) return fail(LoadStage::kDescriptor, "awb_plugin_entry() returned NULL");

  constexpr size_t kHeader = offsetof(awb_plugin_descriptor, abi_minor) + sizeof(uint32_t);
  if (raw->struct_size < kHeader)
    return fail(LoadStage::kDescriptor,
                "descriptor struct_size " + std::to_string(raw->struct_size) + " is too small");
  if (raw->abi_major != AWB_ABI_MAJOR)
    return fail(LoadStage::kAbi, "plugin built for ABI " + std::to_string(raw->abi_major) + "." +
                                     std::to_string(raw->abi_minor) + ", this host speaks ABI " +
                                     std::to_string(AWB_ABI_MAJOR) + "." +
                                     std::to_string(AWB_ABI_MINOR) + " (majors must match)");
  constexpr size_t kRequired = offsetof(awb_plugin_descriptor, variants) + sizeof(void*);
  if (raw->struct_size < kRequired)
    return fail(LoadStage::kDescriptor, "descriptor struct_size " +
                                            std::to_string(raw->struct_size) +
                                            " does not cover the required fields");
  const awb_plugin_descriptor d = copy_declared(raw);

  if (!valid_plugin_id(d.id))
    return fail(LoadStage::kDescriptor,
                "plugin id '" + str(d.id) + "' is not reverse-DNS ([a-z0-9._-], with a dot)");
  if (!d.name || !*d.name) return fail(LoadStage::kDescriptor, "plugin name is empty");
  if (!d.version || !*d.version) return fail(LoadStage::kDescriptor, "plugin version is empty");
  if (d.n_variants < 1 || d.n_variants > kMaxVariants || !d.variants)
    return fail(LoadStage::kDescriptor,
                "plugin lists " + std::to_string(d.n_variants) + " variants (1 to 256 allowed)");

  auto plugin = std::make_unique<PluginDesc>();
  plugin->path = abs;
  plugin->id = d.id;
  plugin->name = d.name;
  plugin->version = d.version;
  plugin->author = str(d.author);
  plugin->description = str(d.description);
  plugin->abi_major = d.abi_major;
  plugin->abi_minor = d.abi_minor;
  std::set<std::string> seen;
  for (size_t i = 0; i < d.n_variants; ++i) {
    const awb_variant* rv = d.variants[i];
    const std::string where = "variant #" + std::to_string(i + 1);
    if (!rv) return fail(LoadStage::kDescriptor, where + " is NULL");
    constexpr size_t kVarRequired = offsetof(awb_variant, forward) + sizeof(void*);
    if (rv->struct_size < kVarRequired)
      return fail(LoadStage::kDescriptor,
                  where + ": struct_size " + std::to_string(rv->struct_size) + " is too small");
    const awb_variant v = copy_declared(rv);
    if (!valid_variant_id(v.id))
      return fail(LoadStage::kDescriptor,
                  where + ": id '" + str(v.id) + "' must be 1-64 of [a-z0-9-]");
    const std::string vname = where + " '" + v.id + "'";
    if (!seen.insert(v.id).second)
      return fail(LoadStage::kDescriptor, vname + ": the id appears twice in this plugin");
    if (!v.name || !*v.name) return fail(LoadStage::kDescriptor, vname + ": name is empty");
    if (!v.create) return fail(LoadStage::kDescriptor, vname + ": create() is missing");
    if (!v.destroy) return fail(LoadStage::kDescriptor, vname + ": destroy() is missing");
    if (!v.forward) return fail(LoadStage::kDescriptor, vname + ": forward() is missing");
    if (auto why = inconsistent_capabilities(v.capabilities, d.abi_minor))
      return fail(LoadStage::kDescriptor, vname + ": inconsistent capabilities: " + *why);
    plugin->variants.push_back(VariantDesc{v.id, v.name, str(v.description), v.capabilities, rv});
  }
  plugin->library = std::move(library);
  result.plugin = std::move(plugin);
  return result;
}

Catalog load_catalog(const std::vector<fs::path>& locations) {
  Catalog catalog;
  const fs::path bundled = fs::weakly_canonical(bundled_plugin_dir());
  std::set<fs::path> seen_files;
  std::map<std::string, fs::path> seen_ids;
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
      LoadResult r = load_plugin(f);
      if (r.failure) {
        catalog.failures.push_back(std::move(*r.failure));
        continue;
      }
      auto [it, fresh] = seen_ids.emplace(r.plugin->id, f);
      if (!fresh) {
        catalog.failures.push_back(
            {f,
             LoadStage::kDuplicate,
             "plugin id '" + r.plugin->id + "' is already provided by " + it->second.string(),
             {}});
        continue;
      }
      r.plugin->bundled = canon.parent_path() == bundled;
      catalog.plugins.push_back(std::move(*r.plugin));
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
  for (const auto& p : catalog.plugins) {
    for (const auto& v : p.variants) {
      known += (known.empty() ? "" : ", ") + p.id + ":" + v.id;
      if (v.id == variant_id && (plugin_id.empty() || p.id == plugin_id)) hits.push_back({&p, &v});
    }
  }
  if (hits.empty())
    throw Error("plugin.variant_not_found",
                "no loaded plugin provides '" + spec +
                    "' (loaded: " + (known.empty() ? std::string("none") : known) + ")");
  if (hits.size() > 1) {
    std::string which;
    for (const auto& h : hits) which += (which.empty() ? "" : ", ") + h.plugin->id + ":" + spec;
    throw Error("plugin.variant_ambiguous",
                "'" + spec + "' is provided by several plugins; name one of: " + which);
  }
  return hits.front();
}

}  // namespace awb::core
