// isolation_options.cpp: parsing and applying the shared isolation switches.
#include "cli/isolation_options.hpp"

#include "cli/validators.hpp"

namespace awb::cli {

core::SessionOptions IsolationFlags::session() const {
  core::SessionOptions so;
  so.runner.level = *runner::parse_isolation(isolation);
  so.minimum = *runner::parse_isolation(min_isolation);
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

void add_isolation_options(CLI::App* cmd, IsolationFlags& f, bool with_limits) {
  const auto levels = CLI::IsMember({"process", "limited", "confined"});
  cmd->add_flag("--trusted", f.trusted,
                "Load every plugin into this process (no runner): for timing your own code. "
                "Plugins that are not bundled otherwise run in a locked-down awb-runner");
  cmd->add_option("--isolation", f.isolation,
                  "Lockdown the runner aims for: process (own process, rlimits), limited "
                  "(+ seccomp), confined (+ unprivileged uid, Landlock)")
      ->check(levels)
      ->capture_default_str();
  cmd->add_option("--min-isolation", f.min_isolation,
                  "Refuse to run an untrusted plugin in a runner that locked down less")
      ->check(levels)
      ->capture_default_str();
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
