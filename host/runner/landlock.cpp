// landlock.cpp: the file-system (and, where the kernel has it, network and scope) ruleset.
// Debian 12's kernel headers stop at Landlock ABI 2, so the newer constants are defined here and
// used only when the running kernel reports the matching ABI.
#include "runner/landlock.hpp"

#include <fcntl.h>
#include <linux/landlock.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

namespace awb::runner {
namespace {

// ABI 3 to 6, from the kernel's uapi header.
constexpr uint64_t kFsTruncate = 1ULL << 14;        // ABI 3
constexpr uint64_t kFsIoctlDev = 1ULL << 15;        // ABI 5
constexpr uint64_t kNetBindTcp = 1ULL << 0;         // ABI 4
constexpr uint64_t kNetConnectTcp = 1ULL << 1;      // ABI 4
constexpr uint64_t kScopeAbstractUnix = 1ULL << 0;  // ABI 6
constexpr uint64_t kScopeSignal = 1ULL << 1;        // ABI 6

// The ruleset attribute as of ABI 6; the kernel takes the size we pass for the ABI we target.
struct RulesetAttr {
  uint64_t handled_access_fs;
  uint64_t handled_access_net;
  uint64_t scoped;
};

constexpr uint64_t kFsRead =
    LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR;
constexpr uint64_t kFsAllAbi1 = (1ULL << 13) - 1;  // EXECUTE .. MAKE_SYM

uint64_t fs_rights(int abi) {
  uint64_t r = kFsAllAbi1;
  if (abi >= 2) r |= LANDLOCK_ACCESS_FS_REFER;
  if (abi >= 3) r |= kFsTruncate;
  if (abi >= 5) r |= kFsIoctlDev;
  return r;
}

// Rights that apply to a regular file (the kernel refuses directory rights on a file rule).
uint64_t file_only(uint64_t rights) {
  return rights & (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |
                   LANDLOCK_ACCESS_FS_READ_FILE | kFsTruncate | kFsIoctlDev);
}

}  // namespace

std::vector<PathRule> open_path_rules(const std::vector<std::string>& read_only,
                                      const std::vector<std::string>& read_write) {
  // System libraries the loader and the C++ runtime read; /etc only for the loader's cache.
  std::vector<std::string> ro = {
      "/usr",      "/lib",     "/lib64", "/lib32", "/etc/ld.so.cache", "/sys/devices/system/cpu",
      "/dev/null", "/dev/zero"};
#if defined(AWB_SANITIZED)
  ro.push_back("/proc");  // the sanitizer runtimes read /proc/self/maps
#endif
  ro.insert(ro.end(), read_only.begin(), read_only.end());
  std::vector<PathRule> rules;
  auto add = [&](const std::string& path, bool writable) {
    if (path.empty()) return;
    const int fd = ::open(path.c_str(), O_PATH | O_CLOEXEC);
    if (fd < 0) return;
    struct stat st {};
    ::fstat(fd, &st);
    rules.push_back({fd, writable, S_ISDIR(st.st_mode)});
  };
  for (const auto& p : ro) add(p, false);
  for (const auto& p : read_write) add(p, true);
  return rules;
}

int apply_landlock(const std::vector<PathRule>& rules, std::string& why) {
  const long abi_long =
      ::syscall(SYS_landlock_create_ruleset, nullptr, 0, LANDLOCK_CREATE_RULESET_VERSION);
  if (abi_long < 1) {
    why = errno == ENOSYS || errno == EOPNOTSUPP ? "not supported by this kernel"
                                                 : std::strerror(errno);
    return 0;
  }
  const int abi = static_cast<int>(std::min<long>(abi_long, 6));
  RulesetAttr attr{fs_rights(abi), 0, 0};
  size_t attr_size = sizeof(uint64_t);
  if (abi >= 4) {
    attr.handled_access_net = kNetBindTcp | kNetConnectTcp;  // handled and never granted
    attr_size = 2 * sizeof(uint64_t);
  }
  if (abi >= 6) {
    attr.scoped = kScopeAbstractUnix | kScopeSignal;
    attr_size = sizeof(RulesetAttr);
  }
  const int ruleset = static_cast<int>(::syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0));
  if (ruleset < 0) {
    why = std::string("create_ruleset: ") + std::strerror(errno);
    return 0;
  }
  for (const PathRule& r : rules) {
    landlock_path_beneath_attr pb{};
    pb.parent_fd = r.fd;
    pb.allowed_access = r.writable ? fs_rights(abi) : kFsRead;
    if (!r.directory) pb.allowed_access = file_only(pb.allowed_access);
    if (::syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) != 0) {
      why = std::string("add_rule: ") + std::strerror(errno);
      ::close(ruleset);
      return 0;
    }
  }
  if (::syscall(SYS_landlock_restrict_self, ruleset, 0) != 0) {
    why = std::string("restrict_self: ") + std::strerror(errno);
    ::close(ruleset);
    return 0;
  }
  ::close(ruleset);
  for (const PathRule& r : rules) ::close(r.fd);
  if (abi < 4) why = "no network rules before ABI 4 (seccomp still forbids sockets)";
  return abi;
}

}  // namespace awb::runner
