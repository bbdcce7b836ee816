// cmd_grade.cpp: `awb grade`: grade plugin variants on exercises and write a report.
#include <unistd.h>

#include <cmath>
#include <iostream>
#include <map>
#include <optional>
#include <set>

#include "cli/build_options.hpp"
#include "cli/commands.hpp"
#include "cli/grade_inputs.hpp"
#include "cli/isolation_options.hpp"
#include "cli/load_notes.hpp"
#include "cli/param_options.hpp"
#include "cli/time_options.hpp"
#include "core/base/atomic_file.hpp"
#include "core/base/digest_cache.hpp"
#include "core/builds/source_tree.hpp"
#include "core/exercises/exercise.hpp"
#include "core/grading/assignment.hpp"
#include "core/grading/batch.hpp"
#include "core/grading/grading.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/reference_forward.hpp"
#include "graders/model/error.hpp"
#include "graders/report/format.hpp"
#include "graders/report/formats.hpp"
#include "graders/report/report.hpp"

namespace awb::cli {
namespace {

struct GradeOptions {
  std::vector<std::string> plugins;
  std::vector<std::string> exercises;
  GradeInputs inputs;  // --exercises, --assignment, --view, --after-due
  std::vector<std::string> plugin_dirs;
  std::string format = std::string(grade::report_formats().front().name);
  std::string out;
  int strictness = 2;
  std::string scalar = "f64";
  std::string batch;  // a folder of submissions: batch mode, --out is then a folder
  int jobs = 1;
  bool resume = false;
  std::string shard;  // with --batch: "I/N", grade shard I of N
  IsolationFlags isolation;
  BuildFlags build;       // source submissions of a batch
  core::TimeFiles times;  // with --batch: --submitted-at, --extensions, --submission-metadata
};

// --variant is a variant id ("qkv", "org.awb.qkv:qkv") or a plugin file or folder (a source
// folder is built first: `spec` is then the folder of its plugins).
std::vector<core::VariantRef> pick_variants(const core::Catalog& cat, const std::string& spec) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::exists(spec, ec)) return {core::find_variant(cat, spec)};
  if (core::links_into_bundled(spec))
    throw Error("plugin.load_failed", spec,
                std::string("not gradable: ") + core::kBundledLinkRefusal);
  const fs::path target = fs::weakly_canonical(spec, ec);
  auto here = [&](const fs::path& file) {
    const fs::path f = fs::weakly_canonical(fs::absolute(file, ec), ec);
    return f == target || f.parent_path() == target;
  };
  std::vector<core::VariantRef> out;
  for (const auto& p : cat.plugins)
    if (here(p.path))
      for (const auto& v : p.variants) out.push_back({&p, &v});
  if (!out.empty()) return out;
  // Nothing loaded from here: every file's stage and reason, not only that nothing did.
  std::string why;
  for (const auto& f : cat.failures) {
    if (!here(f.path)) continue;
    why += "\n  " + f.path.string() + ": " + core::to_string(f.stage) + ": " + f.message;
    if (!f.system_error.empty()) why += " (" + f.system_error + ")";
  }
  if (!why.empty()) throw Error("plugin.load_failed", spec, "no plugin loaded from here:" + why);
  throw Error("plugin.variant_not_found", spec,
              fs::is_directory(target, ec) ? "no plugin file (*.so) in this folder"
                                           : "no plugin loaded from here");
}

std::vector<const core::Exercise*> pick_exercises(const core::ExerciseSet& set,
                                                  const std::vector<std::string>& wanted) {
  std::vector<const core::Exercise*> out;
  for (const auto& ex : set.exercises)
    if (wanted.empty() || std::find(wanted.begin(), wanted.end(), ex.id) != wanted.end())
      out.push_back(&ex);
  for (const auto& w : wanted)
    if (std::none_of(out.begin(), out.end(), [&](const core::Exercise* e) { return e->id == w; }))
      throw core::unknown_exercise(set, w);
  return out;
}

// A batch's variants are known only submission by submission: its --param must be one that the
// reference of an exercise it grades takes, checked before the first submission.
void check_batch_params(const std::vector<std::string>& params,
                        const std::vector<const core::Exercise*>& exercises) {
  std::set<Family> families;
  for (const core::Exercise* ex : exercises) families.insert(family_of(ex->kind));
  std::vector<core::ParamBinding> refs;
  for (const Family f : families) refs.push_back(core::reference_params(f));
  std::vector<ParamTaker> takers;
  for (const auto& r : refs) takers.push_back({r.owner, &r.decls});
  check_params(params, takers, "reference of the exercises graded here");
}

