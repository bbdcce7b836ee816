// cmd_run.cpp: `awb run`: one or all variants on a problem file or a built-in example.
#include <iostream>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/print.hpp"
#include "core/capabilities.hpp"
#include "model/error.hpp"
#include "core/forward.hpp"
#include "core/plugin_loader.hpp"
#include "core/problem_file.hpp"

namespace awb::cli {
namespace {

struct RunOptions {
  std::string example;
  std::string problem_file;
  std::vector<std::string> variants;
  bool all = false;
  std::vector<std::string> plugin_dirs;
  std::string scalar = "f64";
  std::string format = "text";
  double sharpness = 0;  // 0: keep the problem's
  bool causal = false;
};

int run_run(const RunOptions& o) {
  ProblemSpec problem = o.problem_file.empty() ? core::example_problem(o.example)
                                                     : core::load_problem_file(o.problem_file);
  const std::string source = o.problem_file.empty() ? "example " + o.example : o.problem_file;
  if (o.sharpness > 0) problem.sharpness = o.sharpness;
  if (o.causal) problem.causal = true;
  validate(problem);

  std::vector<std::filesystem::path> dirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  const core::Catalog cat = core::load_catalog(core::plugin_search_path(dirs));
  std::vector<core::VariantRef> chosen;
  if (o.all) {
    for (const auto& p : cat.plugins)
      for (const auto& v : p.variants) chosen.push_back({&p, &v});
    if (chosen.empty()) throw Error("plugin.variant_not_found", "no plugin loaded");
  } else {
    for (const auto& spec : o.variants) chosen.push_back(core::find_variant(cat, spec));
  }

  const Scalar scalar = o.scalar == "f32" ? Scalar::kF32 : Scalar::kF64;
  int code = kExitOk;
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& ref : chosen) {
    const auto fitted =
        core::adapt(problem, ref.variant->capabilities, scalar, core::Fit::kDemonstrate);
    nlohmann::json jr{{"plugin", ref.plugin->id},
                      {"variant", ref.variant->id},
                      {"scalar", to_string(scalar)},
                      {"notes", fitted.notes}};
    if (o.format == "text") {
      std::cout << "== " << ref.variant->id << " (" << ref.plugin->id << " "
                << ref.plugin->version << ") on " << source << ", " << to_string(scalar)
                << '\n';
      for (const auto& n : fitted.notes) std::cout << "   note: " << n << '\n';
    }
    if (!fitted.problem) {
      if (o.format == "text") std::cout << "   cannot run: " << fitted.reason << "\n\n";
      jr["error"] = fitted.reason;
      runs.push_back(jr);
      code = std::max(code, static_cast<int>(kExitCannotRun));
      continue;
    }
    const auto& p = *fitted.problem;
    if (o.format == "text") {
      std::cout << "   tokens " << p.tokens_count() << ", d_model " << p.d_model() << ", heads "
                << p.heads << ", sharpness " << p.sharpness << ", scale "
                << to_string(p.resolved_scale()) << (p.causal ? ", causal" : "") << '\n';
    }
    try {
      core::VariantInstance inst(ref.plugin->library, *ref.variant);
      core::ForwardOptions fo;
      fo.scalar = scalar;
      const ForwardResult r = core::run_forward(inst.as_raw(), p, fo);
      if (o.format == "text") {
        print_result_text(std::cout, p, r);
        std::cout << '\n';
      } else {
        jr["result"] = result_json(p, r);
      }
    } catch (const Error& e) {
      if (o.format == "text") std::cout << "   failed: " << e.what() << "\n\n";
      jr["error"] = e.what();
      code = std::max(code, static_cast<int>(kExitFailed));
    }
    runs.push_back(jr);
  }
  if (o.format == "json") std::cout << nlohmann::json{{"source", source}, {"runs", runs}}.dump(2) << '\n';
  return code;
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<RunOptions>();
  CLI::App* cmd = app.add_subcommand(
      "run",
      "Run variants on a problem and print scores S, weights A and context vectors Z.\n"
      "A variant runs on what it understands of the problem: a parameter-free variant ignores\n"
      "weights, a single-head one takes the first head; each change is printed as a note.");
  auto* ex = cmd->add_option("--example", opts->example, "A built-in problem: journey");
  auto* pf = cmd->add_option("--problem", opts->problem_file, "A YAML problem file")
                 ->check(CLI::ExistingFile);
  ex->excludes(pf);
  auto* var = cmd->add_option("--variant", opts->variants,
                              "Variant id, or plugin-id:variant-id; repeatable");
  auto* all = cmd->add_flag("--all", opts->all, "Run every loaded variant");
  var->excludes(all);
  cmd->add_option("--plugin-dir", opts->plugin_dirs, "Extra plugin folder or file; repeatable");
  cmd->add_option("--scalar", opts->scalar, "f64 or f32")
      ->check(CLI::IsMember({"f64", "f32"}))
      ->capture_default_str();
  cmd->add_option("--sharpness", opts->sharpness, "Override the problem's sharpness (> 0)")
      ->check(CLI::PositiveNumber);
  cmd->add_flag("--causal", opts->causal, "Turn the causal mask on");
  cmd->add_option("--format", opts->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  cmd->callback([opts, &exit_code] {
    if (opts->example.empty() && opts->problem_file.empty())
      throw CLI::ValidationError("--example or --problem", "one of them is required");
    if (opts->variants.empty() && !opts->all)
      throw CLI::ValidationError("--variant or --all", "one of them is required");
    exit_code = run_run(*opts);
  });
}

}  // namespace awb::cli
