// atomic_file.cpp: temp file + fsync + rename + fsync of the folder.
#include "core/base/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <string>

#include "core/base/regular_file.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

std::filesystem::path writable_target(const std::filesystem::path& path) {
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0) {
    if (errno == ENOENT) return path;
    throw Error("io.write", path.string(), std::string("lstat: ") + std::strerror(errno));
  }
  if (S_ISREG(st.st_mode)) return path;
  if (S_ISLNK(st.st_mode)) {
    std::error_code ec;
    const std::filesystem::path target = std::filesystem::canonical(path, ec);
    struct stat tst {};
    if (ec || ::stat(target.c_str(), &tst) != 0)
      throw Error("io.not_regular", path.string(),
                  "a symbolic link to nothing: awb replaces only a regular file (or a link to "
                  "one)");
    if (!S_ISREG(tst.st_mode))
      throw Error("io.not_regular", path.string(),
                  std::string("a symbolic link to ") + kind_of(tst.st_mode) + " (" +
                      target.string() + "): awb replaces only a regular file (or a link to one)");
    return target;
  }
  throw Error("io.not_regular", path.string(),
              kind_of(st.st_mode) + ": awb writes only regular files; give the path of a file");
}

void write_file_atomic(const std::filesystem::path& where, std::string_view content) {
  // A device, FIFO, socket or folder at the path is refused rather than renamed over (as root,
  // `--out /dev/null` would have replaced the system's /dev/null); a link to a regular file is
  // followed, so the file it names is what is replaced and the link stays.
  const std::filesystem::path path = writable_target(where);
  const std::filesystem::path dir = path.has_parent_path() ? path.parent_path() : ".";
  std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(tmpl.data());
  auto fail = [&](const char* step) {
    const std::string why = std::strerror(errno);
    if (fd >= 0) ::close(fd);
    ::unlink(tmpl.c_str());
    throw Error("io.write", path.string(), std::string(step) + ": " + why);
  };
  if (fd < 0)
    throw Error("io.write", path.string(), std::string("mkstemp: ") + std::strerror(errno));
  size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail("write");
    }
    done += static_cast<size_t>(n);
  }
  if (::fchmod(fd, 0644) != 0) fail("fchmod");
  if (::fsync(fd) != 0) fail("fsync");
  if (::close(fd) != 0) {
    ::unlink(tmpl.c_str());
    throw Error("io.write", path.string(), std::string("close: ") + std::strerror(errno));
  }
  if (::rename(tmpl.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    ::unlink(tmpl.c_str());
    throw Error("io.write", path.string(), "rename: " + why);
  }
  fsync_folder(dir);  // the rename is durable once the folder is
}

void fsync_folder(const std::filesystem::path& dir) {
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
}

}  // namespace awb::core
