// atomic_file.hpp: writing a file so that readers see the old content or the new, never half.
#ifndef AWB_CORE_BASE_ATOMIC_FILE_HPP_
#define AWB_CORE_BASE_ATOMIC_FILE_HPP_

#include <filesystem>
#include <string_view>

namespace awb::core {

// Writes to a temporary file beside `path`, fsyncs it, renames it over `path`, then fsyncs the
// folder. Throws awb::Error("io.write") naming the step that failed; `path` is then untouched.
// Only a regular file is replaced: a symbolic link is followed to the regular file it names (that
// file is replaced, the link stays), and a device, FIFO, socket, folder or a link to any of them
// or to nothing throws awb::Error("io.not_regular") before anything is written.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);

// Where write_file_atomic(path) writes: `path` when it is a regular file or absent, the regular
// file a link names; throws awb::Error("io.not_regular") otherwise.
std::filesystem::path writable_target(const std::filesystem::path& path);

// fsyncs a folder, so that names created, renamed or removed in it are durable. Best effort:
// a folder that cannot be opened is left as it is.
void fsync_folder(const std::filesystem::path& dir);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_ATOMIC_FILE_HPP_
