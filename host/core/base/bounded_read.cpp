// bounded_read.cpp: open with O_NOFOLLOW | O_NONBLOCK, fstat, then read at most the cap.
#include "core/base/bounded_read.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/base/regular_file.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

std::string mib(std::uintmax_t bytes) { return std::to_string(bytes >> 20) + " MiB"; }

}  // namespace

int open_bounded(const std::filesystem::path& path, int flags, std::uintmax_t max_bytes,
                 const std::string& what, unsigned mode) {
  const int fd = ::open(path.c_str(), flags | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, mode);
  if (fd < 0) {
    if (errno == ELOOP)
      throw Error("io.not_regular", path.string(),
                  what + " is a symbolic link: awb reads only the regular files it wrote");
    return -1;
  }
  try {
    check_bounded_fd(fd, path, max_bytes, what);
  } catch (...) {
    ::close(fd);
    throw;
  }
  return fd;
}

void check_bounded_fd(int fd, const std::filesystem::path& path, std::uintmax_t max_bytes,
                      const std::string& what) {
  struct stat st {};
  if (::fstat(fd, &st) != 0)
    throw Error("io.read", path.string(), "cannot stat " + what + ": " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw Error("io.not_regular", path.string(),
                what + " is " + kind_of(st.st_mode) +
                    ", not a regular file: awb reads only the regular files it wrote");
  if (static_cast<std::uintmax_t>(st.st_size) > max_bytes)
    throw Error("io.too_large", path.string(),
                what + " is " + mib(static_cast<std::uintmax_t>(st.st_size)) +
                    ", over awb's limit of " + mib(max_bytes) + " for it");
}

std::optional<std::string> read_bounded_file(const std::filesystem::path& path,
                                             std::uintmax_t max_bytes, const std::string& what) {
  const int fd = open_bounded(path, O_RDONLY, max_bytes, what);
  if (fd < 0) {
    if (errno == ENOENT) return std::nullopt;
    throw Error("io.read", path.string(), "cannot open " + what + ": " + std::strerror(errno));
  }
  std::string text;
  try {
    char buf[1 << 16];
    for (;;) {
      const ssize_t n = ::read(fd, buf, sizeof buf);
      if (n < 0 && errno == EINTR) continue;
      if (n < 0)
        throw Error("io.read", path.string(), "cannot read " + what + ": " + std::strerror(errno));
      if (n == 0) break;
      if (text.size() + static_cast<size_t>(n) > max_bytes)
        throw Error("io.too_large", path.string(),
                    what + " grew past awb's limit of " + mib(max_bytes) + " while read");
      text.append(buf, static_cast<size_t>(n));
    }
  } catch (...) {
    ::close(fd);
    throw;
  }
  ::close(fd);
  return text;
}

}  // namespace awb::core
