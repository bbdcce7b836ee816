// bounded_read.hpp: reading a file awb keeps for itself (a journal, a cache, a manifest) only when
// it is a regular file of a sane size: a FIFO put in its place must not hang awb, and a link to
// /dev/zero must not be read until memory runs out. (A file a user gives awb is read by
// regular_file.hpp: that one follows a link to a regular file, as a user's path may be one; awb's
// own files are never links.)
#ifndef AWB_CORE_BASE_BOUNDED_READ_HPP_
#define AWB_CORE_BASE_BOUNDED_READ_HPP_

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

namespace awb::core {

// The content of `path`, opened without following a final link and without blocking (a FIFO
// does not wait for a writer), or nothing when the file does not exist. Throws
// awb::Error("io.not_regular") when it is a link, FIFO, device, socket or folder,
// awb::Error("io.too_large") when it is larger than `max_bytes` (or grows past it while read),
// awb::Error("io.read") when it cannot be read. `what` names the file in the message ("the
// journal").
std::optional<std::string> read_bounded_file(const std::filesystem::path& path,
                                             std::uintmax_t max_bytes, const std::string& what);

// Checks an open descriptor the same way (regular, at most `max_bytes`); throws as above.
void check_bounded_fd(int fd, const std::filesystem::path& path, std::uintmax_t max_bytes,
                      const std::string& what);

// open(2) of such a file: `flags` plus no final link, no wait on a FIFO, no leak to children;
// the file opened is then checked as above (closed before the throw). Returns -1 with errno set
// when open() fails, except for a final link: awb::Error("io.not_regular").
int open_bounded(const std::filesystem::path& path, int flags, std::uintmax_t max_bytes,
                 const std::string& what, unsigned mode = 0644);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_BOUNDED_READ_HPP_
