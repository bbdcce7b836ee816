// regular_file.hpp: reading a file awb is given (an exercise, an assignment, a baseline, a CSV)
// only when it is a regular file, and only up to a cap: a FIFO or a device never blocks a run, and
// a huge file never fills the memory.
#ifndef AWB_CORE_BASE_REGULAR_FILE_HPP_
#define AWB_CORE_BASE_REGULAR_FILE_HPP_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

namespace awb::core {

// The whole of `file` when it is a regular file (or a link to one) of at most `max_bytes`. A FIFO,
// socket, device or folder is refused without being read (a device is not even opened). Throws
// awb::Error with the id <id_prefix>.io (cannot open or read it), <id_prefix>.not_a_file or
// <id_prefix>.too_large, located at the file.
// What a file of `mode` is, as messages say it: "a FIFO (named pipe)", "a character device", ...
std::string kind_of(mode_t mode);

std::string read_regular_file(const std::filesystem::path& file, size_t max_bytes,
                              const std::string& id_prefix);

// The same checks for a file read piece by piece (an array of data, an archive): a descriptor
// open for reading (the caller closes it) and the file's size. Throws <id_prefix>.io or
// <id_prefix>.not_a_file as above.
struct OpenRegularFile {
  int fd = -1;
  uint64_t size = 0;
};
OpenRegularFile open_regular_file(const std::filesystem::path& file, const std::string& id_prefix);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_REGULAR_FILE_HPP_
