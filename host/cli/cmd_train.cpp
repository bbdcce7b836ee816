// cmd_train.cpp: `awb train`: learn an exercise's weights through a plugin's forward and backward.
#include <cstdio>
#include <fstream>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/isolation_options.hpp"
#include "cli/load_notes.hpp"
#include "cli/param_options.hpp"
#include "cli/validators.hpp"
#include "core/base/atomic_file.hpp"
#include "core/exercises/exercise.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/subjects.hpp"
#include "core/training/training.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {
namespace {

struct TrainOptions {
  std::string variant;
  std::string exercise;
  std::vector<std::string> exercise_dirs;
  std::vector<std::string> plugin_dirs;
  std::string out;
  int steps = 0;                    // 0: the exercise's
  std::vector<std::string> params;  // --param name=value
  IsolationFlags isolation;
};

// An exercise file given by path, or an exercise id looked up in the folders.
core::Exercise find_exercise(const TrainOptions& o) {
  if (std::filesystem::is_regular_file(o.exercise)) {
    core::ExerciseLoad l = core::load_exercise_file(o.exercise);
    if (!l.errors.empty()) throw l.errors.front();
    return std::move(*l.exercise);
  }
  std::vector<std::filesystem::path> dirs(o.exercise_dirs.begin(), o.exercise_dirs.end());
  if (dirs.empty()) dirs.push_back(core::bundled_exercise_dir());
  core::ExerciseSet set = core::load_exercises(dirs);
  for (auto& ex : set.exercises)
    if (ex.id == o.exercise) return std::move(ex);
  for (const auto& e : set.errors) std::cerr << e.what() << '\n';
  throw core::unknown_exercise(set, o.exercise);
}

std::string fixed(double v, int decimals) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// Row `query` of each target's attention, with the learned weights, token by token.
void print_target_rows(const core::Exercise& ex, const core::TrainOutcome& r) {
  std::cout << "attention rows of the targets, learned weights:\n";
  for (size_t i = 0; i < ex.train->targets.size(); ++i) {
    const core::TrainTarget& t = ex.train->targets[i];
    const core::ExerciseCase& c = ex.cases[size_t(t.case_index)];
    const Matrix& a = r.targets[i].weights;
    std::cout << "  " << c.id << ", layer " << r.targets[i].layer
              << (ex.parameters.heads > 1 ? ", head " : "")
              << (ex.parameters.heads > 1 ? std::to_string(t.head) : "") << ", \""
              << c.tokens[size_t(t.query)] << "\" (" << (t.avoid ? "to avoid" : "target") << " \""
              << c.tokens[size_t(t.key)] << "\"):\n   ";
    for (size_t k = 0; k < c.tokens.size(); ++k)
      std::cout << ' ' << c.tokens[k] << ' ' << fixed(a(t.query, int64_t(k)), 3);
    std::cout << '\n';
  }
}

int run_train(const TrainOptions& o) {
  core::Exercise ex = find_exercise(o);
  apply_params(ex.parameters.variant, o.params);
  if (!ex.train) throw Error("exercise.no_train", ex.file.string(), "has no train section");
  if (o.steps > 0) ex.train->steps = o.steps;
  std::vector<std::filesystem::path> dirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  const core::Catalog cat =
      core::load_catalog(core::plugin_search_path(dirs), o.isolation.load_policy());
  print_load_notes(cat);
  const core::VariantRef ref = core::find_variant(cat, o.variant);
  check_params(o.params, {{ref.variant->id, &ref.variant->params}}, "variant trained here");
  core::VariantSubject subject(ref, o.isolation.session());
  if (auto why = subject.cannot_run(ex.input_for(grade::CheckSpec{}), Scalar::kF64)) {
    std::cerr << "awb: cannot train " << ref.variant->id << " on " << ex.id << ": " << *why << '\n';
    return exit_code_for("run.cannot_run");
  }
  if (auto why = subject.cannot_backward()) {
    std::cerr << "awb: cannot train " << ref.variant->id << ": " << *why << '\n';
    return exit_code_for("plugin.no_backward");
  }
  const core::TrainSpec& t = *ex.train;
  std::string learn;
  for (const auto& w : t.learn) learn += (learn.empty() ? "" : ", ") + w;
  std::cout << "training " << ref.variant->id << " on " << ex.id << ": " << ex.layers.size()
            << " layer(s), learning " << learn << ", " << to_string(t.optimizer) << " (lr "
            << t.learning_rate << "), " << t.steps << " steps, "
            << (t.init ? "initial weights drawn from seed " + std::to_string(t.init->seed)
                       : std::string("starting from the exercise's weights"))
            << "\n";
  const core::TrainOutcome r = core::train(ex, subject, [](int step, double loss) {
    std::printf("step %5d  loss %.6f\n", step, loss);
    std::fflush(stdout);
  });
  print_target_rows(ex, r);
  std::cout << "success criteria:\n";
  if (t.loss_below)
    std::cout << "  loss " << fixed(r.final_loss, 6) << " < " << *t.loss_below << ": "
              << (r.loss_met ? "met" : "NOT met") << '\n';
  for (const auto& c : r.success_checks.checks)
    std::cout << "  " << c.id << ": " << grade::to_string(c.status) << " (" << c.summary << ")\n";
  if (!o.out.empty()) {
    core::write_file_atomic(o.out, core::learned_weights_file(ex, r.layers));
    std::cout << "wrote " << o.out << '\n';
  }
  if (!r.diagnosis.empty()) std::cout << "diagnosis: " << r.diagnosis << '\n';
  std::cout << (r.succeeded() ? "trained: every success criterion met\n"
                              : "not trained: a success criterion is not met\n");
  return r.succeeded() ? kExitOk : kExitFailed;
}

}  // namespace

void add_train_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<TrainOptions>();
  CLI::App* cmd = app.add_subcommand(
      "train",
      "Learn an exercise's weights (its train: section) through a plugin's forward and backward\n"
      "passes, printing the loss as it goes; exit 0 when every success criterion is met.");
  cmd->add_option("--variant,--plugin", opts->variant,
                  "Variant id, or plugin-id:variant-id (--plugin: the former name)")
      ->required();
  cmd->add_option("--exercise", opts->exercise, "An exercise id or an exercise file")->required();
  add_param_option(cmd, &opts->params);
  cmd->add_option("--exercises", opts->exercise_dirs,
                  "Exercise folders or files (default: the bundled exercises)");
  add_plugin_dir_option(cmd, opts->plugin_dirs);
  cmd->add_option("--out", opts->out, "Write the learned weights here as a YAML layers: section");
  cmd->add_option("--steps", opts->steps, "Override the exercise's step budget")->check(AtLeast(1));
  add_isolation_options(cmd, opts->isolation);
  cmd->callback([opts, &exit_code] { exit_code = run_train(*opts); });
}

}  // namespace awb::cli
