// bench_binding.cpp: awb._core.bench: a variant timed at several sequence lengths, each point
// measured by the core as `awb bench` measures it and written with the same statistics.
#include "core/bench/bench.hpp"
#include "core/bench/bench_calibration.hpp"
#include "core/bench/bench_json.hpp"
#include "core/bench/bench_plan.hpp"
#include "graders/model/error.hpp"
#include "python/bindings.hpp"

namespace awb::python {
namespace {

struct BenchRequest {
  std::string variant;
  std::vector<int64_t> tokens;
  core::BenchShape shape;
  core::BenchSettings settings;
  double budget_bytes = 0;
  PluginAccess access;
};

// Measuring itself; runs without the GIL.
std::string bench(const BenchRequest& rq) {
  const core::Catalog cat = rq.access.load();
  const core::VariantRef ref = core::find_variant(cat, rq.variant);
  core::BenchShape shape = rq.shape;
  shape.params = canonical_params(ref.variant->params, shape.params, ref.variant->id);
  core::EigenYardstick yardstick;
  nlohmann::json points = nlohmann::json::array();
  for (const int64_t t : rq.tokens) {
    shape.tokens = t;
    const core::BenchPointResult r =
        core::bench_point(ref, shape, rq.settings, yardstick, rq.budget_bytes, rq.access.session());
    nlohmann::json j{{"plugin", ref.plugin->id},
                     {"variant", ref.variant->id},
                     {"mode", r.mode},
                     {"status", r.status},
                     {"scalar", to_string(shape.scalar)},
                     {"tokens", t},
                     {"d", shape.d},
                     {"heads", shape.heads},
                     {"kv_heads", shape.kv_head_count()},
                     {"batch", shape.batch},
                     {"padding", shape.padding},
                     {"causal", shape.causal},
                     {"want_a", shape.want_weights},
                     {"want_s", shape.want_scores},
                     {"w_o", shape.w_o},
                     {"backward", shape.backward},
                     {"params", shape.params}};
    if (!r.note.empty()) j["note"] = r.note;
    if (r.status == "ok") j.update(core::measure_json(r.measure));
    points.push_back(std::move(j));
  }
  return points.dump();
}

std::string bench_binding(const std::string& variant, const std::vector<int64_t>& tokens, int64_t d,
                          int heads, bool causal, const std::string& scalar,
                          const std::vector<std::string>& want, bool w_o, bool backward,
                          const std::map<std::string, std::string>& params, int reps,
                          double max_seconds, int threads, double budget_gib,
                          const std::string& isolation,
                          const std::optional<std::vector<std::string>>& paths, int kv_heads,
                          int batch, double padding) {
  BenchRequest rq;
  rq.variant = variant;
  if (tokens.empty()) throw Error("cli.missing", "bench needs at least one sequence length T");
  for (const int64_t t : tokens)
    if (t < 1) throw Error("bench.usage", "T must be at least 1");
  if (d < 1 || heads < 1) throw Error("bench.usage", "d and heads must be at least 1");
  rq.tokens = tokens;
  const auto s = awb::parse<Scalar>(scalar);
  if (!s) throw Error("cli.invalid_value", "scalar '" + scalar + "': f64 or f32");
  rq.shape.scalar = *s;
  rq.shape.d = d;
  rq.shape.heads = heads;
  if (kv_heads < 0 || kv_heads > heads || (kv_heads > 0 && heads % kv_heads != 0))
    throw Error("bench.usage", "kv_heads must divide heads");
  rq.shape.kv_heads = kv_heads == heads ? 0 : kv_heads;
  if (batch < 1 || batch > 1024) throw Error("bench.usage", "batch must be 1 to 1024");
  if (!(padding >= 0 && padding <= 0.99))
    throw Error("bench.usage", "padding must be a share from 0 to 0.99");
  rq.shape.batch = batch;
  rq.shape.padding = padding;
  rq.shape.causal = causal;
  rq.shape.w_o = w_o;
  rq.shape.backward = backward;
  rq.shape.params = params;
  for (const auto& w : want) {
    if (w != "A" && w != "S" && w != "Z")
      throw Error("cli.invalid_value", "want '" + w + "': A, S or Z");
    rq.shape.want_weights |= w == "A";
    rq.shape.want_scores |= w == "S";
  }
  rq.settings.reps = reps;
  rq.settings.max_seconds = max_seconds;
  rq.settings.threads = threads;
  rq.budget_bytes = budget_gib * 1024.0 * 1024.0 * 1024.0;
  rq.access = plugin_access(paths, isolation);
  py::gil_scoped_release unlocked;
  return bench(rq);
}

}  // namespace

void define_bench(py::module_& m) {
  m.def("bench", &bench_binding, py::arg("variant"), py::arg("tokens"), py::arg("d"),
        py::arg("heads"), py::arg("causal"), py::arg("scalar"), py::arg("want"), py::arg("w_o"),
        py::arg("backward"), py::arg("params"), py::arg("reps"), py::arg("max_seconds"),
        py::arg("threads"), py::arg("budget_gib"), py::arg("isolation"), py::arg("paths"),
        py::arg("kv_heads"), py::arg("batch"), py::arg("padding"));
}

}  // namespace awb::python
