// isolation_options.cpp: parsing and applying the shared isolation switches.
#include "cli/isolation_options.hpp"

#include "cli/validators.hpp"

namespace awb::cli {

core::SessionOptions IsolationFlags::session() const {
  core::SessionOptions so;
  so.runner.level = *runner::parse_isolation(isolation);
  so.minimum = *runner::parse_isolation(min_isolation);
  so.runner.minimum = so.minimum;
  if (cpu_seconds) so.runner.limits.cpu_seconds = *cpu_seconds;
  if (wall_seconds) so.runner.limits.wall_seconds = *wall_seconds;
  if (memory_mb) so.runner.limits.memory_mb = *memory_mb;
  so.runner.limits.output_limit = static_cast<size_t>(output_kb) << 10;
  return so;
}

core::LoadPolicy IsolationFlags::load_policy() const {
  core::LoadPolicy policy;
  policy.trust_all = trusted;
  policy.runner = session().runner;
  return policy;
}

void IsolationFlags::apply(core::GradeOptions& grading) const {
  grading.session = session();
  grading.trust_all = trusted;
  grading.limits = {cpu_seconds, wall_seconds, memory_mb};
}

void add_plugin_dir_option(CLI::App* cmd, std::vector<std::string>& dirs) {
  cmd->add_option("--plugin-dir", dirs, "Extra plugin folder or file; repeatable")
      ->check(CLI::ExistingPath);
}

void add_isolation_options(CLI::App* cmd, IsolationFlags& f, bool with_limits) {
  // A runner's levels: in-process is --trusted, not something a runner can aim for.
  std::vector<std::string> runner_levels;
  for (const auto& entry : runner::kIsolationNames)
    if (entry.level != runner::Isolation::kInProcess) runner_levels.emplace_back(entry.name);
  const auto levels = CLI::IsMember(runner_levels);
  auto* trusted =
      cmd->add_flag("--trusted", f.trusted,
                    "Load every plugin into this process (no runner): for timing your own code. "
                    "Plugins that are not bundled otherwise run in a locked-down awb-runner");
  auto* aim = cmd->add_option("--isolation", f.isolation,
                              "Lockdown the runner aims for: process (own process, rlimits), "
                              "limited (+ seccomp), confined (+ unprivileged uid, Landlock)")
                  ->check(levels)
                  ->capture_default_str();
  auto* floor = cmd->add_option("--min-isolation", f.min_isolation,
                                "Refuse to run an untrusted plugin in a runner that locked down "
                                "less (not with --trusted, which runs nothing in a runner)")
                    ->check(levels)
                    ->capture_default_str();
  // --trusted runs every plugin in this process: asking for a runner's lockdown beside it is a
  // contradiction, not something to ignore.
  trusted->excludes(aim);
  trusted->excludes(floor);
  // Aiming below the floor could only ever refuse: say so before anything runs.
  floor->check(CLI::Validator(
      [&f](std::string& floor_name) -> std::string {
        const auto want = runner::parse_isolation(floor_name);
        const auto aim_level = runner::parse_isolation(f.isolation);
        if (want && aim_level && *aim_level < *want)
          return "--isolation " + f.isolation + " aims below --min-isolation " + floor_name;
        return {};
      },
      ""));
  if (!with_limits) return;
  cmd->add_option("--cpu-limit", f.cpu_seconds,
                  "CPU seconds one run may use, 0.01 to 86400 (default: the exercise's, else 10)")
      ->check(InRange(0.01, 86400, "seconds"));
  cmd->add_option("--wall-limit", f.wall_seconds,
                  "Wall-clock seconds one run may take, 0.01 to 86400 (default: the exercise's, "
                  "else 30)")
      ->check(InRange(0.01, 86400, "seconds"));
  cmd->add_option("--memory-limit", f.memory_mb,
                  "Address space of the runner in MB, 64 (below it no plugin loads) to 1048576 "
                  "(default: the exercises' largest, else 1024)")
      ->check(InRange(64, 1 << 20, "MB"));
  cmd->add_option("--output-limit", f.output_kb,
                  "KiB of stdout + stderr after which the runner is stopped, 1 to 1048576")
      ->check(InRange(1, 1 << 20, "KiB"))
      ->capture_default_str();
}

}  // namespace awb::cli
