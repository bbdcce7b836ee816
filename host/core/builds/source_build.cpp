// source_build.cpp: one source submission built in awb-builder, watched (wall clock, output,
// disk), its plugins and log kept in the build cache under the tree's key.
#include "core/builds/source_build.hpp"

#include <awb/awb_plugin.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <optional>
#include <sstream>
#include <vector>

#include "builder/command_line.hpp"
#include "core/base/atomic_file.hpp"
#include "core/base/bounded_read.hpp"
#include "core/base/install_paths.hpp"
#include "core/base/sha256.hpp"
#include "core/base/temp_folder.hpp"
#include "core/base/test_fault.hpp"
#include "core/base/version.hpp"
#include "core/builds/source_tree.hpp"
#include "core/runner_client/runner_spawn.hpp"
#include "core/runner_client/unique_fd.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

// A build being stored: .staging-PID-NS-XXXXXX in the cache, renamed to its key when whole.
constexpr const char* kStagingPrefix = ".staging-";

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

// Part of every key: a change to how submissions are built builds them all again.
constexpr const char* kRecipe =
    "cmake -G Ninja, RelWithDebInfo at -g1, the build folder mapped to /awb-build, awb-builder 3";
constexpr size_t kLogKeptBytes = 256 << 10;  // of the output, kept in build.log
constexpr int kErrorLines = 20;

fs::path builder_executable() {
  return shipped_path(fs::path(AWB_BUILD_TREE_BIN_DIR) / "awb-builder", "bin/awb-builder");
}

// The SDK as installed: the build tree keeps an installed copy of its own (sdk/CMakeLists.txt).
fs::path sdk_prefix() { return shipped_path(AWB_BUILD_TREE_SDK_PREFIX, ""); }

// The disk a folder takes (allocated blocks), without following links.
uint64_t disk_bytes(const fs::path& folder) {
  uint64_t total = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) == 0) total += static_cast<uint64_t>(st.st_blocks) * 512;
  }
  return total;
}

// The outcome file of a cache entry: "built" or "failed", the reason, then the errors.
void write_outcome(const fs::path& file, const BuildOutcome& o) {
  write_file_atomic(file,
                    std::string(o.built ? "built" : "failed") + "\n" + o.reason + "\n" + o.errors);
}

// The outcome file holds a status, a reason and the first compiler errors: kilobytes.
constexpr std::uintmax_t kOutcomeMaxBytes = std::uintmax_t{4} << 20;

bool read_outcome(const fs::path& entry, BuildOutcome& o) {
  // Read only as a small regular file: a FIFO put in its place must not hang the batch.
  std::optional<std::string> text;
  try {
    text = read_bounded_file(entry / "outcome", kOutcomeMaxBytes, "a build's outcome");
  } catch (const Error&) {
    return false;
  }
  if (!text) return false;
  std::istringstream in(*text);
  std::string status;
  if (!std::getline(in, status) || (status != "built" && status != "failed")) return false;
  o.built = status == "built";
  std::getline(in, o.reason);
  std::ostringstream rest;
  rest << in.rdbuf();
  o.errors = rest.str();
  o.plugins = entry / "plugins";
  o.log = entry / "build.log";
  return true;
}

// What the builder's run came to, as the host watched it.
struct Watched {
  int status = 0;
  std::string stopped;  // set when the host stopped it, and why
  std::string log;      // the first kLogKeptBytes of its output
};

// As root, every process of the build's uid ends: where the kernel gave the builder no PID
// namespace, a process of the build that left its session would otherwise outlive it. A child of
// ours becomes that uid (nothing else runs as it) and signals everything it may.
void end_processes_of(uid_t uid) {
  if (uid == 0 || ::geteuid() != 0) return;
  const pid_t killer = ::fork();
  if (killer == 0) {
    if (::setgid(uid) == 0 && ::setuid(uid) == 0) ::kill(-1, SIGKILL);
    ::_exit(0);
  }
  if (killer > 0) ::waitpid(killer, nullptr, 0);
}

