// exit_codes.cpp: every error id the host raises, with the exit code it ends awb with. An id
// missing here exits 1; the cli.error_ids test holds this table, docs/errors.md's and the ids
// thrown in host/ to one another.
#include "cli/exit_codes.hpp"

#include <utility>

namespace awb::cli {
namespace {

// Exact ids first; "x.*" rows are families of ids a file reader makes up (FORMAT.md, "Errors").
constexpr std::pair<const char*, int> kTable[] = {
    // A name on the command line that names nothing: the command line's fault, not a file's.
    {"exercise.not_found", kExitUsage},
    {"exercise.case_not_found", kExitUsage},
    {"assignment.not_found", kExitUsage},
    {"example.unknown", kExitUsage},
    {"grade.usage", kExitUsage},
    {"batch.usage", kExitUsage},
    {"bench.usage", kExitUsage},
    {"compare.usage", kExitUsage},
    {"autograder.usage", kExitUsage},
    {"batch.journal_exists", kExitUsage},  // --resume was not given
    {"batch.out_not_awb", kExitUsage},     // --out holds files awb did not write
    {"build.not_source", kExitUsage},      // awb build on a folder without a CMakeLists.txt
    {"new_plugin.unknown_kind", kExitUsage},
    {"new_plugin.bad_name", kExitUsage},
    {"new_plugin.not_empty", kExitUsage},  // nothing is overwritten
    // awb grade merge given shards that do not make one class together.
    {"batch.shard_mismatch", kExitUsage},
    {"batch.shard_missing", kExitUsage},
    {"batch.shard_duplicate", kExitUsage},
    {"batch.shard_overlap", kExitUsage},
    {"param.syntax", kExitUsage},
    // What the option parser finds wrong with the command line itself.
    {"cli.unknown_command", kExitUsage},
    {"cli.unexpected", kExitUsage},
    {"cli.missing", kExitUsage},
    {"cli.value_count", kExitUsage},
    {"cli.not_a_number", kExitUsage},
    {"cli.invalid_value", kExitUsage},
    {"cli.excludes", kExitUsage},
    {"cli.requires", kExitUsage},
    {"cli.usage", kExitUsage},
    {"export.usage", kExitUsage},    // exercises export --student would overwrite a user's file
    {"param.usage", kExitUsage},     // --param names nothing run, or a value it refuses
    {"io.not_regular", kExitUsage},  // --out names a device, FIFO, socket or folder
    // An input file that is invalid, or holds nothing the command can use.
    {"exercise.none_found", kExitBadInput},
    {"exercise.no_train", kExitBadInput},
    {"train.none", kExitBadInput},      // the same condition, found by the trainer itself
    {"bench.baseline", kExitBadInput},  // a saved run that is missing or not one
    {"exercise.export", kExitBadInput},
    {"exercise.unknown_case", kExitBadInput},
    {"exercise.duplicate_id", kExitBadInput},
    {"exercise.set_too_large", kExitBadInput},
    {"exercise.*", kExitBadInput},
    {"problem.shape", kExitBadInput},
    {"problem.*", kExitBadInput},
    {"assignment.*", kExitBadInput},
    {"param.invalid", kExitBadInput},
    // --submitted-at, --extensions, --submission-metadata (submission_times.hpp).
    {"times.format", kExitBadInput},
    {"times.bad_time", kExitBadInput},
    {"times.unknown_submission", kExitBadInput},
    {"times.duplicate", kExitBadInput},
    // A plugin that does not load, or no plugin with the variant asked for.
    {"plugin.load_failed", kExitPluginError},
    {"plugin.variant_not_found", kExitPluginError},
    {"plugin.variant_ambiguous", kExitPluginError},
    // The variant cannot do what is asked: a capability or the backward pass is missing.
    {"run.cannot_run", kExitCannotRun},
    {"plugin.no_backward", kExitCannotRun},
    {"param.unknown", kExitCannotRun},
    // The work ran and failed.
    {"plugin.create_failed", kExitFailed},
    {"plugin.forward_failed", kExitFailed},
    {"plugin.backward_failed", kExitFailed},
    {"plugin.cost_failed", kExitFailed},
    {"reference.invalid", kExitFailed},
    {"run.backward_shape", kExitFailed},
    {"train.diverged", kExitFailed},
    {"runner.spawn_failed", kExitFailed},
    {"runner.crashed", kExitFailed},
    {"runner.cpu_limit", kExitFailed},
    {"runner.wall_limit", kExitFailed},
    {"runner.memory_limit", kExitFailed},
    {"runner.output_limit", kExitFailed},
    {"runner.file_limit", kExitFailed},
    {"runner.forbidden_syscall", kExitFailed},
    {"runner.no_result", kExitFailed},
    {"runner.malformed_result", kExitFailed},
    {"runner.cancelled", kExitFailed},
    {"runner.unknown", kExitFailed},
    {"runner.given_up", kExitFailed},
    {"runner.isolation", kExitFailed},
    {"build.sandbox_failed", kExitFailed},
    {"build.source_too_large", kExitFailed},
    {"io.read", kExitFailed},
    {"io.write", kExitFailed},
    {"batch.journal_locked", kExitFailed},
    {"batch.results_locked", kExitFailed},  // another batch or merge works in --out
    {"io.too_large", kExitFailed},          // a file awb reads back is over its size limit
    {"batch.journal_record", kExitFailed},
    {"template.not_found", kExitFailed},      // the installed plugin template is missing
    {"template.invalid", kExitFailed},        // a marker of the template is malformed
    {"batch.shard_unfinished", kExitFailed},  // its run has not finished (or is running)
    {"figure.unavailable", kExitFailed},      // --figure without awb-figure (built with the GUI)
    {"figure.failed", kExitFailed},           // awb-figure did not draw the figure
};

}  // namespace

int exit_code_for(const std::string& id) {
  for (const auto& [key, code] : kTable)
    if (id == key) return code;
  for (const auto& [key, code] : kTable) {
    const std::string k = key;
    if (k.ends_with(".*") && id.starts_with(k.substr(0, k.size() - 1))) return code;
  }
  return kExitFailed;
}

}  // namespace awb::cli
