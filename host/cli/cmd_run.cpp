// cmd_run.cpp: `awb run`: one or all variants on a problem file, an exercise or an example.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/isolation_options.hpp"
#include "cli/load_notes.hpp"
#include "cli/problem_source.hpp"
#include "cli/run_report.hpp"
#include "cli/validators.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/forward.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {
namespace {

struct RunOptions {
  ProblemSource source;
  std::vector<std::string> variants;
  bool all = false;
  std::vector<std::string> plugin_dirs;
  std::string scalar = "f64";
  std::string format = "text";
  double sharpness = 0;  // 0: keep the problem's
  bool causal = false;
  bool no_weights = false;  // ask for Z alone
  IsolationFlags isolation;
};

// ", batch of B" and the padding mask's lengths, for a batched problem.
std::string batch_text(const ProblemSpec& p) {
  if (!p.batched()) return "";
  std::string out = " in each of a batch of " + std::to_string(p.batch);
  for (size_t b = 0; b < p.lengths.size(); ++b)
    out += (b ? ", " : " (lengths ") + std::to_string(p.lengths[b]) +
           (b + 1 == p.lengths.size() ? ")" : "");
  return out;
}

// One variant through every layer of the input: printed as text, or into `jr`. Throws its
// error (run.cannot_run, plugin.*, runner.*).
void run_variant(const core::VariantRef& ref, const RunInput& input, Scalar scalar,
                 const RunOptions& o, bool text, nlohmann::json& jr) {
  const auto session = core::open_session(ref, o.isolation.session());
  core::ForwardOptions fo;
  fo.scalar = scalar;
  fo.want_weights = fo.want_scores = !o.no_weights;
  // With --all, a value a variant does not declare is meant for another one.
  fo.params = {ref.variant->params, "variant '" + ref.variant->id + "'", !o.all};
  if (!ref.variant->params.empty()) {
    const auto values =
        resolve_params(fo.params.decls, input.params.variant, fo.params.owner, fo.params.strict);
    const std::string shown = params_text(fo.params.decls, values);
    if (text) std::cout << "   parameters: " << shown << '\n';
    jr["params"] = shown;
  }
  size_t layer = 0;
  run_layers(input, [&](const ProblemSpec& raw) {
    validate(raw);
    const auto fitted =
        core::adapt(raw, ref.variant->capabilities, scalar, core::Fit::kDemonstrate);
    for (const auto& n : fitted.notes) {
      if (text) std::cout << "   note: " << n << '\n';
      jr["notes"].push_back(n);
    }
    if (!fitted.problem) throw Error("run.cannot_run", fitted.reason);
    const auto& p = *fitted.problem;
    const ForwardResult r = core::run_forward(session->as_raw(), p, fo);
    if (text) {
      if (input.layers.size() > 1) std::cout << "-- layer " << layer << '\n';
      std::cout << "   tokens " << p.sequence_tokens() << batch_text(p) << ", d_model "
                << p.d_model() << ", heads " << p.heads << ", sharpness " << p.sharpness
                << ", scale " << to_string(p.resolved_scale()) << (p.causal ? ", causal" : "")
                << '\n';
      print_result_text(std::cout, p, r);
    } else {
      jr["layers"].push_back(result_json(p, r));
    }
    ++layer;
    return r;
  });
}

int run_run(const RunOptions& o) {
  const LoadedProblem loaded = load_problem(o.source);
  const std::string& source = loaded.label;
  RunInput input = loaded.input;
  if (o.sharpness > 0) input.params.sharpness = o.sharpness;
  if (o.causal) input.params.causal = true;

  std::vector<std::filesystem::path> dirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  const core::Catalog cat =
      core::load_catalog(core::plugin_search_path(dirs), o.isolation.load_policy());
  print_load_notes(cat);
  std::vector<core::VariantRef> chosen;
  if (o.all) {
    for (const auto& p : cat.plugins)
      for (const auto& v : p.variants) chosen.push_back({&p, &v});
    if (chosen.empty()) throw Error("plugin.variant_not_found", "no plugin loaded");
  } else {
    for (const auto& spec : o.variants) chosen.push_back(core::find_variant(cat, spec));
  }

  const Scalar scalar = *awb::parse<Scalar>(o.scalar);  // --scalar admits only its names
  const bool text = o.format == "text";
  int code = kExitOk;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& ref : chosen) {
    nlohmann::json jr{{"plugin", ref.plugin->id},
                      {"variant", ref.variant->id},
                      {"scalar", to_string(scalar)},
                      {"layers", nlohmann::json::array()}};
    if (text)
      std::cout << "== " << ref.variant->id << " (" << ref.plugin->id << " " << ref.plugin->version
                << ") on " << source << ", " << to_string(scalar) << '\n';
    try {
      run_variant(ref, input, scalar, o, text, jr);
      if (text) std::cout << '\n';
    } catch (const Error& e) {
      const bool cannot = e.id() == "run.cannot_run";
      if (text) std::cout << (cannot ? "   cannot run: " : "   failed: ") << e.message() << "\n\n";
      jr["error"] = e.what();
      // On stderr too, with its id: the id decides the exit code, as in every command.
      std::cerr << "awb: " << ref.variant->id << ": " << e.what() << '\n';
      code = std::max(code, exit_code_for(e.id()));
    }
    runs.push_back(jr);
  }
  if (!text) std::cout << nlohmann::json{{"source", source}, {"runs", runs}}.dump(2) << '\n';
  return code;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run variants on a problem and print scores S, weights A and context vectors Z.\n"
      "A variant runs on what it understands of the problem: a parameter-free variant ignores\n"
      "weights, a single-head one takes the first head; each change is printed as a note.\n"
      "--problem reads a YAML problem file (its matrices inline, seeded, or {npy: FILE} and\n"
      "{npz: FILE, key: NAME}) or an .npz archive (np.savez) holding the arrays X (T x d_model,\n"
      "required), W_q, W_k, W_v, W_o, and single values heads, causal, sharpness; tokens are\n"
      "t0, t1, ...; a lone .npy is X alone (exercises/FORMAT.md, \"Problem files\").");
  add_problem_source_options(cmd, opts->source);
  auto* var = cmd->add_option("--variant", opts->variants,
                              "Variant id, or plugin-id:variant-id; repeatable");
  auto* all = cmd->add_flag("--all", opts->all, "Run every loaded variant");
  var->excludes(all);
  add_plugin_dir_option(cmd, opts->plugin_dirs);
  cmd->add_option("--scalar", opts->scalar, "f64 or f32")
      ->check(CLI::IsMember({"f64", "f32"}))
      ->capture_default_str();
  cmd->add_option("--sharpness", opts->sharpness, "Override the problem's sharpness, 1e-9 to 1e9")
      ->check(InRange(1e-9, 1e9));
  cmd->add_flag("--causal", opts->causal, "Turn the causal mask on");
  cmd->add_flag("--no-weights", opts->no_weights,
                "Ask for Z alone (A and S not requested): the path a variant takes when nothing "
                "needs its weights (linear and sliding-window stream); `awb compare --no-weights` "
                "checks that path against the reference");
  cmd->add_option("--format", opts->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  add_isolation_options(cmd, opts->isolation);
  cmd->callback([opts, &exit_code] {
    if (!opts->source.given())
      throw CLI::ValidationError("--example, --problem or --exercise", "one of them is required");
    if (opts->variants.empty() && !opts->all)
      throw CLI::ValidationError("--variant or --all", "one of them is required");
    exit_code = run_run(*opts);
  });
}

}  // namespace awb::cli
