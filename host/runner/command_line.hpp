// command_line.hpp: how awb-runner is started, spelled once for the host that spawns it and the
// runner that reads it: the descriptor numbers its pipes arrive on and the names of its options.
#ifndef AWB_RUNNER_COMMAND_LINE_HPP_
#define AWB_RUNNER_COMMAND_LINE_HPP_

namespace awb::runner {

// Descriptors the runner is started with; every other one is closed before the plugin loads.
inline constexpr int kStdinFd = 0;    // /dev/null
inline constexpr int kStdoutFd = 1;   // the host's capped output pipe
inline constexpr int kStderrFd = 2;   // the host's capped output pipe
inline constexpr int kRequestFd = 3;  // requests in (host → runner)
inline constexpr int kResultFd = 4;   // result frames out (runner → host)
inline constexpr int kSharedFd = 5;   // optional: the sealed region for large frames
// Descriptors meant for a child wait at or above this until they are placed, clear of every
// number above, so that no dup2 into place overwrites one still to be placed.
inline constexpr int kFirstHighFd = 10;
static_assert(kFirstHighFd > kSharedFd);

// Options, each followed by its value.
namespace option {
inline constexpr const char* kPlugin = "--plugin";           // the plugin file (required)
inline constexpr const char* kScratch = "--scratch";         // the writable folder (required)
inline constexpr const char* kLevel = "--level";             // process | limited | confined
inline constexpr const char* kMinLevel = "--min-level";      // below it, nothing is loaded
inline constexpr const char* kParent = "--parent";           // pid that must stay its parent
inline constexpr const char* kUid = "--uid";                 // as root: the uid to drop to
inline constexpr const char* kCpuSeconds = "--cpu-seconds";  // the session's CPU rlimit
inline constexpr const char* kMemoryMb = "--memory-mb";      // address space; 0 = no limit
inline constexpr const char* kFileMb = "--file-mb";          // largest file it may write
inline constexpr const char* kOpenFiles = "--open-files";    // descriptors it may hold
// Alone with --parent PID: the zygote that starts the others, its request socket on this fd.
inline constexpr const char* kZygote = "--zygote";
}  // namespace option

}  // namespace awb::runner

#endif  // AWB_RUNNER_COMMAND_LINE_HPP_
