// temp_folder.cpp: PREFIX-PID-NS-XXXXXX folders, and sweeping those of processes that are gone.
#include "core/base/temp_folder.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>

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

}  // namespace

void remove_stale_temp_folders(const fs::path& dir, const std::string& prefix) {
  const std::string& ns = pid_namespace();
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
    struct stat st {};
    if (::lstat(entry.path().c_str(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid())
      continue;
    const long pid = std::strtol(rest.c_str(), nullptr, 10);
    if (pid <= 0 || pid > INT32_MAX) continue;
    // kill(PID, 0): ESRCH only when no process has that pid (EPERM: one of another user's).
    if (::kill(static_cast<pid_t>(pid), 0) == 0 || errno != ESRCH) continue;
    fs::remove_all(entry.path(), ec);
  }
}

std::optional<fs::path> make_temp_folder(const std::string& prefix) {
  std::error_code ec;
  const fs::path temp = fs::temp_directory_path(ec);
  {
    static std::mutex mutex;
    static std::set<std::string> swept;
    std::lock_guard lock(mutex);
    if (swept.insert(prefix).second) remove_stale_temp_folders(temp, prefix);
  }
  std::string path =
      (temp / (prefix + std::to_string(::getpid()) + "-" + pid_namespace() + "-XXXXXX")).string();
  if (::mkdtemp(path.data()) == nullptr) return std::nullopt;
  return path;
}

}  // namespace awb::core
