// cmd_page.cpp: `awb page`: the teaching page of an exercise (every case, its lesson and
// questions) or of one problem, for one or more variants beside the reference: one
// self-contained HTML file that opens in any browser, from a course site or from disk.
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/isolation_options.hpp"
#include "cli/load_notes.hpp"
#include "cli/param_options.hpp"
#include "cli/problem_source.hpp"
#include "core/base/atomic_file.hpp"
#include "core/exercises/exercise.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/page/page.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {
namespace {

struct PageCommandOptions {
  ProblemSource source;
  std::vector<std::string> variants;
  std::vector<std::string> plugin_dirs;
  std::string scalar = "f64";
  bool no_reference = false;
  std::string out;
  IsolationFlags isolation;
};

int run_page(const PageCommandOptions& o) {
  (void)core::writable_target(o.out);  // a device or folder is refused before anything runs
  std::vector<std::filesystem::path> dirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  const core::Catalog cat =
      core::load_catalog(core::plugin_search_path(dirs), o.isolation.load_policy());
  print_load_notes(cat);
  std::vector<core::VariantRef> chosen;
  for (const auto& spec : o.variants) chosen.push_back(core::find_variant(cat, spec));

  // An exercise brings every case (or the one --case names), its lesson and its questions; a
  // problem file or an example is one case.
  core::ExerciseSet set;
  core::Exercise exercise;  // outlives `source`, which points into it
  core::PageSource source;
  if (!o.source.exercise.empty()) {
    std::vector<std::filesystem::path> ex_dirs(o.source.exercise_dirs.begin(),
                                               o.source.exercise_dirs.end());
    if (ex_dirs.empty()) ex_dirs.push_back(core::bundled_exercise_dir());
    set = core::load_exercises(ex_dirs);
    // --param goes into the exercise itself, so that the questions' answers (the reference's
    // runs) see the values the cases run with.
    try {
      exercise = core::find_exercise(set, o.source.exercise);
    } catch (const Error&) {
      for (const auto& e : set.errors) std::cerr << e.what() << '\n';  // why it may be missing
      throw;
    }
    apply_params(exercise.parameters.variant, o.source.params);
    source = core::exercise_page_source(exercise, o.source.case_id);
  } else {
    LoadedProblem loaded = load_problem(o.source);
    source = core::problem_page_source(loaded.label, std::move(loaded.input),
                                       loaded.reference_capabilities);
  }

  core::PageOptions options;
  options.scalar = *awb::parse<Scalar>(o.scalar);
  options.reference = !o.no_reference;
  options.session = o.isolation.session();
  std::cerr << "awb page: running " << source.cases.size() << " case(s) for "
            << chosen.size() + (options.reference ? 1 : 0) << " subject(s)\n";
  const core::Page page = core::make_page(source, chosen, options);
  core::write_file_atomic(o.out, page.html);
  int code = kExitOk;
  for (const auto& f : page.failures) {
    std::cerr << "awb: " << f.subject << " on case " << f.case_id << ": " << f.message << '\n';
    code = std::max(code, exit_code_for(f.error_id));
  }
  std::cout << "wrote " << o.out << " (" << page.html.size() << " bytes): " << source.label << ", "
            << page.cases << " case(s), " << page.subjects << " subject(s)"
            << (page.failures.empty()
                    ? std::string()
                    : ", " + std::to_string(page.failures.size()) + " run(s) shown as failed")
            << '\n';
  return code;
}

}  // namespace

void add_page_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<PageCommandOptions>();
  CLI::App* cmd = app.add_subcommand(
      "page",
      "Write the teaching page: one self-contained HTML file (inline CSS and JavaScript, no\n"
      "network access) that shows what variants do, as the GUI's Explore and Compare do, in any\n"
      "browser: token chips to pick the query, score and weight bars, the context vector's\n"
      "colour blend, a sharpness slider, the heatmap with its masked cells hatched, every head\n"
      "and layer, each variant beside the reference with |A - ref| maps, the exercise's\n"
      "predict-then-reveal questions (their answers are in the file, for self-study), the\n"
      "lesson and the provenance (variant ids, plugin sha256, awb version).\n"
      "--exercise brings every case of the exercise (--case: only that one). Each case is run\n"
      "at sharpness 1; the page recomputes A = softmax(sharpness * S) and Z = A V from what was\n"
      "run, and checks itself against each run's own A and Z. A variant that cannot run a case\n"
      "is shown with its error there, and the exit code says so (the page is still written).");
  cmd->add_option("--variant", opts->variants,
                  "Variant id, or plugin-id:variant-id; repeatable: each is shown beside the "
                  "reference")
      ->required();
  add_problem_source_options(cmd, opts->source);
  add_plugin_dir_option(cmd, opts->plugin_dirs);
  cmd->add_option("--out", opts->out, "The HTML file to write (atomically)")->required();
  cmd->add_flag("--no-reference", opts->no_reference,
                "Leave the reference out (a smaller file; no Compare view)");
  cmd->add_option("--scalar", opts->scalar, "What the variants run in: f64 or f32")
      ->check(CLI::IsMember({"f64", "f32"}))
      ->capture_default_str();
  add_isolation_options(cmd, opts->isolation);
  cmd->callback([opts, &exit_code] {
    if (!opts->source.given())
      throw CLI::ValidationError("--exercise, --problem or --example", "one of them is required");
    exit_code = run_page(*opts);
  });
}

}  // namespace awb::cli
