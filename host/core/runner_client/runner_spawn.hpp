// runner_spawn.hpp: starting awb-runner: its pipes, its scratch folder, its command line, and the
// registry of runners this process started (so that escaped descendants can be told from them).
#ifndef AWB_CORE_RUNNER_CLIENT_RUNNER_SPAWN_HPP_
#define AWB_CORE_RUNNER_CLIENT_RUNNER_SPAWN_HPP_

#include <sys/types.h>

#include <filesystem>
#include <functional>
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
  UniqueFd child_shared;  // a copy of the shared region's descriptor, when there is one
};
// Throws awb::Error("runner.spawn_failed") naming the call that failed; every descriptor opened
// before the failure is closed again. `shared_region` (-1: none) is the region's descriptor,
// copied for the runner beside its pipes.
RunnerPipes open_runner_pipes(int shared_region = -1);

// A fresh private folder the runner may write to, awb-runner-PID-NS-XXXXXX in the temporary folder
// (base/temp_folder.hpp: the first of a process removes those of awb processes that are gone).
// Throws awb::Error("runner.spawn_failed").
inline constexpr const char* kScratchPrefix = "awb-runner-";
std::filesystem::path make_scratch_folder();

// The runner's argv: the plugin, its scratch folder, the level it aims for and its limits.
std::vector<std::string> runner_arguments(const std::filesystem::path& plugin,
                                          const std::filesystem::path& scratch,
                                          const RunnerOptions& options);

// Starts the runner with `args` on `pipes` in a session of its own and registers it: through
// this process's zygote (runner_zygote.hpp) unless AWB_RUNNER_ZYGOTE=off, `through_zygote` is
// false or the zygote cannot be had, spawned afresh otherwise. Returns an errno (0 when it
// started, `pid` set), or kZygoteLostRequest: the zygote took the request and died or gave no
// answer, so a runner it may have started holds these pipes; start again on new ones, without it.
inline constexpr int kZygoteLostRequest = -1;
int spawn_runner(const std::vector<std::string>& args, const RunnerPipes& pipes, pid_t& pid,
                 bool through_zygote = true);

// Starts `args` (argv[0] a path) in a session of its own with stdin on /dev/null, each pair's
// first descriptor as its second, and the environment of sandbox_environment(); registers it as
// a runner. Returns posix_spawn's error (0 when it started, `pid` set).
int spawn_sandboxed(const std::vector<std::string>& args,
                    const std::vector<std::pair<int, int>>& descriptors, pid_t& pid);

// What a sandboxed process is given of ours: PATH, LC_ALL, the sanitizers' options and the
// x86-64 level the bundled kernels are told to run at (AWB_KERNEL_ISA).
std::vector<std::string> sandbox_environment();

// Runs `start` under the registry's lock, so that no orphan scan sees its process before it is
// registered, and registers the pid it sets when it returns 0. Returns what `start` returned.
int start_registered(const std::function<int(pid_t&)>& start, pid_t& pid);

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
