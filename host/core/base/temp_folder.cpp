// temp_folder.cpp: PREFIX-PID-XXXXXX folders, and sweeping those of processes that are gone.
#include "core/base/temp_folder.hpp"

#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <set>

namespace awb::core {

namespace fs = std::filesystem;

void remove_stale_temp_folders(const fs::path& dir, const std::string& prefix) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!name.starts_with(prefix)) continue;
    const std::string rest = name.substr(prefix.size());
    const size_t dash = rest.find('-');
    if (dash == 0 || dash == std::string::npos || rest.size() != dash + 7 ||
        !std::all_of(rest.begin(), rest.begin() + static_cast<long>(dash), ::isdigit))
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
  std::string path = (temp / (prefix + std::to_string(::getpid()) + "-XXXXXX")).string();
  if (::mkdtemp(path.data()) == nullptr) return std::nullopt;
  return path;
}

}  // namespace awb::core
