// cmd_grade.cpp: `awb grade`: grade plugin variants on exercises and write a report.
#include <iostream>

#include "cli/commands.hpp"
#include "core/atomic_file.hpp"
#include "core/exercise.hpp"
#include "core/grading.hpp"
#include "core/plugin_loader.hpp"
#include "model/error.hpp"
#include "report/report.hpp"

namespace awb::cli {
namespace {

struct GradeOptions {
  std::vector<std::string> plugins;
  std::vector<std::string> exercises;
  std::vector<std::string> exercise_dirs;
  std::vector<std::string> plugin_dirs;
  std::string format = "table";
  std::string out;
  std::string view = "student";
  bool after_due = false;
  int strictness = 2;
  std::string scalar = "f64";
};

// --plugin is a variant id ("qkv", "org.awb.qkv:qkv") or a plugin file or folder.
std::vector<core::VariantRef> pick_variants(const core::Catalog& cat, const std::string& spec) {
  std::error_code ec;
  if (std::filesystem::exists(spec, ec)) {
    const auto target = std::filesystem::weakly_canonical(spec, ec);
    std::vector<core::VariantRef> out;
    for (const auto& p : cat.plugins)
      if (p.path == target || p.path.parent_path() == target)
        for (const auto& v : p.variants) out.push_back({&p, &v});
    if (out.empty()) {
      for (const auto& f : cat.failures)
        if (std::filesystem::weakly_canonical(f.path, ec) == target)
          throw Error("plugin.load_failed", f.path.string(),
                      std::string(core::to_string(f.stage)) + ": " + f.message + " " + f.system_error);
      throw Error("plugin.variant_not_found", spec, "no plugin loaded from here");
    }
    return out;
  }
  return {core::find_variant(cat, spec)};
}

std::vector<const core::Exercise*> pick_exercises(const core::ExerciseSet& set,
                                                  const std::vector<std::string>& wanted) {
  std::vector<const core::Exercise*> out;
  for (const auto& ex : set.exercises)
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), ex.id) != wanted.end())
      out.push_back(&ex);
  for (const auto& w : wanted)
    if (std::none_of(out.begin(), out.end(), [&](const core::Exercise* e) { return e->id == w; }))
      throw Error("exercise.not_found", "no exercise with id '" + w + "'");
  return out;
}

int run_grade(const GradeOptions& o) {
  // --exercise takes ids, or files and folders to load.
  std::vector<std::filesystem::path> dirs(o.exercise_dirs.begin(), o.exercise_dirs.end());
  std::vector<std::string> ids;
  for (const auto& e : o.exercises) {
    std::error_code ec;
    if (std::filesystem::exists(e, ec)) dirs.emplace_back(e);
    else ids.push_back(e);
  }
  if (dirs.empty()) dirs.push_back(core::bundled_exercise_dir());
  const core::ExerciseSet set = core::load_exercises(dirs);
  for (const auto& e : set.errors) std::cerr << e.what() << '\n';
  if (!set.errors.empty()) return kExitBadInput;
  const auto exercises = pick_exercises(set, ids);

  std::vector<std::filesystem::path> pdirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  for (const auto& p : o.plugins) {
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) pdirs.emplace_back(p);
  }
  const core::Catalog cat = core::load_catalog(core::plugin_search_path(pdirs));
  std::vector<core::VariantRef> variants;
  for (const auto& p : o.plugins) {
    const auto picked = pick_variants(cat, p);
    variants.insert(variants.end(), picked.begin(), picked.end());
  }

  core::GradeOptions go;
  go.scalar = o.scalar == "f32" ? Scalar::kF32 : Scalar::kF64;
  go.strictness = o.strictness;
  std::vector<grade::GradeReport> reports;
  bool all_passed = true;
  for (const auto& v : variants) {
    reports.push_back(core::grade_variant(v, exercises, go));
    for (const auto& ex : reports.back().exercises) {
      if (!ex.not_gradable.empty()) all_passed = false;
      for (const auto& c : ex.checks)
        if (c.status != grade::Status::kPassed && c.status != grade::Status::kNotRun)
          all_passed = false;
    }
  }

  const grade::View view{o.view == "instructor", o.after_due};
  std::string text;
  if (o.format == "junit") text = grade::write_junit(reports, view);
  else if (o.format == "csv") text = grade::write_csv(reports);
  else
    for (const auto& r : reports) {
      if (o.format == "table") text += grade::write_table(r, view);
      else if (o.format == "json") text += grade::write_json(r, view);
      else text += grade::write_gradescope(r, view);
    }
  if (o.out.empty()) std::cout << text;
  else core::write_file_atomic(o.out, text);
  return all_passed ? kExitOk : kExitFailed;
}

}  // namespace

void add_grade_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<GradeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "grade",
      "Grade plugin variants on exercises: every check with its status, points, feedback and\n"
      "hint. A check the variant cannot run (a capability it lacks) is not-run with the reason\n"
      "and does not count. Exits 0 when every check that ran passed, 1 otherwise.");
  cmd->add_option("--plugin", opts->plugins,
                  "Variant id (qkv, org.awb.qkv:qkv) or plugin file/folder; repeatable")
      ->required();
  cmd->add_option("--exercise", opts->exercises,
                  "Exercise id, file or folder; repeatable (default: every bundled exercise)");
  cmd->add_option("--exercises", opts->exercise_dirs, "Where exercise ids are looked up");
  cmd->add_option("--plugin-dir", opts->plugin_dirs, "Extra plugin folder or file; repeatable");
  cmd->add_option("--format", opts->format, "table, json, junit, gradescope or csv")
      ->check(CLI::IsMember({"table", "json", "junit", "gradescope", "csv"}))
      ->capture_default_str();
  cmd->add_option("--out", opts->out, "Write the report here (atomically) instead of stdout");
  cmd->add_option("--view", opts->view, "student (hidden checks left out) or instructor")
      ->check(CLI::IsMember({"student", "instructor"}))
      ->capture_default_str();
  cmd->add_flag("--after-due", opts->after_due, "Show after_due_date checks to students");
  cmd->add_option("--strictness", opts->strictness,
                  "1: outputs only; 2: also reruns and perturbation probes")
      ->check(CLI::Range(1, 2))
      ->capture_default_str();
  cmd->add_option("--scalar", opts->scalar, "f64 or f32")
      ->check(CLI::IsMember({"f64", "f32"}))
      ->capture_default_str();
  cmd->callback([opts, &exit_code] { exit_code = run_grade(*opts); });
}

}  // namespace awb::cli
