// regular_file.cpp: stat, open without blocking, fstat again, read at most the cap.
#include "core/base/regular_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>

#include "graders/model/error.hpp"

namespace awb::core {

std::string kind_of(mode_t mode) {
  if (S_ISLNK(mode)) return "a symbolic link";
  if (S_ISDIR(mode)) return "a folder";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

namespace {

// Closes the descriptor on every path out.
struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

std::string size_text(size_t bytes) {
  return bytes >= (size_t(1) << 20) ? std::to_string(bytes >> 20) + " MiB"
                                    : std::to_string(bytes) + " bytes";
}

}  // namespace

OpenRegularFile open_regular_file(const std::filesystem::path& file, const std::string& id_prefix) {
  const std::string label = file.string();
  auto fail = [&](const std::string& id, const std::string& message) {
    return Error(id_prefix + "." + id, label, message);
  };
  // stat first, so a device is never opened (opening some has side effects); fstat after the
  // open, in case the path changed in between. O_NONBLOCK: opening a FIFO cannot wait for a
  // writer.
  struct stat st {};
  if (::stat(label.c_str(), &st) != 0)
    throw fail("io", std::string("cannot open the file: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    throw fail("not_a_file", "is " + kind_of(st.st_mode) + "; only a regular file is read");
  Fd in{::open(label.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)};
  if (in.fd < 0) throw fail("io", std::string("cannot open the file: ") + std::strerror(errno));
  if (::fstat(in.fd, &st) != 0 || !S_ISREG(st.st_mode))
    throw fail("not_a_file", "is " + kind_of(st.st_mode) + "; only a regular file is read");
  OpenRegularFile out{in.fd, uint64_t(st.st_size)};
  in.fd = -1;
  return out;
}

std::string read_regular_file(const std::filesystem::path& file, size_t max_bytes,
                              const std::string& id_prefix) {
  const std::string label = file.string();
  auto fail = [&](const std::string& id, const std::string& message) {
    return Error(id_prefix + "." + id, label, message);
  };
  const OpenRegularFile opened = open_regular_file(file, id_prefix);
  Fd in{opened.fd};
  const auto too_large = [&](uint64_t size) {
    return fail("too_large", "the file is " + std::to_string(size) + " bytes; the cap is " +
                                 size_text(max_bytes));
  };
  if (opened.size > max_bytes) throw too_large(opened.size);
  // Read at most one byte more than the cap: a file that grew since fstat is still refused.
  std::string text(size_t(opened.size) + 1, '\0');
  size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (text.size() > max_bytes) throw too_large(text.size());
      text.resize(std::min(text.size() * 2, max_bytes + 1));
    }
    const ssize_t n = ::read(in.fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw fail("io", std::string("cannot read the file: ") + std::strerror(errno));
    if (n == 0) break;
    got += size_t(n);
  }
  text.resize(got);
  return text;
}

}  // namespace awb::core