// The default set of `variant`: the exercises for it (core::not_for_variant); the others go to
// `not_mine` with the reason.
std::vector<const core::Exercise*> exercises_for(
    const core::VariantDesc& variant, const std::vector<const core::Exercise*>& exercises,
    Scalar scalar, std::vector<std::pair<std::string, std::string>>& not_mine) {
  std::vector<const core::Exercise*> mine;
  for (const core::Exercise* ex : exercises) {
    if (auto why = core::not_for_variant(*ex, variant, scalar))
      not_mine.emplace_back(ex->id, *why);
    else
      mine.push_back(ex);
  }
  return mine;
}

// For the instructor: a graded plugin that is not bundled but has the bytes of a plugin or
// mutant that ships with awb (a student handing in awb's own answer).
std::string shipped_copy_notes(const std::vector<core::VariantRef>& variants) {
  std::string out;
  std::set<uintmax_t> sizes;
  for (const auto& v : variants) {
    std::error_code ec;
    if (!v.plugin->bundled) sizes.insert(std::filesystem::file_size(v.plugin->path, ec));
  }
  if (sizes.empty()) return out;
  core::DigestCache digests;  // this call's only
  const std::map<std::string, std::string> shipped = core::shipped_plugin_hashes(sizes, digests);
  for (const auto& v : variants) {
    if (v.plugin->bundled) continue;
    std::string sha;
    try {
      sha = digests.sha256(v.plugin->path);
    } catch (const Error&) {
      continue;
    }
    if (const auto it = shipped.find(sha); it != shipped.end())
      out += "note: " + grade::clean_text(v.plugin->path.string(), false) +
             " is identical to the " + it->second + "\n";
  }
  return out;
}

// "table, json, junit, gradescope or csv": the registry's formats, for --help.
std::string format_choices() {
  const std::vector<std::string> names = grade::report_format_names();
  std::string out;
  for (size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " or " : ", ") + names[i];
  return out;
}

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// The progress of a batch on stderr: a bar redrawn in place on a terminal, else one line per
// submission (for logs and CI).
class BatchProgressPrinter {
 public:
  BatchProgressPrinter() : tty_(::isatty(STDERR_FILENO) == 1) {}
  void operator()(const core::BatchProgress& p) {
    if (!tty_) {
      std::cerr << "graded " << p.done << "/" << p.total << ": "
                << grade::terminal_text(p.submission) << " (" << p.exercises_passed << "/"
                << p.exercises_total << " exercises passed";
      if (p.reused > 0) std::cerr << ", " << p.reused << " from the journal";
      std::cerr << ")";
      if (!p.note.empty()) std::cerr << " " << grade::terminal_text(p.note);
      std::cerr << std::endl;
      return;
    }
    constexpr int kWidth = 30;
    const int filled = p.total > 0 ? p.done * kWidth / p.total : kWidth;
    std::string line = "\r[" + std::string(filled, '#') + std::string(kWidth - filled, '.') + "] " +
                       std::to_string(p.done) + "/" + std::to_string(p.total) + " submissions, " +
                       std::to_string(p.not_gradable) + " not gradable";
    if (p.eta_seconds >= 0) line += ", eta " + std::to_string(std::lround(p.eta_seconds)) + "s";
    line += "\x1b[K";  // clear what a longer earlier line left
    std::cerr << line << std::flush;
    drawn_ = true;
  }
  void finish() {
    if (drawn_) std::cerr << '\n';
    drawn_ = false;
  }

 private:
  bool tty_;
  bool drawn_ = false;
};

int run_grade_batch(const GradeOptions& o, const std::vector<const core::Exercise*>& exercises,
                    const core::Assignment* assignment) {
  core::BatchOptions bo;
  bo.submissions = o.batch;
  bo.results = o.out;
  bo.exercises = exercises;
  bo.assignment = assignment;
  bo.variant_params = o.inputs.params;
  bo.grading.scalar = o.scalar == "f32" ? Scalar::kF32 : Scalar::kF64;
  bo.grading.strictness = o.strictness;
  o.isolation.apply(bo.grading);
  bo.view = view_for(o.inputs, assignment);
  bo.jobs = o.jobs;
  bo.journal_starts =
      !bo.grading.trust_all && bo.grading.session.minimum < runner::Isolation::kLimited;
  bo.resume = o.resume;
  bo.build = o.build.limits;
  bo.build_cache = o.build.cache;
  if (!o.shard.empty()) bo.shard = core::parse_shard(o.shard);  // --shard checked it
  bo.times = o.times;
  BatchProgressPrinter printer;
  core::BatchSummary summary;
  try {
    summary = core::run_batch(bo, [&](const core::BatchProgress& p) { printer(p); });
  } catch (const Error& e) {
    printer.finish();
    if (e.id() != "batch.journal_exists") throw;
    std::cerr << "awb: " << e.what() << '\n';
    return kExitUsage;
  }
  printer.finish();
  for (const auto& w : summary.journal_warnings) std::cerr << "journal: " << w << '\n';
  std::cerr << "batch: " << (bo.shard ? "shard " + core::to_string(*bo.shard) + ": " : "")
            << summary.submissions << " submission(s), " << summary.not_gradable
            << " not gradable; " << summary.graded << " result(s) graded, " << summary.reused
            << " taken from the journal; reports in " << o.out << '\n';
  return kExitOk;
}

