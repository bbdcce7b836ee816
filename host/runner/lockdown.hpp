// lockdown.hpp: the steps awb-runner takes, in order, before it loads the plugin.
#ifndef AWB_RUNNER_LOCKDOWN_HPP_
#define AWB_RUNNER_LOCKDOWN_HPP_

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "runner/landlock.hpp"
#include "runner/protocol.hpp"

namespace awb::runner {

struct LockdownConfig {
  Isolation target = Isolation::kConfined;  // stop after this level
  Isolation minimum = Isolation::kProcess;  // below it the plugin is not loaded at all
  pid_t parent = 0;                         // exit at once if the parent is not this process
  double cpu_seconds = 10;                  // soft limit; the hard limit is one second above
  int64_t memory_mb = 1024;                 // address space; 0 = no limit (sanitizer builds)
  int64_t file_mb = 16;                     // largest file the plugin may write
  int64_t open_files = 64;
  uid_t uid = 0;            // when started as root: the uid to drop to
  std::string plugin_dir;   // read-only under Landlock
  std::string scratch_dir;  // read-write under Landlock, the working folder
};

struct LockdownReport {
  Isolation reached = Isolation::kProcess;
  std::vector<std::string> notes;  // what was skipped and why
};

// Applies rlimits → uid drop (as root) → parent-death signal + parent check → namespaces (best
// effort) → no-new-privs → Landlock → seccomp, stopping at `config.target`. A step that fails
// leaves the level at the one below it; later steps still run where they add protection.
LockdownReport lock_down(const LockdownConfig& config);

// The seccomp step (allowlist). False with `why` when the filter could not be loaded.
// `writable_files`: Landlock already confines writes to the scratch folder; otherwise files
// may only be opened for reading.
bool apply_seccomp(std::string& why, bool writable_files);
// Compiles the allowlist once for every process forked from this one afterwards (the zygote):
// apply_seccomp() then only writes its pid into the program and loads it, instead of building
// and compiling the filter again (about a millisecond). Where the compiled programs cannot be
// told apart by their pid alone, nothing is prepared and apply_seccomp() compiles as before.
void prepare_seccomp();

}  // namespace awb::runner

#endif  // AWB_RUNNER_LOCKDOWN_HPP_