Watched watch_builder(const std::vector<std::string>& args, uid_t uid, const fs::path& build_dir,
                      const BuildLimits& limits,
                      const std::function<void(const std::string&)>& progress) {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0)
    throw Error("build.sandbox_failed", "pipe: " + std::string(std::strerror(errno)));
  UniqueFd read_end(fds[0]), write_end(fds[1]);
  pid_t pid = 0;
  const int rc = spawn_sandboxed(args, {{write_end.get(), 1}, {write_end.get(), 2}}, pid);
  write_end.reset();
  if (rc != 0)
    throw Error("build.sandbox_failed", args.front(),
                "cannot start: " + std::string(std::strerror(rc)));

  Watched w;
  const auto start = Clock::now();
  auto last_disk_check = start;
  uint64_t printed = 0;
  std::string pending;                      // a line not yet ended, for `progress`
  std::optional<Clock::time_point> exited;  // when the builder was reaped
  auto stop = [&](std::string why) {
    if (exited) return;  // reaped: its pid may be another process's by now
    if (w.stopped.empty()) w.stopped = std::move(why);
    ::kill(-pid, SIGKILL);  // its session; the PID namespace inside dies with the builder
    ::kill(pid, SIGKILL);
  };
  // Until every writer of the pipe is gone (the builder and all it started), or, should a
  // process of the build outlive the builder and keep the pipe open, a second after it exited.
  while (!exited || Clock::now() - *exited < std::chrono::seconds(1)) {
    if (!exited && ::waitpid(pid, &w.status, WNOHANG) == pid) exited = Clock::now();
    pollfd p{read_end.get(), POLLIN, 0};
    const int ready = ::poll(&p, 1, 200);
    if (ready > 0) {
      char buf[16384];
      const ssize_t n = ::read(read_end.get(), buf, sizeof buf);
      if (n == 0) break;  // every writer is gone: the builder and all it started
      if (n > 0) {
        printed += static_cast<uint64_t>(n);
        if (w.log.size() < kLogKeptBytes)
          w.log.append(buf, std::min<size_t>(static_cast<size_t>(n), kLogKeptBytes - w.log.size()));
        if (progress) {
          pending.append(buf, static_cast<size_t>(n));
          for (size_t nl; (nl = pending.find('\n')) != std::string::npos; pending.erase(0, nl + 1))
            progress(pending.substr(0, nl));
          if (pending.size() > 4096) pending.clear();
        }
        if (printed > static_cast<uint64_t>(limits.output_kb) << 10)
          stop("build stopped: it printed more than " + std::to_string(limits.output_kb) + " KiB");
      }
    }
    const auto now = Clock::now();
    if (now - start > std::chrono::duration<double>(limits.wall_seconds))
      stop("build stopped: it ran past the wall-clock limit of " +
           std::to_string(static_cast<long>(limits.wall_seconds)) + " s");
    if (now - last_disk_check > std::chrono::milliseconds(500)) {
      last_disk_check = now;
      if (disk_bytes(build_dir) > static_cast<uint64_t>(limits.disk_mb) << 20)
        stop("build stopped: its folder grew past " + std::to_string(limits.disk_mb) + " MiB");
    }
  }
  if (!exited) ::waitpid(pid, &w.status, 0);  // the pipe closes as the builder exits
  forget_runner(pid);
  end_processes_of(uid);
  return w;
}

// The builder's last words ("awb-builder: build failed: cmake exited with status 1").
std::string builder_verdict(const std::string& log) {
  const std::string tag = "awb-builder: ";
  std::string last;
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(tag, 0) == 0 && line.rfind(tag + "==", 0) != 0) last = line.substr(tag.size());
  return last;
}

// The plugins the project built: awb_add_plugin writes them to <build>/plugins; a project of
// its own making may put them anywhere in its build folder.
std::vector<fs::path> built_plugins(const fs::path& binary) {
  std::vector<fs::path> out;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(binary, ec), end; !ec && it != end; it.increment(ec)) {
    if (it->path().filename() == "CMakeFiles") it.disable_recursion_pending();
    if (it->path().extension() == ".so" && fs::is_regular_file(it->symlink_status(ec)))
      out.push_back(it->path());
  }
  return out;
}

