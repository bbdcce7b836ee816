// unique_fd.hpp: a file descriptor with one owner, closed when the owner lets go, so no path out
// of a half-built runner (a later pipe that failed, a spawn refused) leaves one open.
#ifndef AWB_CORE_RUNNER_CLIENT_UNIQUE_FD_HPP_
#define AWB_CORE_RUNNER_CLIENT_UNIQUE_FD_HPP_

#include <unistd.h>

#include <utility>

namespace awb::core {

class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) : fd_(fd) {}
  ~UniqueFd() { reset(); }
  UniqueFd(UniqueFd&& other) noexcept : fd_(other.release()) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(other.release());
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;

  int get() const { return fd_; }
  bool valid() const { return fd_ >= 0; }
  int release() { return std::exchange(fd_, -1); }
  void reset(int fd = -1) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_ = -1;
};

}  // namespace awb::core

#endif  // AWB_CORE_RUNNER_CLIENT_UNIQUE_FD_HPP_
