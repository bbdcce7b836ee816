// zygote.hpp: `awb-runner --zygote FD --parent PID`, a runner started once per host that starts
// the others. Spawning a program costs an exec and its dynamic linking (about 3 ms of a 10 ms
// cold start on a small VM); the zygote has paid that once, and each runner it makes is a fork
// that goes straight to the runner's own start (open the plugin, lock down, load, serve), so a
// runner from the zygote is exactly as locked down as one spawned afresh.
#ifndef AWB_RUNNER_ZYGOTE_HPP_
#define AWB_RUNNER_ZYGOTE_HPP_

#include <sys/types.h>

namespace awb::runner {

// A runner's start, given its argv (what main() does after the zygote check).
using RunnerMain = int (*)(int argc, char** argv);

// Serves requests on `socket` (zygote_wire.hpp) until the host closes it, then returns 0.
// Each request becomes a process made with clone(CLONE_PARENT): the host's child, not the
// zygote's, so the host waits for it, reaps it, reads its CPU clock, and the runner's
// parent-death signal and its `--parent` check name the host as for a spawned runner. The child
// starts a session of its own, finds the passed descriptors at their numbers and /dev/null on
// 0, takes the request's environment and calls `run` with the request's argv.
// Runners are made ahead of their requests: kSpareRequest asks the zygote to fork a spare (the
// host's child too); it answers with its pid and the socket it waits on, and the host sends the
// next runner's request to the spare itself. A request that comes to the zygote instead (the
// first, or one whose spare died) is forked at once. A spare whose socket closes without a
// request leaves.
int serve_zygote(int socket, pid_t host, RunnerMain run);

}  // namespace awb::runner

#endif  // AWB_RUNNER_ZYGOTE_HPP_
