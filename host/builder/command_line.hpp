// command_line.hpp: how awb-builder is started, spelled once for the host that spawns it and the
// builder that reads it.
#ifndef AWB_BUILDER_COMMAND_LINE_HPP_
#define AWB_BUILDER_COMMAND_LINE_HPP_

namespace awb::builder {

// Options, each followed by its value. The builder's stdout and stderr are the host's capped
// log pipe; stdin is /dev/null.
namespace option {
inline constexpr const char* kSource = "--source";  // the project to build (required)
inline constexpr const char* kBuild = "--build";    // the build folder (required, writable)
inline constexpr const char* kSdk = "--sdk";        // the SDK's prefix, read-only (required)
inline constexpr const char* kParent = "--parent";  // pid that must stay its parent
inline constexpr const char* kUid = "--uid";        // as root: the uid to drop to
inline constexpr const char* kCpuSeconds = "--cpu-seconds";  // CPU rlimit of each process
inline constexpr const char* kMemoryMb = "--memory-mb";      // address space of each process
inline constexpr const char* kFileMb = "--file-mb";          // largest file it may write
inline constexpr const char* kProcesses = "--processes";     // processes of its uid at once
inline constexpr const char* kJobs = "--jobs";               // parallel compile jobs
}  // namespace option

// Exit statuses of awb-builder itself (a build step that fails exits with kStepFailed).
inline constexpr int kBuilt = 0;
inline constexpr int kStepFailed = 1;
inline constexpr int kUsage = 2;
inline constexpr int kSandboxFailed = 3;  // the sandbox could not be set up: nothing ran

}  // namespace awb::builder

#endif  // AWB_BUILDER_COMMAND_LINE_HPP_
