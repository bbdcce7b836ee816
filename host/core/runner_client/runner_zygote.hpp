// runner_zygote.hpp: runners started by this process's zygote (`awb-runner --zygote`), a runner
// binary started once that forks each runner instead of spawning a program for it, sparing the
// exec and dynamic linking of every cold start. Its runners are this process's children, locked
// down by the same code as spawned ones.
#ifndef AWB_CORE_RUNNER_CLIENT_RUNNER_ZYGOTE_HPP_
#define AWB_CORE_RUNNER_CLIENT_RUNNER_ZYGOTE_HPP_

#include <sys/types.h>

#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace awb::core {

// False when AWB_RUNNER_ZYGOTE=off (every runner is then spawned afresh, as before the zygote).
bool zygote_enabled();

// The zygote's pid while there is one, else -1: a child of this process that lasts, not a
// runner left behind.
pid_t zygote_pid();
// The zygote's spare while there is one, else -1: a child of this process the zygote forked
// ahead of the next request (the next runner), not a runner left behind. Waits for the answer
// to a spare request still on its way.
pid_t zygote_spare_pid();

// Runs `scan` while every child the zygote forked for this process is registered (the answer to
// a spare request still on its way is read first) and it forks no other: an orphan scan must not
// take the spare for an escaped descendant, and no runner may be handed it while a scan decides.
void with_zygote_children_registered(const std::function<void()>& scan);

// Asks the zygote, without waiting, for a spare for the next runner, where one of its runners
// has taken the last (or was forked) since: called once a runner has answered its first request.
// Forked earlier, while that runner loads, the spare's fork competed with it for the CPU (on a
// 2-vCPU VM it then cost a cold start more than it saved). Nothing without a zygote, and nothing
// while another thread is starting a runner through it (it never waits).
void request_zygote_spare();

struct ZygoteStart {
  int error = 0;               // 0: started, `pid` set and registered; else an errno
  bool spawn_instead = false;  // the zygote never saw the request: spawn the runner afresh
};

// Starts the runner `args` (argv[0] the runner's path) with `env` and each pair's first
// descriptor as its second, through the zygote (started on first use, and again after one that
// died): the spare it made ahead takes the request, or the zygote forks one; registers it. A zygote
// that fails once it has the request (no answer, a bad one) is replaced; a runner it may have
// started holds the descriptors, so the caller starts again on new ones (spawn_instead is false).
ZygoteStart start_from_zygote(const std::vector<std::string>& args,
                              const std::vector<std::string>& env,
                              const std::vector<std::pair<int, int>>& descriptors, pid_t& pid);

}  // namespace awb::core

#endif  // AWB_CORE_RUNNER_CLIENT_RUNNER_ZYGOTE_HPP_
