// problem_binding.cpp: awb.Problem: what a run reads (a RunInput), from NumPy arrays, a problem
// file, a built-in example or an exercise case; and matrices crossing to and from NumPy.
#include "python/problem_binding.hpp"

#include "core/exercises/exercise.hpp"
#include "core/exercises/problem_file.hpp"
#include "core/grading/subject_factory.hpp"
#include "graders/model/error.hpp"
#include "python/bindings.hpp"

namespace awb::python {

core::Exercise find_exercise(const std::string& id,
                             const std::optional<std::vector<std::string>>& exercise_dirs) {
  std::vector<std::filesystem::path> dirs;
  if (exercise_dirs)
    for (const auto& d : *exercise_dirs) dirs.emplace_back(d);
  if (dirs.empty()) dirs.push_back(core::bundled_exercise_dir());
  const core::ExerciseSet set = core::load_exercises(dirs);
  return core::find_exercise(set, id);
}

Problem exercise_problem(const core::Exercise& ex, const std::string& case_id) {
  Problem p{core::case_input(ex, case_id), "exercise " + ex.id, ex.id,
            case_id.empty() ? ex.cases.front().id : case_id, ex.reference_capabilities};
  if (ex.cases.size() > 1) p.label += ", case " + p.case_id;
  return p;
}

Matrix to_matrix(const py::handle& array, const std::string& what) {
  const auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(array);
  if (!a || a.ndim() != 2)
    throw Error("problem.shape", what + ": a 2-D array of numbers is needed");
  Matrix m(a.shape(0), a.shape(1));
  std::copy(a.data(), a.data() + a.size(), m.data.begin());
  return m;
}

py::array_t<double> to_numpy(Matrix&& m) {
  auto* owned = new std::vector<double>(std::move(m.data));
  py::capsule base(owned, [](void* p) { delete static_cast<std::vector<double>*>(p); });
  return py::array_t<double>({m.rows, m.cols}, owned->data(), base);
}

namespace {

std::optional<Matrix> optional_matrix(const py::object& o, const std::string& what) {
  if (o.is_none()) return std::nullopt;
  return to_matrix(o, what);
}

// A problem from arrays: X and the optional weights, as `awb run --problem` reads an .npz.
Problem from_arrays(const py::object& x, const py::object& w_q, const py::object& w_k,
                    const py::object& w_v, const py::object& w_o, int heads, bool causal,
                    double sharpness, const std::optional<std::vector<std::string>>& tokens,
                    const std::map<std::string, std::string>& params, int kv_heads, int batch,
                    const std::vector<int64_t>& lengths) {
  ProblemSpec spec;
  spec.x = to_matrix(x, "x");
  spec.w_q = optional_matrix(w_q, "w_q");
  spec.w_k = optional_matrix(w_k, "w_k");
  spec.w_v = optional_matrix(w_v, "w_v");
  spec.w_o = optional_matrix(w_o, "w_o");
  spec.heads = heads;
  spec.kv_heads = kv_heads;
  spec.batch = batch;
  spec.lengths = lengths;
  spec.causal = causal;
  spec.sharpness = sharpness;
  spec.params = params;
  if (tokens) spec.tokens = *tokens;
  validate(spec);
  // t0, t1, ... in each sequence of a batch.
  if (!tokens)
    for (int64_t t = 0; t < spec.x.rows; ++t)
      spec.tokens.push_back("t" + std::to_string(t % spec.sequence_tokens()));
  return {single_layer(spec), "arrays", {}, {}, 0};
}

Problem from_file(const std::string& path) {
  core::ProblemLoad l = core::read_problem_file(path);
  if (!l.problem) throw l.errors.back();
  return {single_layer(*l.problem), path, {}, {}, 0};
}

Problem from_example(const std::string& name) {
  return {single_layer(core::example_problem(name)), "example " + name, {}, {}, 0};
}

Problem from_exercise(const std::string& id, const std::string& case_id,
                      const std::optional<std::vector<std::string>>& exercise_dirs) {
  return exercise_problem(find_exercise(id, exercise_dirs), case_id);
}

py::list layer_weights(const Problem& p) {
  py::list out;
  for (const auto& l : p.input.layers) {
    py::dict d;
    auto put = [&](const char* name, const std::optional<Matrix>& w) {
      d[name] = w ? py::object(to_numpy(Matrix(*w))) : py::none();
    };
    put("w_q", l.w_q);
    put("w_k", l.w_k);
    put("w_v", l.w_v);
    put("w_o", l.w_o);
    d["residual"] = l.residual;
    out.append(d);
  }
  return out;
}

}  // namespace

void define_problem(py::module_& m) {
  py::class_<Problem>(m, "Problem")
      .def_static("from_arrays", &from_arrays, py::arg("x"), py::arg("w_q") = py::none(),
                  py::arg("w_k") = py::none(), py::arg("w_v") = py::none(),
                  py::arg("w_o") = py::none(), py::arg("heads") = 1, py::arg("causal") = false,
                  py::arg("sharpness") = 1.0, py::arg("tokens") = py::none(),
                  py::arg("params") = std::map<std::string, std::string>{}, py::arg("kv_heads") = 0,
                  py::arg("batch") = 1, py::arg("lengths") = std::vector<int64_t>{})
      .def_static("load", &from_file, py::arg("path"))
      .def_static("example", &from_example, py::arg("name"))
      .def_static("exercise", &from_exercise, py::arg("id"), py::arg("case") = "",
                  py::arg("exercises") = py::none())
      .def_readonly("label", &Problem::label)
      .def_readonly("exercise_id", &Problem::exercise_id)
      .def_readonly("case_id", &Problem::case_id)
      .def_property_readonly("tokens", [](const Problem& p) { return p.input.tokens; })
      .def_property_readonly("x", [](const Problem& p) { return to_numpy(Matrix(p.input.x)); })
      .def_property_readonly("heads", [](const Problem& p) { return p.input.params.heads; })
      .def_property_readonly("kv_heads",
                             [](const Problem& p) {
                               const auto& q = p.input.params;
                               return q.kv_heads > 0 ? q.kv_heads : q.heads;
                             })
      .def_property_readonly("batch", [](const Problem& p) { return p.input.params.batch; })
      .def_property_readonly("lengths", [](const Problem& p) { return p.input.params.lengths; })
      .def_property_readonly("causal", [](const Problem& p) { return p.input.params.causal; })
      .def_property_readonly("sharpness", [](const Problem& p) { return p.input.params.sharpness; })
      .def_property_readonly("params", [](const Problem& p) { return p.input.params.variant; })
      .def_property_readonly("layers", &layer_weights);
}

}  // namespace awb::python
