// temp_folder.cpp: PREFIX-PID-NS-XXXXXX folders, and sweeping those of processes that are gone.
#include "core/base/temp_folder.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string_view>
#include <vector>

namespace awb::core {

namespace fs = std::filesystem;

namespace {

// This process's PID namespace (the inode /proc/self/ns/pid names; 0 when unknown), read once:
// a pid says whether a process is gone only within its namespace, and containers may share a /tmp.
const std::string& pid_namespace() {
  static const std::string ns = [] {
    std::error_code ec;
    const std::string link = fs::read_symlink("/proc/self/ns/pid", ec).string();  // pid:[N]
    const size_t open = link.find('['), close = link.find(']');
    if (ec || open == std::string::npos || close == std::string::npos || close <= open + 1)
      return std::string("0");
    return link.substr(open + 1, close - open - 1);
  }();
  return ns;
}

// A folder's name may hold any byte: ::isdigit of a negative char is undefined.
bool all_digits(const std::string& s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](unsigned char c) { return c >= '0' && c <= '9'; });
}

// Removes `name` in the folder open as `parent`, and all it holds, without following a link: each
// folder is opened relative to its parent with O_NOFOLLOW, so a link (even one swapped in for a
// folder while the tree is removed, by a process of the sandbox's uid) is itself unlinked and
// never leads out of the temporary folder. Deeper than kMaxDepth is left alone (a tree built to
// exhaust the stack stays, as it would have before).
constexpr int kMaxDepth = 256;

void remove_tree_at(int parent, const std::string& name, int depth) {
  if (::unlinkat(parent, name.c_str(), 0) == 0 || errno != EISDIR || depth > kMaxDepth) return;
  const int fd = ::openat(parent, name.c_str(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (fd < 0) return;
  DIR* d = ::fdopendir(fd);
  if (d == nullptr) {
    ::close(fd);
    return;
  }
  std::vector<std::string> names;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view n = e->d_name;
    if (n != "." && n != "..") names.emplace_back(n);
  }
  for (const std::string& n : names) remove_tree_at(::dirfd(d), n, depth + 1);
  ::closedir(d);
  ::unlinkat(parent, name.c_str(), AT_REMOVEDIR);
}

}  // namespace

void remove_stale_temp_folders(const fs::path& dir, const std::string& prefix) {
  const std::string& ns = pid_namespace();
  const int root = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (root < 0) return;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    // PREFIX-PID-NS-XXXXXX
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string rest = name.substr(prefix.size());
    const size_t d1 = rest.find('-');
    const size_t d2 = d1 == std::string::npos ? d1 : rest.find('-', d1 + 1);
    if (d2 == std::string::npos || rest.size() != d2 + 7 || !all_digits(rest.substr(0, d1)) ||
        rest.substr(d1 + 1, d2 - d1 - 1) != ns)
      continue;
    // As root, a folder is the sandbox's once its uid dropped to it (the builder's and the
    // runner's files are the sandbox uid's), so whose it is says nothing: root removes it all the
    // same. Anyone else removes only their own.
    struct stat st {};
    if (::fstatat(root, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0 || !S_ISDIR(st.st_mode) ||
        (st.st_uid != ::geteuid() && ::geteuid() != 0))
      continue;
    const long pid = std::strtol(rest.c_str(), nullptr, 10);
    if (pid <= 0 || pid > INT32_MAX) continue;
    // kill(PID, 0): ESRCH only when no process has that pid (EPERM: one of another user's).
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    remove_tree_at(root, name, 0);
  }
  ::close(root);
}

void remove_stale_once(const fs::path& dir, const std::string& prefix) {
  static std::mutex mutex;
  static std::set<std::string> swept;  // "DIR\0PREFIX": each swept once a process
  std::lock_guard lock(mutex);
  if (swept.insert(dir.string() + '\0' + prefix).second) remove_stale_temp_folders(dir, prefix);
}

std::optional<fs::path> make_owned_folder(const fs::path& dir, const std::string& prefix) {
  remove_stale_once(dir, prefix);
  std::string path =
      (dir / (prefix + std::to_string(::getpid()) + "-" + pid_namespace() + "-XXXXXX")).string();
  if (::mkdtemp(path.data()) == nullptr) return std::nullopt;
  return path;
}

std::optional<fs::path> make_temp_folder(const std::string& prefix) {
  std::error_code ec;
  const fs::path temp = fs::temp_directory_path(ec);
  // A TMPDIR that is no folder gives an empty path: the folder would be made in the current one.
  if (ec || temp.empty()) {
    errno = ec ? ec.value() : ENOENT;
    return std::nullopt;
  }
  return make_owned_folder(temp, prefix);
}

}  // namespace awb::core
