// exercise_binding.cpp: awb.Exercise: an exercise as the core loads it (its lesson, cases and
// checks), from the bundled folder, other folders, or one file, and the problem of each case.
#include "core/exercises/exercise.hpp"
#include "core/page/page.hpp"
#include "core/plugins/capabilities.hpp"
#include "python/bindings.hpp"
#include "python/problem_binding.hpp"

namespace awb::python {
namespace {

// A file is read alone (every problem of it reported); anything else is an id of the folders.
core::Exercise load(const std::string& id_or_file,
                    const std::optional<std::vector<std::string>>& exercise_dirs) {
  std::error_code ec;
  if (std::filesystem::is_regular_file(id_or_file, ec)) {
    core::ExerciseLoad l = core::load_exercise_file(id_or_file);
    if (!l.exercise) throw l.errors.front();
    return std::move(*l.exercise);
  }
  return find_exercise(id_or_file, exercise_dirs);
}

py::list checks_of(const core::Exercise& ex) {
  py::list out;
  for (const auto& c : ex.checks) {
    py::dict d;
    d["id"] = c.id;
    d["kind"] = to_string(c.kind);
    d["name"] = c.name;
    d["points"] = c.points;
    d["visibility"] = to_string(c.visibility);
    d["case"] = c.case_id;
    d["hint"] = c.hint;
    out.append(d);
  }
  return out;
}

// The teaching page of the exercise for `variants` (awb page --exercise): its HTML. The runs go
// without the GIL.
std::string page_of(const core::Exercise& ex, const std::vector<std::string>& variants,
                    const std::string& case_id, bool reference, const std::string& scalar,
                    const std::string& isolation,
                    const std::optional<std::vector<std::string>>& paths) {
  const PluginAccess access = plugin_access(paths, isolation);
  const auto parsed = awb::parse<Scalar>(scalar);
  if (!parsed) throw Error("cli.invalid_value", "scalar", "f64 or f32, not '" + scalar + "'");
  py::gil_scoped_release unlocked;
  const core::Catalog cat = access.load();
  std::vector<core::VariantRef> chosen;
  for (const auto& v : variants) chosen.push_back(core::find_variant(cat, v));
  core::PageOptions options;
  options.scalar = *parsed;
  options.reference = reference;
  options.session = access.session();
  return core::make_page(core::exercise_page_source(ex, case_id), chosen, options).html;
}

}  // namespace

void define_exercise(py::module_& m) {
  py::class_<core::Exercise>(m, "Exercise")
      .def_static("load", &load, py::arg("id_or_file"), py::arg("exercises") = py::none())
      .def_readonly("id", &core::Exercise::id)
      .def_readonly("title", &core::Exercise::title)
      .def_readonly("lesson", &core::Exercise::lesson)
      .def_readonly("sha256", &core::Exercise::sha256)
      .def_property_readonly("file", [](const core::Exercise& e) { return e.file.string(); })
      .def_property_readonly("kind", [](const core::Exercise& e) { return to_string(e.kind); })
      .def_property_readonly(
          "requires",
          [](const core::Exercise& e) { return core::capability_names(e.required_capabilities); })
      .def_property_readonly("cases",
                             [](const core::Exercise& e) {
                               std::vector<std::string> ids;
                               for (const auto& c : e.cases) ids.push_back(c.id);
                               return ids;
                             })
      .def_property_readonly("checks", &checks_of)
      .def_property_readonly("max_points", &core::Exercise::max_points)
      .def("problem", &exercise_problem, py::arg("case") = "")
      .def("page", &page_of, py::arg("variants"), py::arg("case") = "", py::arg("reference") = true,
           py::arg("scalar") = "f64", py::arg("isolation") = "confined",
           py::arg("paths") = py::none());
}

}  // namespace awb::python
