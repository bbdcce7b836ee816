// bindings.hpp: what the files of the Python module share: the catalog a call loads, matrices
// crossing to and from NumPy, and each file's part of the module's definition.
#ifndef AWB_PYTHON_BINDINGS_HPP_
#define AWB_PYTHON_BINDINGS_HPP_

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/variant_session.hpp"
#include "graders/model/run.hpp"

namespace awb::python {

namespace py = pybind11;

// How a call loads and isolates plugins: extra plugin paths (beside the bundled folder and
// AWB_PLUGIN_PATH) and the lockdown an untrusted plugin's runner aims for (--isolation).
struct PluginAccess {
  std::vector<std::filesystem::path> paths;
  std::string isolation = "confined";

  core::SessionOptions session() const;
  core::Catalog load() const;
};
PluginAccess plugin_access(const std::optional<std::vector<std::string>>& paths,
                           const std::string& isolation);

// A 2-D array of any real dtype as the host's matrix (one copy, to float64 row-major); throws
// Error("problem.shape") naming `what` for anything else.
Matrix to_matrix(const py::handle& array, const std::string& what);
// The matrix as a NumPy float64 array that owns its storage without copying it: the vector is
// moved into the array's base object.
py::array_t<double> to_numpy(Matrix&& m);

void define_problem(py::module_& m);
void define_run(py::module_& m);
void define_grade(py::module_& m);
void define_compare(py::module_& m);
void define_bench(py::module_& m);
void define_exercise(py::module_& m);

}  // namespace awb::python

#endif  // AWB_PYTHON_BINDINGS_HPP_
