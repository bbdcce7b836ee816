// cmd_grade_merge.cpp: `awb grade merge`: the reports of a class graded in shards (--shard I/N).
#include <iostream>
#include <memory>

#include "cli/commands.hpp"
#include "cli/grade_inputs.hpp"
#include "cli/time_options.hpp"
#include "core/grading/batch_merge.hpp"

namespace awb::cli {
namespace {

struct MergeOptions {
  std::vector<std::string> shards;
  std::string out;
  GradeInputs inputs;
  core::TimeFiles times;
};

int run_merge(const MergeOptions& o) {
  // The assignment is loaded as the shards loaded it; it holds what the roster needs.
  std::optional<LoadedInputs> loaded;
  if (!o.inputs.assignment.empty()) {
    loaded = load_grade_inputs(o.inputs);
    if (loaded->exit_code != kExitOk) return loaded->exit_code;
  }
  core::MergeOptions mo;
  mo.shards.assign(o.shards.begin(), o.shards.end());
  mo.out = o.out;
  mo.assignment = loaded ? &*loaded->assignment : nullptr;
  mo.view = view_for(o.inputs, mo.assignment);
  mo.times = o.times;
  const core::MergeSummary summary = core::merge_shards(mo);
  std::cerr << "merge: " << summary.shards << " shard(s), " << summary.submissions
            << " submission(s), " << summary.results << " result(s); reports in " << o.out << '\n';
  return kExitOk;
}

}  // namespace

CLI::App* add_grade_merge_command(CLI::App& grade, int& exit_code) {
  auto opts = std::make_shared<MergeOptions>();
  CLI::App* cmd = grade.add_subcommand(
      "merge",
      "Merge the results folders of a class graded in shards (awb grade --batch ... --shard I/N,\n"
      "one per shard) into the class's reports: --out then holds grades.csv, junit.xml,\n"
      "gradescope/ and, with --assignment, roster.csv, the bytes one unsharded run of the class\n"
      "would write. Give the assignment (and --exercises) the shards were graded with, and the\n"
      "view the reports are for. Refused, with the reason: a shard that has not finished, shards\n"
      "graded with other exercises, options, assignment or awb version, a shard missing or\n"
      "given twice, a submission in two shards. Lateness is computed here: give the\n"
      "--submitted-at and --extensions files the shards had (refused without them).");
  cmd->add_option("shards", opts->shards, "Each shard's results folder (--out of its run)")
      ->required()
      ->check(CLI::ExistingDirectory);
  cmd->add_option("--out", opts->out, "The folder for the merged reports")->required();
  add_grade_input_options(cmd, opts->inputs,
                          "The assignment the shards were graded under (a file, or a bundled "
                          "one); the merge then writes roster.csv too");
  // Lateness is computed by the merge, from these (the shards' own files are not read).
  add_time_options(cmd, opts->times);
  cmd->callback([opts, &exit_code] { exit_code = run_merge(*opts); });
  return cmd;
}

}  // namespace awb::cli
