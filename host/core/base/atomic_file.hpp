// atomic_file.hpp: writing a file so that readers see the old content or the new, never half.
#ifndef AWB_CORE_BASE_ATOMIC_FILE_HPP_
#define AWB_CORE_BASE_ATOMIC_FILE_HPP_

#include <filesystem>
#include <string_view>

namespace awb::core {

// Writes to a temporary file beside `path`, fsyncs it, renames it over `path`, then fsyncs the
// folder. Throws awb::Error("io.write") naming the step that failed; `path` is then untouched.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// fsyncs a folder, so that names created, renamed or removed in it are durable. Best effort:
// a folder that cannot be opened is left as it is.
void fsync_folder(const std::filesystem::path& dir);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_ATOMIC_FILE_HPP_
