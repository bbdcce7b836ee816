// temp_folder.hpp: private folders in the temporary folder that an awb killed outright does not
// leave behind for good. Each is named PREFIX-PID-NS-XXXXXX (PID the awb that made it, NS its PID
// namespace); the first one a process makes with a prefix removes that prefix's folders of awb
// processes that are gone.
#ifndef AWB_CORE_BASE_TEMP_FOLDER_HPP_
#define AWB_CORE_BASE_TEMP_FOLDER_HPP_

#include <filesystem>
#include <optional>
#include <string>
#include <system_error>
#include <utility>

namespace awb::core {

// A fresh folder PREFIX-PID-NS-XXXXXX (mode 0700) in fs::temp_directory_path(); nothing (errno set)
// when it cannot be made. `prefix` ends with '-' ("awb-runner-").
std::optional<std::filesystem::path> make_temp_folder(const std::string& prefix);

// A folder removed, with everything in it, when this goes out of scope however the scope ends
// (a killed awb's folder goes with the next one's start: make_temp_folder).
struct RemovedOnExit {
  std::filesystem::path dir;
  explicit RemovedOnExit(std::filesystem::path d) : dir(std::move(d)) {}
  RemovedOnExit(const RemovedOnExit&) = delete;
  RemovedOnExit& operator=(const RemovedOnExit&) = delete;
  ~RemovedOnExit() {
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
  }
};

// remove_stale_temp_folders, once a process for each (dir, prefix).
void remove_stale_once(const std::filesystem::path& dir, const std::string& prefix);

// The same in `dir` (a build cache's staging folders), the stale ones there removed first
// (remove_stale_once).
std::optional<std::filesystem::path> make_owned_folder(const std::filesystem::path& dir,
                                                       const std::string& prefix);

// Removes the folders PREFIX-PID-NS-XXXXXX in `dir` that are this uid's (as root: whoever's, since
// the sandbox's uid owns what it wrote), of this process's PID namespace, and whose PID names no
// process there (SIGKILL, a cluster's time limit: their awb could not remove them). No link is
// followed, in `dir` or inside a folder removed. Anything else (a folder of a live process, of
// another namespace, as a container sharing /tmp would leave, or one named otherwise) is left
// alone.
void remove_stale_temp_folders(const std::filesystem::path& dir, const std::string& prefix);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_TEMP_FOLDER_HPP_
