// run_binding.cpp: awb._core.run: one variant through every layer of a problem, as `awb run`
// runs it (fitted to what the variant understands, the notes said), the arrays handed to NumPy
// without another copy, with the provenance of the run.
#include <algorithm>

#include "core/base/sha256.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/forward.hpp"
#include "graders/model/error.hpp"
#include "python/bindings.hpp"
#include "python/problem_binding.hpp"

namespace awb::python {
namespace {

struct RunRequest {
  std::string variant;
  Scalar scalar = Scalar::kF64;
  bool want_weights = true, want_scores = true;
  PluginAccess access;
};

struct RunDone {
  RunOutput output;
  std::vector<ProblemSpec> fitted;  // each layer's problem as the variant received it
  std::vector<std::string> notes;
  std::string plugin_id, variant_id, plugin_sha256, lockdown;
};

// The plugin call itself; runs without the GIL (no Python object is touched).
RunDone run_variant(const Problem& problem, const RunRequest& rq) {
  const core::Catalog cat = rq.access.load();
  const core::VariantRef ref = core::find_variant(cat, rq.variant);
  const auto session = core::open_session(ref, rq.access.session());
  core::ForwardOptions fo;
  fo.scalar = rq.scalar;
  fo.want_weights = rq.want_weights;
  fo.want_scores = rq.want_scores;
  fo.params = {ref.variant->params, "variant '" + ref.variant->id + "'", true};
  RunDone done;
  done.output = run_layers(problem.input, [&](const ProblemSpec& raw) {
    validate(raw);
    auto fitted = core::adapt(raw, ref.variant->capabilities, rq.scalar, core::Fit::kDemonstrate);
    for (const auto& n : fitted.notes)
      if (std::find(done.notes.begin(), done.notes.end(), n) == done.notes.end())
        done.notes.push_back(n);
    if (!fitted.problem) throw Error("run.cannot_run", fitted.reason);
    done.fitted.push_back(*fitted.problem);
    return core::run_forward(session->as_raw(), *fitted.problem, fo);
  });
  session->finish();
  done.plugin_id = ref.plugin->id;
  done.variant_id = ref.variant->id;
  done.plugin_sha256 = core::sha256_file(ref.plugin->path);
  done.lockdown = runner::to_string(session->isolation());
  return done;
}

py::list planes(std::vector<Matrix>& ms) {
  py::list out;
  for (auto& m : ms) out.append(to_numpy(std::move(m)));
  return out;
}

py::dict layer_dict(LayerRun& layer, const ProblemSpec& fitted) {
  py::dict d;
  d["Z"] = to_numpy(std::move(layer.result.z));
  d["A"] = planes(layer.result.weights);
  d["S"] = planes(layer.result.scores);
  d["input"] = to_numpy(std::move(layer.input));
  d["heads"] = fitted.heads;
  d["causal"] = fitted.causal;
  d["sharpness"] = fitted.sharpness;
  d["scale"] = to_string(fitted.resolved_scale());
  return d;
}

py::dict run(const std::string& variant, const Problem& problem,
             const std::vector<std::string>& want, const std::string& scalar,
             const std::string& isolation, const std::optional<std::vector<std::string>>& paths) {
  RunRequest rq;
  rq.variant = variant;
  const auto s = awb::parse<Scalar>(scalar);
  if (!s) throw Error("cli.invalid_value", "scalar '" + scalar + "': f64 or f32");
  rq.scalar = *s;
  for (const auto& w : want)
    if (w != "A" && w != "S" && w != "Z")
      throw Error("cli.invalid_value", "want '" + w + "': A, S or Z");
  auto wants = [&](const char* name) { return std::count(want.begin(), want.end(), name) > 0; };
  rq.want_weights = wants("A");
  rq.want_scores = wants("S");
  rq.access = plugin_access(paths, isolation);
  RunDone done;
  {
    py::gil_scoped_release unlocked;
    done = run_variant(problem, rq);
  }
  py::list layers;
  for (size_t i = 0; i < done.output.layers.size(); ++i)
    layers.append(layer_dict(done.output.layers[i], done.fitted[i]));
  py::dict provenance;
  provenance["plugin"] = done.plugin_id;
  provenance["variant"] = done.variant_id;
  provenance["plugin_sha256"] = done.plugin_sha256;
  provenance["lockdown"] = done.lockdown;
  provenance["scalar"] = to_string(rq.scalar);
  provenance["source"] = problem.label;
  py::dict out;
  out["tokens"] = problem.input.tokens;
  out["layers"] = layers;
  out["notes"] = done.notes;
  out["provenance"] = provenance;
  return out;
}

}  // namespace

void define_run(py::module_& m) {
  m.def("run", &run, py::arg("variant"), py::arg("problem"), py::arg("want"),
        py::arg("scalar") = "f64", py::arg("isolation") = "confined",
        py::arg("paths") = py::none());
}

}  // namespace awb::python