// --variant's specs with every source folder built first, as a batch builds it: its plugins are
// then what is graded. Nothing when a build fails (it has said why).
std::optional<std::vector<std::string>> built_specs(const GradeOptions& o) {
  std::vector<std::string> specs = o.plugins;
  for (auto& spec : specs) {
    if (!core::is_source_tree(spec)) continue;
    const core::BuildOutcome built = build_submission(spec, o.build);
    if (!built.built) return std::nullopt;
    std::cerr << "built" << (built.cached ? " (cached)" : "")
              << "; its plugins: " << grade::terminal_text(built.plugins.string()) << '\n';
    spec = built.plugins.string();
  }
  return specs;
}

// Grades each variant; without an assignment or a named exercise, each gets the exercises that
// are for it and the others are listed once, not graded. `all_passed` says whether every check
// of every report passed.
std::vector<grade::GradeReport> grade_each(const std::vector<core::VariantRef>& variants,
                                           const std::vector<const core::Exercise*>& exercises,
                                           const core::GradeOptions& go, bool default_set,
                                           bool& all_passed) {
  std::vector<grade::GradeReport> reports;
  all_passed = true;
  for (const auto& v : variants) {
    std::vector<std::pair<std::string, std::string>> not_mine;
    const auto mine =
        default_set ? exercises_for(*v.variant, exercises, go.scalar, not_mine) : exercises;
    reports.push_back(core::grade_variant(v, mine, go));
    reports.back().not_for_variant = std::move(not_mine);
    for (const auto& ex : reports.back().exercises) {
      if (!ex.not_gradable.empty()) all_passed = false;
      for (const auto& c : ex.checks)
        if (c.status != grade::Status::kPassed && c.status != grade::Status::kNotRun)
          all_passed = false;
    }
  }
  return reports;
}

int run_grade(const GradeOptions& o) {
  // --exercise takes ids, or files and folders to load.
  std::vector<std::filesystem::path> dirs;
  std::vector<std::string> ids;
  for (const auto& e : o.exercises) {
    std::error_code ec;
    if (std::filesystem::exists(e, ec))
      dirs.emplace_back(e);
    else
      ids.push_back(e);
  }
  const LoadedInputs loaded = load_grade_inputs(o.inputs, dirs);
  if (loaded.exit_code != kExitOk) return loaded.exit_code;
  const core::ExerciseSet& set = loaded.set;
  const std::optional<core::Assignment>& assignment = loaded.assignment;
  const auto exercises = assignment ? assignment->exercise_list() : pick_exercises(set, ids);
  if (!o.batch.empty()) {
    check_batch_params(o.inputs.params, exercises);
    return run_grade_batch(o, exercises, assignment ? &*assignment : nullptr);
  }

  const std::optional<std::vector<std::string>> built = built_specs(o);
  if (!built) return kExitFailed;
  const std::vector<std::string>& specs = *built;
  std::vector<std::filesystem::path> pdirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  for (const auto& p : specs) {
    std::error_code ec;
    if (std::filesystem::exists(p, ec)) pdirs.emplace_back(p);
  }
  core::GradeOptions go;
  go.scalar = o.scalar == "f32" ? Scalar::kF32 : Scalar::kF64;
  go.strictness = o.strictness;
  o.isolation.apply(go);
  core::LoadPolicy policy = o.isolation.load_policy();
  policy.runner = core::session_options_for(exercises, go).runner;
  const core::Catalog cat = core::load_catalog(core::plugin_search_path(pdirs), policy);
  print_load_notes(cat);
  std::vector<core::VariantRef> variants;
  for (const auto& p : specs) {
    const auto picked = pick_variants(cat, p);
    variants.insert(variants.end(), picked.begin(), picked.end());
  }
  if (assignment) {
    // The assignment grades one variant; the others are named, not graded.
    const core::VariantChoice choice = core::choose_variant(*assignment, variants);
    if (!choice.note.empty()) std::cerr << "awb: " << choice.note << '\n';
    if (!choice.others.empty())
      std::cerr << "awb: the assignment grades one variant; not graded: "
                << grade::clean_text(join_names(choice.others), false) << '\n';
    variants = {*choice.chosen};
    go = core::under_assignment(*assignment, choice.chosen->variant, go);
  }
  std::vector<ParamTaker> takers;
  for (const auto& v : variants) takers.push_back({v.variant->id, &v.variant->params});
  check_params(o.inputs.params, takers, "variant graded here");

  bool all_passed = true;
  const std::vector<grade::GradeReport> reports =
      grade_each(variants, exercises, go, !assignment && o.exercises.empty(), all_passed);

  const grade::View view = view_for(o.inputs, assignment ? &*assignment : nullptr);
  const grade::ReportFormat& format = *grade::find_report_format(o.format);  // --format checked it
  if (!format.multi_subject && reports.size() != 1)
    throw Error("grade.usage", std::string(format.document) +
                                   " holds one submission: grade one variant, or use --batch for "
                                   "one file per submission");
  grade::FormatOptions format_options;
  if (assignment) format_options.leaderboard = assignment->leaderboard;
  std::string text = format.write(reports, view, format_options);
  if (format.plain_text && view.instructor) text += shipped_copy_notes(variants);
  if (o.out.empty())
    std::cout << text;
  else
    core::write_file_atomic(o.out, text);
  return all_passed ? kExitOk : kExitFailed;
}

}  // namespace

