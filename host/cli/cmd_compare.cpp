// cmd_compare.cpp: `awb compare`: several variants on one exercise case, measured against the
// reference with the same metrics the GUI's compare view shows.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/isolation_options.hpp"
#include "core/compare/compare.hpp"
#include "core/exercises/exercise.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/plugins/plugin_loader.hpp"

namespace awb::cli {
namespace {

struct CompareOptions {
  std::vector<std::string> variants;
  std::string exercise;
  std::string case_id;
  std::vector<std::string> exercise_dirs;
  std::vector<std::string> plugin_dirs;
  std::string scalar = "f64";
  std::string format = "table";
};

std::string number(double v, int decimals) {
  if (std::isnan(v)) return "n/a";
  char buf[32];
  std::snprintf(buf, sizeof buf, decimals > 0 ? "%.*f" : "%.*e", decimals > 0 ? decimals : 2, v);
  return buf;
}

nlohmann::json number_json(double v) {
  return std::isnan(v) ? nlohmann::json() : nlohmann::json(v);
}

void print_table(const core::Comparison& c, const std::string& source) {
  std::printf("compare on %s (metrics on the last layer's weights, against the reference)\n",
              source.c_str());
  std::printf("%-24s %14s %12s %12s %10s\n", "variant", "max abs error", "max |A-ref|",
              "row entropy", "argmax");
  std::printf("%-24s %14s %12s %12s %10s\n", "reference", "-", number(0, 4).c_str(),
              number(c.reference_entropy, 4).c_str(), number(1, 3).c_str());
  for (const auto& e : c.entries) {
    if (!e.error.empty()) {
      std::printf("%-24s failed: %s\n", e.label.c_str(), e.error.c_str());
      continue;
    }
    const auto& m = e.metrics;
    std::printf("%-24s %14s %12s %12s %10s\n", e.label.c_str(), number(m.max_abs_error, 0).c_str(),
                number(m.max_abs_diff, 4).c_str(), number(m.row_entropy, 4).c_str(),
                number(m.argmax_agreement, 3).c_str());
    for (const auto& n : e.notes) std::printf("%-24s   note: %s\n", "", n.c_str());
  }
  std::printf(
      "max abs error: A and Z of every layer against the reference on the same inputs the "
      "variant ran;\nmax |A-ref|, argmax: against the exercise's reference; row entropy in "
      "nats.\n");
}

void print_csv(const core::Comparison& c) {
  std::printf("variant,max_abs_error,max_abs_diff,row_entropy,argmax_agreement,error\n");
  std::printf("reference,0,0,%.17g,1,\n", c.reference_entropy);
  for (const auto& e : c.entries) {
    const auto& m = e.metrics;
    if (!e.error.empty()) {
      std::string quoted;
      for (char ch : e.error) quoted += ch == '"' ? std::string("\"\"") : std::string(1, ch);
      std::printf("%s,,,,,\"%s\"\n", e.label.c_str(), quoted.c_str());
      continue;
    }
    std::printf("%s,%.17g,%.17g,%.17g,%.17g,\n", e.label.c_str(), m.max_abs_error, m.max_abs_diff,
                m.row_entropy, m.argmax_agreement);
  }
}

void print_json(const core::Comparison& c, const std::string& exercise,
                const std::string& case_id) {
  nlohmann::json j{{"exercise", exercise},
                   {"case", case_id},
                   {"reference", {{"row_entropy", number_json(c.reference_entropy)}}},
                   {"variants", nlohmann::json::array()}};
  for (const auto& e : c.entries) {
    nlohmann::json v{{"variant", e.label}, {"notes", e.notes}};
    if (!e.error.empty()) {
      v["error"] = e.error;
    } else {
      v["max_abs_error"] = number_json(e.metrics.max_abs_error);
      v["max_abs_diff"] = number_json(e.metrics.max_abs_diff);
      v["row_entropy"] = number_json(e.metrics.row_entropy);
      v["argmax_agreement"] = number_json(e.metrics.argmax_agreement);
    }
    j["variants"].push_back(v);
  }
  std::cout << j.dump(2) << '\n';
}

int run_compare(const CompareOptions& o) {
  std::vector<std::filesystem::path> edirs(o.exercise_dirs.begin(), o.exercise_dirs.end());
  if (edirs.empty()) edirs.push_back(core::bundled_exercise_dir());
  const core::ExerciseSet set = core::load_exercises(edirs);
  const core::Exercise& ex = core::find_exercise(set, o.exercise);
  const RunInput input = core::case_input(ex, o.case_id);
  const std::string case_id = o.case_id.empty() ? ex.cases.front().id : o.case_id;

  std::vector<std::filesystem::path> pdirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  const core::Catalog cat = core::load_catalog(core::plugin_search_path(pdirs));
  std::vector<std::unique_ptr<Subject>> subjects;
  std::vector<core::Contender> contenders;
  for (const auto& spec : o.variants) {
    const core::VariantRef ref = core::find_variant(cat, spec);
    subjects.push_back(core::make_subject(ref));
    contenders.push_back({ref.variant->id, ref.variant->capabilities, subjects.back().get()});
  }
  const Scalar scalar = *awb::parse<Scalar>(o.scalar);  // --scalar admits only its names
  const core::Comparison c =
      core::compare_variants(input, ex.reference_capabilities, contenders, scalar);
  if (o.format == "json")
    print_json(c, ex.id, case_id);
  else if (o.format == "csv")
    print_csv(c);
  else
    print_table(c, "exercise " + ex.id + ", case " + case_id + ", " + to_string(scalar));
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
      "Run several variants on one exercise case and compare their attention weights with the\n"
      "reference: max abs error, row entropy, argmax agreement. Each variant runs on what it\n"
      "understands of the inputs (a parameter-free variant ignores the weights).");
  cmd->add_option("--variant,--plugin", opts->variants,
                  "Variant id, or plugin-id:variant-id; repeatable (--plugin: the former name)")
      ->required();
  cmd->add_option("--exercise", opts->exercise, "An exercise id")->required();
  cmd->add_option("--case", opts->case_id,
                  "Which case of the exercise, by id (default: the first)");
  cmd->add_option("--exercises", opts->exercise_dirs,
                  "Exercise folders or files (default: the bundled exercises)");
  add_plugin_dir_option(cmd, opts->plugin_dirs);
  cmd->add_option("--scalar", opts->scalar, "f64 or f32")
      ->check(CLI::IsMember({"f64", "f32"}))
      ->capture_default_str();
  cmd->add_option("--format", opts->format, "table, json or csv")
      ->check(CLI::IsMember({"table", "json", "csv"}))
      ->capture_default_str();
  cmd->callback([opts, &exit_code] { exit_code = run_compare(*opts); });
}

}  // namespace awb::cli
