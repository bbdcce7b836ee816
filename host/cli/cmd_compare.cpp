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
#include "cli/load_notes.hpp"
#include "cli/param_options.hpp"
#include "cli/plugin_digests.hpp"
#include "cli/problem_source.hpp"
#include "cli/validators.hpp"
#include "core/base/did_you_mean.hpp"
#include "core/base/version.hpp"
#include "core/bench/machine.hpp"
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
  bool no_weights = false;  // ask the variants for Z alone
  std::string figure;
};

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

// The variants to compare, each with its label (its id and every parameter it runs with),
// provenance and subject.
struct Lineup {
  std::vector<std::unique_ptr<Subject>> subjects;
  std::vector<core::Contender> contenders;
  std::vector<VariantInfo> infos;
  std::vector<VariantSpec> specs;
};

// Reads --variant's specs and checks every parameter (--variant ID@..., --param) before
// anything runs; the same variant with the same values twice is a usage error.
Lineup line_up(const CompareOptions& o, const core::Catalog& cat, const LoadedProblem& problem) {
  Lineup l;
  std::vector<ParamTaker> takers;
  std::vector<core::VariantRef> refs;
  for (const auto& text : o.variants) l.specs.push_back(parse_variant_spec(text));  // param.syntax
  for (const auto& spec : l.specs) {
    refs.push_back(core::find_variant(cat, spec.id));
    check_spec_params(spec, refs.back().variant->params);
    takers.push_back({refs.back().variant->id, &refs.back().variant->params});
  }
  // --param's names: each must be taken by some variant here.
  check_params(o.source.params, takers, "variant compared here");
  // The plugins' digests go into metrics.json only: hashed when it is written (JSON, an export).
  const bool provenance = o.format == "json" || !o.export_dir.empty();
  PluginDigests digests;
  for (size_t i = 0; i < l.specs.size(); ++i) {
    const VariantSpec& spec = l.specs[i];
    const core::VariantRef& ref = refs[i];
    const auto& decls = ref.variant->params;
    // What it runs with: the problem's values it takes, its own over them, defaults filled in.
    ParamValues values;
    for (const auto& [name, value] : problem.input.params.variant)
      if (std::any_of(decls.begin(), decls.end(),
                      [&](const ParamDecl& d) { return d.name == name; }))
        values[name] = value;
    for (const auto& [name, value] : spec.values) values[name] = value;
    VariantInfo info{ref.variant->id,
                     ref.plugin->id,
                     ref.plugin->path.filename().string(),
                     provenance ? digests.of(ref.plugin->path) : std::string(),
                     {}};
    try {
      info.params = canonical_params(decls, values, ref.variant->id);
    } catch (const Error&) {
      info.params = values;  // a problem's value it refuses: the run says why
    }
    const std::string suffix = params_label(decls, info.params);
    const std::string label = ref.variant->id + (suffix.empty() ? "" : "@" + suffix);
    for (const auto& c : l.contenders)
      if (c.label == label)
        throw Error("compare.usage", "--variant " + spec.text,
                    label + " is compared twice (the same variant with the same parameters)");
    l.subjects.push_back(core::make_subject(ref));
    l.contenders.push_back(
        {label, ref.variant->capabilities, l.subjects.back().get(), decls, spec.values});
    l.infos.push_back(std::move(info));
  }
  return l;
}

// --against names the reference or one of the variants compared: by its label
// (sliding-window@window=2), as written on the command line, or by id when only one row has it.
// Returns the label.
std::string resolve_against(const std::string& against, const Lineup& l) {
  if (against == kReference) return against;
  std::vector<std::string> names{kReference};
  std::vector<std::string> matches;
  for (size_t i = 0; i < l.contenders.size(); ++i) {
    const std::string& label = l.contenders[i].label;
    names.push_back(label);
    const bool named = against == label || against == l.specs[i].text || against == l.infos[i].id;
    if (named && std::find(matches.begin(), matches.end(), label) == matches.end())
      matches.push_back(label);
  }
  if (matches.size() > 1)
    throw Error("compare.usage",
                "--against '" + against + "' names " + std::to_string(matches.size()) +
                    " variants here; give one of: " + matches[0] + ", " + matches[1]);
  if (matches.empty())
    throw Error("compare.usage", "--against '" + against +
                                     "' is neither the reference nor a --variant of this "
                                     "comparison" +
                                     core::did_you_mean_note(against, names));
  return matches.front();
}

