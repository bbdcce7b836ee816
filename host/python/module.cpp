// module.cpp: the extension awb._core: its version, errors as (id, message), the plugin
// catalog, and where awb's shipped files are found from inside python3.
#include <dlfcn.h>

#include "cli/exit_codes.hpp"
#include "core/base/install_paths.hpp"
#include "core/base/version.hpp"
#include "core/plugins/capabilities.hpp"
#include "graders/model/error.hpp"
#include "python/bindings.hpp"

namespace awb::python {
namespace {

// python3 is not in awb's bin/: the module says which bin/ it belongs to, the build tree's when
// it lies in the build tree, else <prefix>/bin for <prefix>/lib/python3/dist-packages/awb.
void anchor_shipped_paths() {
  namespace fs = std::filesystem;
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&anchor_shipped_paths), &info) == 0 || !info.dli_fname) return;
  std::error_code ec;
  const fs::path dir = fs::absolute(info.dli_fname, ec).parent_path();
  if (fs::equivalent(dir, AWB_BUILD_TREE_PYTHON_DIR, ec))
    core::set_program_dir(AWB_BUILD_TREE_BIN_DIR);
  else
    core::set_program_dir(dir.parent_path().parent_path().parent_path().parent_path() / "bin");
}

py::dict param_dict(const ParamDecl& d) {
  py::dict p;
  p["name"] = d.name;
  p["type"] = to_string(d.type);
  p["doc"] = d.doc;
  p["default"] = param_text(d, d.default_value);
  if (d.type == ParamType::kInt || d.type == ParamType::kFloat) {
    p["min"] = d.min_value;
    p["max"] = d.max_value;
  }
  if (d.type == ParamType::kEnum) p["choices"] = d.choices;
  return p;
}

py::dict plugin_dict(const core::PluginDesc& plugin) {
  py::list variants;
  for (const auto& v : plugin.variants) {
    py::list params;
    for (const auto& d : v.params) params.append(param_dict(d));
    py::dict vd;
    vd["id"] = v.id;
    vd["name"] = v.name;
    vd["description"] = v.description;
    vd["capabilities"] = core::capability_names(v.capabilities);
    vd["trainable"] = v.trainable;
    vd["params"] = params;
    variants.append(vd);
  }
  py::dict d;
  d["id"] = plugin.id;
  d["name"] = plugin.name;
  d["version"] = plugin.version;
  d["author"] = plugin.author;
  d["path"] = plugin.path.string();
  d["bundled"] = plugin.bundled;
  d["isolation"] = runner::to_string(plugin.isolation);
  d["variants"] = variants;
  return d;
}

// Every loaded plugin, and every file that did not load with its stage and reason.
py::dict list_plugins(const std::optional<std::vector<std::string>>& paths,
                      const std::string& isolation) {
  const core::Catalog cat = plugin_access(paths, isolation).load();
  py::list plugins, failures;
  for (const auto& p : cat.plugins) plugins.append(plugin_dict(p));
  for (const auto& f : cat.failures) {
    py::dict d;
    d["path"] = f.path.string();
    d["stage"] = core::to_string(f.stage);
    d["message"] = f.message;
    failures.append(d);
  }
  py::dict out;
  out["plugins"] = plugins;
  out["failures"] = failures;
  out["notes"] = cat.notes;
  return out;
}

}  // namespace

core::SessionOptions PluginAccess::session() const {
  const auto level = runner::parse_isolation(isolation);
  if (!level || *level == runner::Isolation::kInProcess)
    throw Error("cli.invalid_value",
                "isolation '" + isolation +
                    "': one of process, limited, confined (bundled plugins run "
                    "in this process whatever it says)");
  core::SessionOptions so;
  so.runner.level = *level;
  return so;
}

core::Catalog PluginAccess::load() const {
  core::LoadPolicy policy;
  policy.runner = session().runner;
  return core::load_catalog(core::plugin_search_path(paths), policy);
}

PluginAccess plugin_access(const std::optional<std::vector<std::string>>& paths,
                           const std::string& isolation) {
  PluginAccess a;
  if (paths)
    for (const auto& p : *paths) a.paths.emplace_back(p);
  a.isolation = isolation;
  return a;
}

}  // namespace awb::python

PYBIND11_MODULE(_core, m) {
  namespace py = pybind11;
  using namespace awb::python;
  m.doc() = "The C++ core of awb; use the package awb, which wraps it.";
  anchor_shipped_paths();
  m.attr("__version__") = AWB_VERSION;
  // Every awb::Error crosses as _core.Failure(id, message, exit code); the package raises the
  // awb.Error subclass its exit code names.
  static py::exception<awb::Error> failure(m, "Failure");
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const awb::Error& e) {
      py::object args =
          py::make_tuple(e.id(), std::string(e.what()), awb::cli::exit_code_for(e.id()));
      PyErr_SetObject(failure.ptr(), args.ptr());
    }
  });
  m.def("plugins", &list_plugins, py::arg("paths") = py::none(), py::arg("isolation") = "confined");
  define_problem(m);
  define_run(m);
  define_grade(m);
  define_compare(m);
  define_bench(m);
  define_exercise(m);
}
