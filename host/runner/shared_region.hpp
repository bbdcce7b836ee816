// shared_region.hpp: the memory a host and its runner share for large frames. The host makes it
// (a memfd, sealed so that its size can never change again) and passes it as fd 5; the runner
// maps it before lockdown. A frame whose payload is large travels there instead of through the
// pipes: the writer copies the payload to the region's start, then sends the header alone with
// wire::kInSharedRegion set. Whoever reads a payload there trusts nothing in it but what the
// decoders check, as with a pipe: the other side may write the region at any moment.
#ifndef AWB_RUNNER_SHARED_REGION_HPP_
#define AWB_RUNNER_SHARED_REGION_HPP_

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "runner/wire.hpp"

namespace awb::runner {

class SharedRegion {
 public:
  SharedRegion() = default;
  ~SharedRegion();
  SharedRegion(SharedRegion&& other) noexcept;
  SharedRegion& operator=(SharedRegion&& other) noexcept;
  SharedRegion(const SharedRegion&) = delete;
  SharedRegion& operator=(const SharedRegion&) = delete;

  // Host side: a fresh region of `bytes` (whole pages), mapped here and sealed against shrinking
  // and growing, so a runner cannot make the host's mapping fault. Its descriptor stays open
  // (close-on-exec) for the runner's start. Empty when the system refuses: frames then all go
  // through the pipes.
  static SharedRegion create(size_t bytes);
  // Runner side: maps the region the host passed on `fd` (its size from the descriptor) and
  // closes `fd`. Empty when `fd` is not open or not a region.
  static SharedRegion adopt(int fd);

  bool valid() const { return data_ != nullptr; }
  uint8_t* data() const { return data_; }
  size_t size() const { return size_; }
  // The descriptor create() opened (-1 once closed or adopted); close_descriptor() ends it,
  // the mapping stays.
  int descriptor() const { return fd_; }
  void close_descriptor();

  // Whether a payload of `bytes` goes through the region: large enough that the pipes' copies
  // and wake-ups cost more than one copy here, and no larger than the region.
  bool carries(size_t bytes) const;
  // Whether a frame that says its payload of `bytes` lies here can be read (else malformed).
  bool holds(size_t bytes) const { return data_ && bytes <= size_; }
  std::span<const uint8_t> payload(size_t bytes) const { return {data_, bytes}; }

  // The header of a frame carrying `payload`; when this region carries() it, the payload is
  // copied here and the header marked kInSharedRegion (staged(): nothing is to follow it).
  wire::Header stage(wire::Type type, uint32_t request_id, uint64_t nonce,
                     const std::vector<uint8_t>& payload) const;
  static bool staged(const wire::Header& h) { return (h.type & wire::kInSharedRegion) != 0; }
  // Sends one frame on `fd` (blocking): staged here with its header alone on `fd`, or the whole
  // frame on `fd` as wire::send_frame does.
  bool send(int fd, wire::Type type, uint32_t request_id, uint64_t nonce,
            const std::vector<uint8_t>& payload) const;

 private:
  void reset();
  uint8_t* data_ = nullptr;
  size_t size_ = 0;
  int fd_ = -1;
};

// The region's size for a runner allowed `memory_mb` of address space (0: unlimited): an eighth
// of it, at most 256 MiB (the mapping counts against the limit; its pages cost only once touched).
size_t shared_region_bytes(int64_t memory_mb);

}  // namespace awb::runner

#endif  // AWB_RUNNER_SHARED_REGION_HPP_
