// wire.cpp: encoders and blocking I/O helpers for runner frames.
#include "runner/wire.hpp"

#include <sys/uio.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace awb::wire {

void Writer::str(std::string_view s) {
  u32(static_cast<uint32_t>(s.size()));
  raw(s.data(), s.size());
}

void Writer::raw(const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  buf_.insert(buf_.end(), p, p + n);
}

std::string Reader::str(size_t max_size) {
  const uint32_t n = u32();
  if (!ok_ || n > max_size || n > remaining()) {
    ok_ = false;
    return {};
  }
  std::string s(reinterpret_cast<const char*>(data_ + pos_), n);
  pos_ += n;
  return s;
}

bool Reader::raw(void* out, size_t n) {
  if (!ok_ || n > size_ - pos_) {
    ok_ = false;
    std::memset(out, 0, n);
    return false;
  }
  std::memcpy(out, data_ + pos_, n);
  pos_ += n;
  return true;
}

bool write_all(int fd, const void* data, size_t n) {
  const auto* p = static_cast<const uint8_t*>(data);
  while (n > 0) {
    const ssize_t w = ::write(fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return true;
}

bool read_all(int fd, void* data, size_t n) {
  auto* p = static_cast<uint8_t*>(data);
  while (n > 0) {
    const ssize_t r = ::read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r <= 0) return false;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return true;
}

bool send_frame(int fd, Type type, uint32_t request_id, uint64_t nonce,
                const std::vector<uint8_t>& payload) {
  if (payload.size() > kMaxPayload) return false;
  Header h;
  h.type = static_cast<uint16_t>(type);
  h.request_id = request_id;
  h.nonce = nonce;
  h.payload_size = static_cast<uint32_t>(payload.size());
  // Header and payload in one writev: a reader polling for the frame wakes once, not twice.
  iovec parts[2] = {{&h, sizeof h}, {const_cast<uint8_t*>(payload.data()), payload.size()}};
  size_t done = 0;
  const size_t total = sizeof h + payload.size();
  while (done < total) {
    iovec rest[2];
    int n = 0;
    size_t skip = done;
    for (const iovec& part : parts) {
      if (skip >= part.iov_len) {
        skip -= part.iov_len;
        continue;
      }
      rest[n++] = {static_cast<uint8_t*>(part.iov_base) + skip, part.iov_len - skip};
      skip = 0;
    }
    const ssize_t w = ::writev(fd, rest, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    done += static_cast<size_t>(w);
  }
  return true;
}

}  // namespace awb::wire
