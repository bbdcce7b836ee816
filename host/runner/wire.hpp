// wire.hpp: the runner's framing: a fixed header, a bounded payload, and checked encoders.
#ifndef AWB_RUNNER_WIRE_HPP_
#define AWB_RUNNER_WIRE_HPP_

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace awb::wire {

inline constexpr uint32_t kMagic = 0x31425741;  // "AWB1" read as little-endian bytes
inline constexpr uint16_t kVersion = 1;
// A control frame (hello, load failure) never needs more than this; tensor frames are bounded
// by the sizes the host asked for.
inline constexpr uint32_t kMaxControlPayload = 1u << 20;
inline constexpr uint32_t kMaxPayload = 0xFFFFFFF0u;

enum class Type : uint16_t {
  kHello = 1,       // runner → host: lockdown reached + plugin description
  kLoadFailed = 2,  // runner → host: the plugin could not be loaded (stage + reason)
  kForward = 3,     // host → runner: one problem
  kResult = 4,      // runner → host: exactly one per kForward or kBackward, same id and nonce
  kBye = 5,         // host → runner: destroy instances and exit
  kBackward = 6,    // host → runner: one backward pass (problem, forward results, dZ, dA)
  kCost = 7,        // host → runner: what one forward pass of a problem shape costs
};

// A frame whose type has this bit set carries its payload_size bytes at the start of the shared
// region (shared_region.hpp), copied there before the header was sent; nothing follows the header.
inline constexpr uint16_t kInSharedRegion = 0x8000;
// Payloads from this size up (a pipe's capacity) travel in the shared region where they fit.
inline constexpr size_t kSharedRegionThreshold = size_t{64} << 10;

// Native byte order: both ends are the same build on the same machine.
struct Header {
  uint32_t magic = kMagic;
  uint16_t version = kVersion;
  uint16_t type = 0;
  uint32_t request_id = 0;
  uint32_t payload_size = 0;
  uint64_t nonce = 0;  // echoed in the result so a frame written blindly does not match
};
static_assert(sizeof(Header) == 24);

class Writer {
 public:
  void u8(uint8_t v) { raw(&v, 1); }
  void u32(uint32_t v) { raw(&v, sizeof v); }
  void i32(int32_t v) { raw(&v, sizeof v); }
  void u64(uint64_t v) { raw(&v, sizeof v); }
  void i64(int64_t v) { raw(&v, sizeof v); }
  void f64(double v) { raw(&v, sizeof v); }
  void str(std::string_view s);
  void raw(const void* data, size_t n);
  const std::vector<uint8_t>& bytes() const { return buf_; }
  std::vector<uint8_t>& bytes() { return buf_; }

 private:
  std::vector<uint8_t> buf_;
};

// Reads what a Writer wrote; any overrun or oversize string clears ok() and yields zeros.
class Reader {
 public:
  Reader(const uint8_t* data, size_t size) : data_(data), size_(size) {}
  uint8_t u8() { return get<uint8_t>(); }
  uint32_t u32() { return get<uint32_t>(); }
  int32_t i32() { return get<int32_t>(); }
  uint64_t u64() { return get<uint64_t>(); }
  int64_t i64() { return get<int64_t>(); }
  double f64() { return get<double>(); }
  std::string str(size_t max_size);
  bool raw(void* out, size_t n);
  bool ok() const { return ok_; }
  bool at_end() const { return pos_ == size_; }
  size_t remaining() const { return size_ - pos_; }

 private:
  template <class T>
  T get() {
    T v{};
    raw(&v, sizeof v);
    return v;
  }
  const uint8_t* data_;
  size_t size_;
  size_t pos_ = 0;
  bool ok_ = true;
};

// Writes all of `n` bytes, retrying on EINTR; false on any other error (EPIPE included).
bool write_all(int fd, const void* data, size_t n);
// Reads exactly `n` bytes; false on EOF or error.
bool read_all(int fd, void* data, size_t n);
// Sends one frame (header + payload) with a single logical write.
bool send_frame(int fd, Type type, uint32_t request_id, uint64_t nonce,
                const std::vector<uint8_t>& payload);

}  // namespace awb::wire

#endif  // AWB_RUNNER_WIRE_HPP_
