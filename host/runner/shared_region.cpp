// shared_region.cpp: the host's sealed memfd and the runner's mapping of it.
#include "runner/shared_region.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <utility>

#include "runner/wire.hpp"

namespace awb::runner {
namespace {

uint8_t* map_shared(int fd, size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  return p == MAP_FAILED ? nullptr : static_cast<uint8_t*>(p);
}

}  // namespace

SharedRegion::~SharedRegion() { reset(); }

SharedRegion::SharedRegion(SharedRegion&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      fd_(std::exchange(other.fd_, -1)) {}

SharedRegion& SharedRegion::operator=(SharedRegion&& other) noexcept {
  if (this != &other) {
    reset();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void SharedRegion::reset() {
  if (data_) ::munmap(data_, size_);
  close_descriptor();
  data_ = nullptr;
  size_ = 0;
}

void SharedRegion::close_descriptor() {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

SharedRegion SharedRegion::create(size_t bytes) {
  SharedRegion r;
  const auto page = static_cast<size_t>(::sysconf(_SC_PAGESIZE));
  bytes = (bytes + page - 1) / page * page;
  if (bytes == 0) return r;
  r.fd_ = ::memfd_create("awb-frames", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (r.fd_ < 0) return r;
  // Sealed before the runner ever sees it: F_SEAL_SEAL keeps the seals from being lifted.
  if (::ftruncate(r.fd_, static_cast<off_t>(bytes)) != 0 ||
      ::fcntl(r.fd_, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_SEAL) != 0) {
    r.reset();
    return r;
  }
  r.data_ = map_shared(r.fd_, bytes);
  if (!r.data_) {
    r.reset();
    return r;
  }
  r.size_ = bytes;
  return r;
}

SharedRegion SharedRegion::adopt(int fd) {
  SharedRegion r;
  struct stat st {};
  // Only a region whose size the host sealed: anything else on this descriptor is ignored.
  const int seals = ::fcntl(fd, F_GET_SEALS);
  if (seals >= 0 && (seals & F_SEAL_SHRINK) && ::fstat(fd, &st) == 0 && st.st_size > 0) {
    r.data_ = map_shared(fd, static_cast<size_t>(st.st_size));
    if (r.data_) r.size_ = static_cast<size_t>(st.st_size);
  }
  if (::fcntl(fd, F_GETFD) >= 0) ::close(fd);
  return r;
}

bool SharedRegion::carries(size_t bytes) const {
  return data_ && bytes >= wire::kSharedRegionThreshold && bytes <= size_;
}

wire::Header SharedRegion::stage(wire::Type type, uint32_t request_id, uint64_t nonce,
                                 const std::vector<uint8_t>& payload) const {
  wire::Header h;
  h.type = static_cast<uint16_t>(type);
  h.request_id = request_id;
  h.nonce = nonce;
  h.payload_size = static_cast<uint32_t>(payload.size());
  if (carries(payload.size())) {
    std::memcpy(data_, payload.data(), payload.size());
    h.type |= wire::kInSharedRegion;
  }
  return h;
}

bool SharedRegion::send(int fd, wire::Type type, uint32_t request_id, uint64_t nonce,
                        const std::vector<uint8_t>& payload) const {
  const wire::Header h = stage(type, request_id, nonce, payload);
  if (!staged(h)) return wire::send_frame(fd, type, request_id, nonce, payload);
  return wire::write_all(fd, &h, sizeof h);
}

size_t shared_region_bytes(int64_t memory_mb) {
  constexpr size_t kMost = size_t{256} << 20;
  if (memory_mb <= 0) return kMost;
  return std::min(kMost, (static_cast<size_t>(memory_mb) << 20) / 8);
}

}  // namespace awb::runner
