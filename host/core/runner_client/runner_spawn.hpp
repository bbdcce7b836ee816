// runner_spawn.hpp: starting awb-runner: its pipes, its scratch folder, its command line, and the
// registry of runners this process started (so that escaped descendants can be told from them).
#ifndef AWB_CORE_RUNNER_CLIENT_RUNNER_SPAWN_HPP_
#define AWB_CORE_RUNNER_CLIENT_RUNNER_SPAWN_HPP_

#include <sys/types.h>

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "core/runner_client/runner_process.hpp"
#include "core/runner_client/unique_fd.hpp"

namespace awb::core {

// The four pipes between the host and a runner. The host keeps its ends; the runner's ends are
// placed above the descriptor numbers of its command line, so no dup2 into them overwrites
// another, and close with this object once the runner has its copies.
struct RunnerPipes {
  UniqueFd request, result, out, err;                          // the host's ends
  UniqueFd child_request, child_result, child_out, child_err;  // the runner's ends
};
// Throws awb::Error("runner.spawn_failed") naming the call that failed; every descriptor opened
// before the failure is closed again.
RunnerPipes open_runner_pipes();

// A fresh private folder the runner may write to. Throws awb::Error("runner.spawn_failed").
std::filesystem::path make_scratch_folder();

// The runner's argv: the plugin, its scratch folder, the level it aims for and its limits.
std::vector<std::string> runner_arguments(const std::filesystem::path& plugin,
                                          const std::filesystem::path& scratch,
                                          const RunnerOptions& options);

// Starts the runner with `args` on `pipes` in a session of its own and registers it; returns
// posix_spawn's error (0 when it started, `pid` set).
int spawn_runner(const std::vector<std::string>& args, const RunnerPipes& pipes, pid_t& pid);

// Starts `args` (argv[0] a path) in a session of its own with stdin on /dev/null, each pair's
// first descriptor as its second, and the environment cut to PATH, LC_ALL and the sanitizers'
// options; registers it as a runner. Returns posix_spawn's error (0 when it started, `pid` set).
int spawn_sandboxed(const std::vector<std::string>& args,
                    const std::vector<std::pair<int, int>>& descriptors, pid_t& pid);

// As root: a uid for one sandboxed process, outside any range a distribution hands out.
uid_t next_sandbox_uid();

// Once per process: orphans of a runner's descendants come to us, and a dead runner's pipe does
// not kill the host with SIGPIPE.
void become_subreaper();
// A runner that has been reaped is no longer ours; after this its pid may be reused.
void forget_runner(pid_t pid);
// Ends processes that were reparented to us (a runner's escaped descendants) and reaps them.
void reap_orphans();

}  // namespace awb::core

#endif  // AWB_CORE_RUNNER_CLIENT_RUNNER_SPAWN_HPP_