// The baseline's run (`against`), and every other run as a row of `r` against it.
void add_rows(const CompareOptions& o, const core::Comparison& c,
              const std::vector<VariantInfo>& infos, const std::string& against, Report& r) {
  const RunOutput* baseline = &c.reference;
  std::string baseline_error;
  for (const auto& e : c.entries)
    if (e.label == against) {
      baseline = &e.output;
      if (!e.error.empty()) baseline_error = "the baseline " + e.label + " did not run";
    }
  auto add_row = [&](const std::string& label, const core::CompareEntry* entry,
                     const VariantInfo& info) {
    Row row;
    row.label = label;
    row.entry = entry;
    row.info = info;
    if (entry) row.error = entry->error;
    r.rows.push_back(std::move(row));
  };
  if (against != kReference) add_row(kReference, nullptr, {});
  for (size_t i = 0; i < c.entries.size(); ++i)
    if (c.entries[i].label != against) add_row(c.entries[i].label, &c.entries[i], infos[i]);
  const std::optional<int> head =
      o.head == "all" ? std::nullopt : std::optional<int>(std::stoi(o.head));
  for (auto& row : r.rows) {
    if (row.error.empty()) row.error = baseline_error;
    if (!row.error.empty()) continue;
    const RunOutput& out = row.entry ? row.entry->output : c.reference;
    const LayerRun& mine = out.layers[r.layer];
    const LayerRun& base = baseline->layers[r.layer];
    row.layer = core::compare_layer(mine, base, head, o.top_k, against);
    if (o.no_weights) row.layer.pairing_note.clear();  // no heads asked for, none to pair
  }
}

int run_compare(const CompareOptions& o) {
  check_figure(o.figure);
  const LoadedProblem problem = load_problem(o.source);
  std::vector<std::filesystem::path> pdirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  const core::Catalog cat = core::load_catalog(core::plugin_search_path(pdirs));
  print_load_notes(cat);
  const Lineup lineup = line_up(o, cat, problem);
  const auto& contenders = lineup.contenders;
  const std::string against = resolve_against(o.against, lineup);
  const Scalar scalar = *awb::parse<Scalar>(o.scalar);  // --scalar admits only its names
  const core::Comparison c = core::compare_variants(problem.input, problem.reference_capabilities,
                                                    contenders, scalar, o.no_weights);
  Report r{.source = problem.label,
           .exercise = problem.exercise_id,
           .case_id = problem.case_id,
           .scalar = to_string(scalar),
           .head = o.head,
           .top_k = o.top_k,
           .against = against,
           .tokens = problem.input.tokens,
           .rows = {},
           .awb_version = AWB_VERSION,
           .problem_sha256 = core::input_sha256(problem.input),
           .machine = core::this_machine(),
           .z_only = o.no_weights};
  check_selection(o, problem.input, c, r);
  if (r.tokens.empty())
    for (int64_t t = 0; t < problem.input.x.rows; ++t) r.tokens.push_back("t" + std::to_string(t));

  add_rows(o, c, lineup.infos, against, r);

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
      "Each variant is checked against the reference of what it computes (its own kind and\n"
      "parameters: sliding-window against sliding-window attention), never against softmax\n"
      "attention in its place. A variant's row is labelled with every parameter it ran with,\n"
      "defaults filled in: sliding-window@window=2.\n"
      "--export DIR writes, for the reference and each variant, every layer and head:\n"
      "  <label>.layer<L>.head<H>.A.npy and .csv (tokens as headers), <label>.layer<L>.Z.npy\n"
      "  and .csv, and metrics.json / metrics.csv (the --format json / csv outputs, with the awb\n"
      "  version, each plugin's sha256, the input's sha256 and the machine). DIR is written\n"
      "  whole: a new folder, or an earlier export replaced entirely in one rename; a folder\n"
      "  holding anything else is refused.");
  cmd->add_option("--variant,--plugin", opts->variants,
                  "Variant id, or plugin-id:variant-id, optionally with its own parameters after\n"
                  "an '@': sliding-window@window=2 or alibi@slope=0.5,bias=true; repeatable, so\n"
                  "one variant may appear at several values (--plugin: the former name)")
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
                  "Measure against this variant instead of the reference: its label\n"
                  "(sliding-window@window=2), its --variant as written, or its id when only one\n"
                  "row has it")
      ->capture_default_str();
  cmd->add_option("--top-k", opts->top_k, "k of the top-k overlap")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  cmd->add_option("--export", opts->export_dir,
                  "Write the matrices (.npy, .csv) and the metrics (.json, .csv) into this folder");
  cmd->add_flag("--no-weights", opts->no_weights,
                "Ask the variants for Z alone (no A or S requested), so that a variant's\n"
                "streaming path (linear, sliding-window) is what is checked: max abs error and\n"
                "||dZ|| are Z's; the attention metrics are n/a");
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
