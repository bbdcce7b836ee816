// compare_binding.cpp: awb._core.compare: several variants on one problem against the reference,
// as `awb compare` runs them, returned as the JSON `awb compare --format json` writes (the rows'
// keys written by the same core functions).
#include <algorithm>

#include "core/base/sha256.hpp"
#include "core/base/version.hpp"
#include "core/compare/compare.hpp"
#include "core/compare/compare_metrics.hpp"
#include "core/grading/subject_factory.hpp"
#include "graders/model/error.hpp"
#include "python/bindings.hpp"
#include "python/problem_binding.hpp"

namespace awb::python {
namespace {

struct CompareRequest {
  std::vector<std::string> variants;
  Scalar scalar = Scalar::kF64;
  std::optional<int> head;
  int top_k = 3;
  PluginAccess access;
};

// A variant's row: its label carries every parameter it runs with, defaults filled in
// ("sliding-window@window=2"), as `awb compare` labels it.
nlohmann::json variant_row(const core::VariantRef& ref, const ParamValues& problem_values,
                           std::string& label) {
  const auto& decls = ref.variant->params;
  ParamValues values;
  for (const auto& [name, value] : problem_values)
    if (std::any_of(decls.begin(), decls.end(), [&](const ParamDecl& d) { return d.name == name; }))
      values[name] = value;
  const ParamValues canonical = canonical_params(decls, values, ref.variant->id);
  const std::string suffix = params_label(decls, canonical);
  label = ref.variant->id + (suffix.empty() ? "" : "@" + suffix);
  return {{"variant", label},
          {"id", ref.variant->id},
          {"plugin", ref.plugin->id},
          {"plugin_file", ref.plugin->path.filename().string()},
          {"plugin_sha256", core::sha256_file(ref.plugin->path)},
          {"params", canonical}};
}

// Comparing itself; runs without the GIL.
std::string compare(const Problem& problem, const CompareRequest& rq) {
  const core::Catalog cat = rq.access.load();
  std::vector<std::unique_ptr<Subject>> subjects;
  std::vector<core::Contender> contenders;
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& spec : rq.variants) {
    const core::VariantRef ref = core::find_variant(cat, spec);
    std::string label;
    rows.push_back(variant_row(ref, problem.input.params.variant, label));
    for (const auto& c : contenders)
      if (c.label == label)
        throw Error("compare.usage", label +
                                         " is compared twice (the same variant with the same "
                                         "parameters)");
    subjects.push_back(core::make_subject(ref, rq.access.session()));
    contenders.push_back(
        {label, ref.variant->capabilities, subjects.back().get(), ref.variant->params, {}});
  }
  const core::Comparison c =
      core::compare_variants(problem.input, problem.reference_capabilities, contenders, rq.scalar);
  const size_t layer = problem.input.layers.size() - 1;
  for (size_t i = 0; i < c.entries.size(); ++i) {
    const core::CompareEntry& e = c.entries[i];
    nlohmann::json& v = rows[i];
    v["notes"] = e.notes;
    if (!e.error.empty()) {
      v["error"] = e.error;
      continue;
    }
    v["max_abs_error"] = core::number_json(e.metrics.max_abs_error);
    v.update(core::layer_comparison_json(core::compare_layer(
        e.output.layers[layer], c.reference.layers[layer], rq.head, rq.top_k, "reference")));
  }
  nlohmann::json j{{"source", problem.label},
                   {"scalar", to_string(rq.scalar)},
                   {"layer", layer},
                   {"layers", problem.input.layers.size()},
                   {"head", rq.head ? std::to_string(*rq.head) : "all"},
                   {"against", "reference"},
                   {"top_k", rq.top_k},
                   {"tokens", problem.input.tokens},
                   {"weights_requested", true},
                   {"awb_version", AWB_VERSION},
                   {"problem_sha256", core::input_sha256(problem.input)},
                   {"variants", rows}};
  if (!problem.exercise_id.empty()) {
    j["exercise"] = problem.exercise_id;
    j["case"] = problem.case_id;
  }
  return j.dump();
}

std::string compare_binding(const std::vector<std::string>& variants, const Problem& problem,
                            const std::string& scalar, std::optional<int> head, int top_k,
                            const std::string& isolation,
                            const std::optional<std::vector<std::string>>& paths) {
  CompareRequest rq;
  rq.variants = variants;
  if (variants.empty()) throw Error("cli.missing", "compare needs at least one variant");
  const auto s = awb::parse<Scalar>(scalar);
  if (!s) throw Error("cli.invalid_value", "scalar '" + scalar + "': f64 or f32");
  rq.scalar = *s;
  rq.head = head;
  if (top_k < 1 || top_k > 1000) throw Error("cli.invalid_value", "top_k: 1 to 1000");
  rq.top_k = top_k;
  rq.access = plugin_access(paths, isolation);
  py::gil_scoped_release unlocked;
  return compare(problem, rq);
}

}  // namespace

void define_compare(py::module_& m) {
  m.def("compare", &compare_binding, py::arg("variants"), py::arg("problem"),
        py::arg("scalar") = "f64", py::arg("head") = py::none(), py::arg("top_k") = 3,
        py::arg("isolation") = "confined", py::arg("paths") = py::none());
}

}  // namespace awb::python