// A built plugin copied into the cache with the mode awb chooses, 0755 (never the build's: a
// project may make a set-user-ID file, which awb's copy as root would turn into a root shell
// for whoever may later read the results). The copy is made from the file's bytes, opened
// without following a link, into a new file created 0700 and only then opened up.
void copy_built_plugin(const fs::path& from, const fs::path& to) {
  auto fail = [&](const char* what) {
    throw Error("io.write", to.string(), std::string(what) + ": " + std::strerror(errno));
  };
  UniqueFd in(::open(from.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC));
  if (in.get() < 0) fail("open the built plugin");
  UniqueFd out(::open(to.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0700));
  if (out.get() < 0) fail("create");
  char buf[1 << 16];
  for (ssize_t n; (n = ::read(in.get(), buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("read the built plugin");
    for (ssize_t done = 0; done < n;) {
      const ssize_t w = ::write(out.get(), buf + done, static_cast<size_t>(n - done));
      if (w < 0 && errno != EINTR) fail("write");
      if (w > 0) done += w;
    }
  }
  if (::fchmod(out.get(), 0755) != 0) fail("fchmod");
}

std::vector<std::string> builder_arguments(const fs::path& work, const BuildLimits& l, uid_t uid) {
  namespace option = builder::option;
  std::vector<std::string> args = {builder_executable().string(),
                                   option::kSource,
                                   (work / "src").string(),
                                   option::kBuild,
                                   work.string(),
                                   option::kSdk,
                                   sdk_prefix().string(),
                                   option::kParent,
                                   std::to_string(::getpid()),
                                   option::kCpuSeconds,
                                   std::to_string(l.cpu_seconds),
                                   option::kMemoryMb,
                                   std::to_string(l.memory_mb),
                                   option::kFileMb,
                                   std::to_string(l.disk_mb),
                                   option::kProcesses,
                                   std::to_string(l.processes),
                                   option::kJobs,
                                   std::to_string(l.jobs)};
  if (uid != 0) {
    args.push_back(option::kUid);
    args.push_back(std::to_string(uid));
  }
  return args;
}

// A private folder for the sandbox, where its uid can reach it (the cache may sit in a folder
// only we may enter): the copy of the sources (src/) and the build (cmake/).
fs::path make_work_folder() {
  const auto work = make_temp_folder("awb-build-");
  if (!work) throw Error("build.sandbox_failed", std::string("mkdtemp: ") + std::strerror(errno));
  return *work;
}

// Builds in a work folder (removed after) into `staging`: the outcome, build.log and plugins/.
void build_in(const fs::path& source, const fs::path& staging, const BuildLimits& limits,
              const std::function<void(const std::string&)>& progress) {
  const fs::path work = make_work_folder();
  struct RemoveWork {
    fs::path path;
    ~RemoveWork() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  } remove_work{work};
  copy_source_tree(source, work / "src");
  become_subreaper();
  const uid_t uid = ::geteuid() == 0 ? next_sandbox_uid() : 0;
  const Watched w =
      watch_builder(builder_arguments(work, limits, uid), uid, work, limits, progress);
  BuildOutcome o;
  const std::string verdict = builder_verdict(w.log);
  const bool exited = WIFEXITED(w.status);
  if (w.stopped.empty() && exited && WEXITSTATUS(w.status) == builder::kSandboxFailed)
    throw Error("build.sandbox_failed", builder_executable().string(), verdict);
  if (w.stopped.empty() && exited && WEXITSTATUS(w.status) == builder::kUsage)
    throw Error("build.sandbox_failed", builder_executable().string(), "usage: " + w.log);
  write_file_atomic(staging / "build.log", w.log);
  std::error_code ec;
  fs::create_directories(staging / "plugins", ec);
  if (!w.stopped.empty()) {
    o.reason = w.stopped;
  } else if (!exited || WEXITSTATUS(w.status) != builder::kBuilt) {
    o.reason = "build failed: " + (verdict.empty() ? std::string("awb-builder ended") : verdict);
    // A compiler that ran out of memory exits with status 1 like any failed compile.
    if (log_shows_out_of_memory(w.log))
      o.reason = "build failed: the compiler ran out of memory (the build's memory limit is " +
                 std::to_string(limits.memory_mb) + " MB)";
  } else {
    for (const fs::path& so : built_plugins(work / "cmake")) {
      const fs::path to = staging / "plugins" / so.filename();
      fs::remove(to, ec);  // two plugins of one name in different folders: the last one stands
      copy_built_plugin(so, to);
    }
    o.built = !fs::is_empty(staging / "plugins", ec);
    if (!o.built)
      o.reason = "build failed: the project built no plugin (*.so); awb_add_plugin() makes one";
  }
  if (!o.built) o.errors = first_build_errors(w.log, work.string(), kErrorLines);
  write_outcome(staging / "outcome", o);
}

// The test hook's full disk as the Nth build is stored (core/base/test_fault.hpp); errno set.
bool store_fails() {
  static std::atomic<long> stores{0};
  const TestFault& f = test_fault();
  if (f.kind != "enospc-at-build-store" || ++stores != f.n) return false;
  errno = ENOSPC;
  return true;
}

}  // namespace

std::string sdk_version_text() {
  return std::to_string(AWB_ABI_MAJOR) + "." + std::to_string(AWB_ABI_MINOR);
}

std::string build_key(const fs::path& source, const BuildLimits& limits) {
  const std::string tree =
      source_tree_digest(source, static_cast<uint64_t>(limits.source_mb) << 20);
  return sha256_hex(tree + "\nawb " + AWB_VERSION + "\nsdk " + sdk_version_text() + "\n" + kRecipe);
}

BuildOutcome build_source(const fs::path& source, const fs::path& cache, const BuildLimits& limits,
                          const std::function<void(const std::string&)>& progress) {
  const auto t0 = Clock::now();
  BuildOutcome o;
  try {
    o.key = build_key(source, limits);
  } catch (const Error& e) {
    if (e.id() != "build.source_too_large") throw;
    o.reason = "build refused: " + e.message();
    return o;
  }
  // What an awb killed while it built here left (its staging folder), whether or not this build
  // is cached.
  remove_stale_once(cache, kStagingPrefix);
  const fs::path entry = cache / o.key;
  if (read_outcome(entry, o)) {
    o.cached = true;
    return o;
  }
  std::error_code ec;
  fs::create_directories(cache, ec);
  if (ec) throw Error("io.write", cache.string(), "cannot create the build cache: " + ec.message());
  // Named for its awb process, so that one killed while it built (whose staging folder stayed)
  // is swept by the next build into this cache.
  const std::optional<fs::path> staged = make_owned_folder(cache, kStagingPrefix);
  if (!staged)
    throw Error("io.write", cache.string(), std::string("mkdtemp: ") + std::strerror(errno));
  const fs::path staging = *staged;
  try {
    build_in(source, staging, limits, progress);
  } catch (...) {
    fs::remove_all(staging, ec);
    throw;
  }
  // Folders as awb makes them, whatever the umask (mkdtemp made the staging folder 0700).
  for (const fs::path& dir : {staging, staging / "plugins"}) {
    fs::permissions(dir, fs::perms(0755), fs::perm_options::replace, ec);
    if (ec) {
      fs::remove_all(staging, ec);
      throw Error("io.write", dir.string(), "cannot set the folder's mode: " + ec.message());
    }
  }
  if (store_fails()) {
    const int why = errno;
    fs::remove_all(staging, ec);
    throw Error("io.write", entry.string(),
                std::string("cannot store the build in the cache: ") + std::strerror(why));
  }
  // Published whole by one rename; when another worker built the same tree first, its entry
  // stands and ours goes.
  fs::rename(staging, entry, ec);
  if (ec) fs::remove_all(staging, ec);
  fsync_folder(cache);
  if (!read_outcome(entry, o))
    throw Error("io.read", entry.string(), "the build cache entry cannot be read back");
  o.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  return o;
}

std::string build_failure_text(const BuildOutcome& o) {
  return o.errors.empty() ? o.reason : o.reason + "\n" + o.errors;
}

}  // namespace awb::core
