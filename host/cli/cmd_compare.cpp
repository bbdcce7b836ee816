// cmd_compare.cpp: `awb compare`: several variants on one problem or exercise case, each measured
// head by head against the reference (or another variant) on any layer; the metrics as a table,
// JSON or CSV, and with --export the attention matrices themselves beside them.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/commands.hpp"
#include "cli/compare_report.hpp"
#include "cli/figure_options.hpp"
#include "cli/isolation_options.hpp"
#include "cli/param_options.hpp"
#include "cli/print.hpp"
#include "cli/problem_source.hpp"
#include "cli/validators.hpp"
#include "core/base/did_you_mean.hpp"
#include "core/compare/compare.hpp"
#include "core/compare/compare_metrics.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {
namespace {

struct CompareOptions {
  std::vector<std::string> variants;
  ProblemSource source;
  std::vector<std::string> plugin_dirs;
  std::string scalar = "f64";
  std::string format = "table";
  int layer = -1;            // -1: the last
  std::string head = "all";  // a head index or "all"
  std::string against = kReference;
  int top_k = 3;
  std::string export_dir;
  std::string figure;
};

std::string shape(const Matrix& m) { return std::to_string(m.rows) + "x" + std::to_string(m.cols); }

// --layer and --head checked against what ran.
void check_selection(const CompareOptions& o, const RunInput& input, const core::Comparison& c,
                     Report& r) {
  r.layers = input.layers.size();
  if (o.layer >= static_cast<int>(r.layers))
    throw Error("compare.usage", "--layer " + std::to_string(o.layer) + ": the input has " +
                                     std::to_string(r.layers) + " layer(s), 0.." +
                                     std::to_string(r.layers - 1));
  r.layer = o.layer < 0 ? r.layers - 1 : static_cast<size_t>(o.layer);
  if (o.head == "all") return;
  size_t most = 0;
  auto heads_of = [&](const RunOutput& out) {
    if (r.layer < out.layers.size())
      most = std::max(most, out.layers[r.layer].result.weights.size());
  };
  heads_of(c.reference);
  for (const auto& e : c.entries) heads_of(e.output);
  if (std::stoul(o.head) >= most)
    throw Error("compare.usage", "--head " + o.head + ": layer " + std::to_string(r.layer) +
                                     " has " + std::to_string(most) + " head(s), 0.." +
                                     std::to_string(most - 1));
}

int run_compare(const CompareOptions& o) {
  check_figure(o.figure);
  const LoadedProblem problem = load_problem(o.source);
  std::vector<std::filesystem::path> pdirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  const core::Catalog cat = core::load_catalog(core::plugin_search_path(pdirs));
  print_load_notes(cat);
  std::vector<std::unique_ptr<Subject>> subjects;
  std::vector<core::Contender> contenders;
  std::vector<std::string> names{kReference};
  for (const auto& spec : o.variants) {
    const core::VariantRef ref = core::find_variant(cat, spec);
    subjects.push_back(core::make_subject(ref));
    contenders.push_back(
        {ref.variant->id, ref.variant->capabilities, subjects.back().get(), ref.variant->params});
    names.push_back(ref.variant->id);
  }
  std::vector<ParamTaker> takers;
  for (const auto& c : contenders) takers.push_back({c.label, &c.params});
  check_params(o.source.params, takers, "variant compared here");
  // --against names the reference or one of the variants compared, by id.
  if (std::find(names.begin(), names.end(), o.against) == names.end())
    throw Error("compare.usage", "--against '" + o.against +
                                     "' is neither the reference nor a --variant of this "
                                     "comparison" +
                                     core::did_you_mean_note(o.against, names));
  const Scalar scalar = *awb::parse<Scalar>(o.scalar);  // --scalar admits only its names
  const core::Comparison c =
      core::compare_variants(problem.input, problem.reference_capabilities, contenders, scalar);
  Report r{.source = problem.label,
           .exercise = problem.exercise_id,
           .case_id = problem.case_id,
           .scalar = to_string(scalar),
           .head = o.head,
           .top_k = o.top_k,
           .against = o.against,
           .tokens = problem.input.tokens,
           .rows = {}};
  check_selection(o, problem.input, c, r);
  if (r.tokens.empty())
    for (int64_t t = 0; t < problem.input.x.rows; ++t) r.tokens.push_back("t" + std::to_string(t));

  // The baseline's run, and every other run as a row against it.
  const RunOutput* baseline = &c.reference;
  std::string baseline_error;
  for (const auto& e : c.entries)
    if (e.label == o.against) {
      baseline = &e.output;
      if (!e.error.empty()) baseline_error = "the baseline " + e.label + " did not run";
    }
  auto add_row = [&](const std::string& label, const core::CompareEntry* entry) {
    Row row;
    row.label = label;
    row.entry = entry;
    if (entry) row.error = entry->error;
    r.rows.push_back(std::move(row));
  };
  if (o.against != kReference) add_row(kReference, nullptr);
  for (const auto& e : c.entries)
    if (e.label != o.against) add_row(e.label, &e);
  const std::optional<int> head =
      o.head == "all" ? std::nullopt : std::optional<int>(std::stoi(o.head));
  for (auto& row : r.rows) {
    if (row.error.empty()) row.error = baseline_error;
    if (!row.error.empty()) continue;
    const RunOutput& out = row.entry ? row.entry->output : c.reference;
    const LayerRun& mine = out.layers[r.layer];
    const LayerRun& base = baseline->layers[r.layer];
    row.layer = core::compare_layer(mine, base, head, o.top_k, o.against);
    if (std::isnan(row.layer.z_error))
      row.z_shapes = shape(mine.result.z) + " against " + shape(base.result.z);
  }

  if (o.format == "json")
    std::cout << report_json(r).dump(2) << '\n';
  else if (o.format == "csv")
    std::cout << report_csv(r);
  else
    print_table(r);
  if (!o.export_dir.empty()) export_report(o.export_dir, r, c);
  write_compare_figure(o.figure, r, c, problem.input.params, contenders);
  // A variant that cannot run or failed exits as it would in `awb run`.
  int code = kExitOk;
  for (const auto& e : c.entries) {
    if (e.error.empty()) continue;
    std::cerr << "awb: " << e.label << ": " << e.error << '\n';
    code = std::max(code, exit_code_for(e.error_id));
  }
  return code;
}

}  // namespace