// Long for a reason: the command's options one after another, each with its help and check, so
// that `awb grade --help` and this list read the same.
void add_grade_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<GradeOptions>();
  CLI::App* cmd = app.add_subcommand(
      "grade",
      "Grade plugin variants on exercises: every check with its status, points, feedback and\n"
      "hint. A check the variant cannot run (a capability it lacks) is not-run with the reason\n"
      "and does not count. Without --assignment or --exercise, a variant is graded on the\n"
      "exercises for it (its family's, whose problems it can run); the others are listed once\n"
      "as not for this variant. Exits 0 when every check that ran passed, 1 otherwise.\n\n"
      "Batch: awb grade --batch SUBMISSIONS --exercises DIR --out RESULTS [-j N] [--resume]\n"
      "grades every sub-folder of SUBMISSIONS (named after the student; it holds the built\n"
      "plugin *.so files, or a CMake project that makes them: built first in the build\n"
      "sandbox, as `awb build` does, and cached in RESULTS/builds; a build that fails is\n"
      "not gradable, with the first compiler errors as feedback) on every exercise: every\n"
      "variant of every plugin in it, or one\n"
      "not-gradable row with the reason when nothing in it loads. Each result is appended to\n"
      "RESULTS/journal.jsonl (checksummed, fsync'd) as soon as it is known; after a kill,\n"
      "--resume grades only what the journal lacks (an edited exercise or a rebuilt plugin is\n"
      "graded again). The reports are built from the journal alone, without timings, so a\n"
      "resumed run writes the same bytes as an uninterrupted one: RESULTS/grades.csv,\n"
      "RESULTS/junit.xml, RESULTS/gradescope/<submission>.json (Gradescope's results.json),\n"
      "RESULTS/prairielearn/<submission>.json (PrairieLearn's) and, with --assignment,\n"
      "RESULTS/roster.csv (one row per submission, numbers only, for a gradebook: like\n"
      "grades.csv it counts every check whatever --view; lateness from --submitted-at and\n"
      "--extensions, else the files' times). Submissions are graded at --min-isolation\n"
      "limited unless you say otherwise: at process a submission could rewrite the results (see\n"
      "docs/runner.md).\n\n"
      "On a cluster, --shard I/N grades the submissions of shard I of N (counting from 0; a\n"
      "submission's shard is sha256(its name) mod N, so it stays there when others are added)\n"
      "into RESULTS of its own; awb grade merge SHARD_RESULTS... --out DIR then writes the\n"
      "class's reports, the bytes one unsharded run would write. Batch exit codes:\n"
      "  0  every submission graded (whatever the students scored)\n"
      "  1  I/O failure (a file could not be read or written; the journal is locked)\n"
      "  2  bad command line, or RESULTS already has a journal and --resume was not given\n"
      "  3  an exercise or assignment file is invalid");
  auto* plugin_opt = cmd->add_option(
      "--variant,--plugin", opts->plugins,
      "Variant id (qkv, org.awb.qkv:qkv), plugin file or folder, or a source folder (a CMake "
      "project: built in the build sandbox first); repeatable (required unless --batch; "
      "--plugin: the former name)");
  auto* exercises_opt =
      cmd->add_option("--exercise", opts->exercises,
                      "Exercise id, file or folder; repeatable (default: every bundled exercise)");
  auto* assignment_opt = add_grade_input_options(
      cmd, opts->inputs,
      "Grade under an assignment (a file, or a bundled one: parameter-free, qkv, multi-head,\n"
      "causal): its exercises, its variant of each submission, and every check it requires\n"
      "counting, so every submission has the same maximum; a required check the variant\n"
      "cannot run scores 0 with the reason. With --batch, also writes RESULTS/roster.csv.");
  assignment_opt->excludes(exercises_opt);
  add_plugin_dir_option(cmd, opts->plugin_dirs);
  auto* format_opt = cmd->add_option("--format", opts->format, format_choices())
                         ->check(CLI::IsMember(grade::report_format_names()))
                         ->capture_default_str();
  auto* out_opt = cmd->add_option(
      "--out", opts->out,
      "Write the report here (atomically) instead of stdout; with --batch, the results folder");
  auto* batch_opt =
      cmd->add_option("--batch", opts->batch,
                      "Grade every submission folder in this folder (writes grades.csv, junit.xml, "
                      "gradescope/, prairielearn/ and, with --assignment, roster.csv into --out)")
          ->check(CLI::ExistingDirectory)
          ->excludes(plugin_opt)
          ->excludes(format_opt);
  cmd->add_option("-j,--jobs", opts->jobs, "With --batch: submissions graded at once")
      ->check(CLI::Range(1, 256))
      ->capture_default_str()
      ->needs(batch_opt);
  cmd->add_flag("--resume", opts->resume,
                "With --batch: continue the journal in the results folder, grading only what "
                "it lacks")
      ->needs(batch_opt);
  cmd->add_option("--shard", opts->shard,
                  "With --batch: I/N, grade shard I of N only (I counts from 0; a job array's\n"
                  "$SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT); merge the shards with awb grade "
                  "merge")
      ->check(CLI::Validator(
          [](std::string& text) {
            std::string why;
            return core::parse_shard(text, &why) ? std::string() : why;
          },
          "I/N", "shard"))
      ->needs(batch_opt);
  cmd->add_option("--strictness", opts->strictness,
                  "1: outputs only; 2: also reruns and perturbation probes")
      ->check(CLI::Range(1, 2))
      ->capture_default_str()
      ->excludes(assignment_opt);
  cmd->add_option("--scalar", opts->scalar, "f64 or f32 (an assignment sets its own)")
      ->check(CLI::IsMember({"f64", "f32"}))
      ->capture_default_str()
      ->excludes(assignment_opt);
  add_isolation_options(cmd, opts->isolation);
  add_build_options(cmd, opts->build, "RESULTS/builds");
  add_time_options(cmd, opts->times);
  cmd->add_option("--submission-metadata", opts->times.metadata,
                  "With --assignment and a batch of one submission: the platform's metadata\n"
                  "(Gradescope's submission_metadata.json), whose created_at is its time")
      ->check(CLI::ExistingFile);
  for (const char* name : {"--submitted-at", "--extensions", "--submission-metadata"})
    cmd->get_option(name)->needs(batch_opt);
  const CLI::App* merge = add_grade_merge_command(*cmd, exit_code);
  cmd->callback([opts, &exit_code, batch_opt, out_opt, cmd, merge] {
    if (merge->parsed()) return;
    if (batch_opt->count() > 0 && out_opt->count() == 0)
      throw CLI::RequiredError("--out (the results folder) with --batch");
    if (batch_opt->count() == 0 && opts->plugins.empty())
      throw CLI::RequiredError("--variant (or --batch)");
    // A class is graded at `limited` or above unless asked otherwise: at `process` a submission
    // has every right of the grader's uid, so it could write the journal (forge its grade) or
    // kill awb; from `limited` up it can open files for reading only and signal nothing.
    if (batch_opt->count() > 0 && cmd->get_option("--min-isolation")->count() == 0 &&
        !opts->isolation.trusted) {
      if (opts->isolation.isolation == "process")
        throw CLI::ValidationError(
            "--isolation",
            "process is below a batch's default floor (limited); pass "
            "--min-isolation process to grade a class where a submission can "
            "rewrite the results");
      opts->isolation.min_isolation = "limited";
    }
    exit_code = run_grade(*opts);
  });
}

}  // namespace awb::cli