void add_compare_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<CompareOptions>();
  CLI::App* cmd = app.add_subcommand(
      "compare",
      "Run several variants on one problem or exercise case and compare their attention, head by\n"
      "head, with the reference (or --against another variant) on one layer: max |dA|, KL and\n"
      "Jensen-Shannon per row (mean, max), entropy, argmax agreement, top-k overlap, ||dZ||.\n"
      "Heads are paired by index; a head count that differs is said. Each variant runs on what\n"
      "it understands of the inputs (a parameter-free variant ignores the weights).\n"
      "--export DIR writes, for the reference and each variant, every layer and head:\n"
      "  <variant>.layer<L>.head<H>.A.npy and .csv (tokens as headers), <variant>.layer<L>.Z.npy\n"
      "  and .csv, and metrics.json / metrics.csv (the --format json / csv outputs).");
  cmd->add_option("--variant,--plugin", opts->variants,
                  "Variant id, or plugin-id:variant-id; repeatable (--plugin: the former name)")
      ->required();
  add_problem_source_options(cmd, opts->source);
  add_plugin_dir_option(cmd, opts->plugin_dirs);
  cmd->add_option("--layer", opts->layer, "Which layer, 0-based (default: the last)")
      ->check(AtLeast(0));
  cmd->add_option("--head", opts->head,
                  "A head index, or all: a row per head and one pooled over them")
      ->check(CLI::Validator(
          [](std::string& s) -> std::string {
            if (s == "all") return {};
            if (!s.empty() && s.size() < 6 && std::all_of(s.begin(), s.end(), ::isdigit)) return {};
            return "a head index or all";
          },
          "N|all"))
      ->capture_default_str();
  cmd->add_option("--against", opts->against,
                  "Measure against this variant's id instead of the reference")
      ->capture_default_str();
  cmd->add_option("--top-k", opts->top_k, "k of the top-k overlap")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--export", opts->export_dir,
                  "Write the matrices (.npy, .csv) and the metrics (.json, .csv) into this folder");
  add_figure_option(cmd, opts->figure);
  cmd->add_option("--scalar", opts->scalar, "f64 or f32")
      ->check(CLI::IsMember({"f64", "f32"}))
      ->capture_default_str();
  cmd->add_option("--format", opts->format, "table, json or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  cmd->callback([opts, &exit_code] {
    if (!opts->source.given())
      throw CLI::ValidationError("--problem, --exercise or --example", "one of them is required");
    exit_code = run_compare(*opts);
  });
}

}  // namespace awb::cli
