// sha256.cpp: a compact SHA-256 following FIPS 180-4, section 6.2.
#include "core/base/sha256.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <vector>

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>
#endif

#include "graders/model/error.hpp"

namespace awb::core {
namespace {

constexpr std::array<uint32_t, 64> kK = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

uint32_t rotr(uint32_t x, int n) { return (x >> n) | (x << (32 - n)); }

// Compresses `blocks` whole 64-byte blocks into `h` (FIPS 180-4, 6.2.2), one at a time.
void compress_portable(std::array<uint32_t, 8>& h, const unsigned char* data, size_t blocks) {
  for (; blocks > 0; --blocks, data += 64) {
    uint32_t w[64];
    for (int t = 0; t < 16; ++t)
      w[t] = uint32_t(data[4 * t]) << 24 | uint32_t(data[4 * t + 1]) << 16 |
             uint32_t(data[4 * t + 2]) << 8 | uint32_t(data[4 * t + 3]);
    for (int t = 16; t < 64; ++t) {
      const uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
      const uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
      w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int t = 0; t < 64; ++t) {
      const uint32_t t1 = hh + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
                          kK[size_t(t)] + w[t];
      const uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g;
      g = f;
      f = e;
      e = d + t1;
      d = c;
      c = b;
      b = a;
      a = t1 + t2;
    }
    h[0] += a;
    h[1] += b;
    h[2] += c;
    h[3] += d;
    h[4] += e;
    h[5] += f;
    h[6] += g;
    h[7] += hh;
  }
}

#if defined(__x86_64__)
// The same compression with the x86 SHA extensions: SHA256RNDS2 does two rounds on the state
// held as (A,B,E,F) and (C,D,G,H); SHA256MSG1/MSG2 extend the message schedule four words at a
// time. Compiled for those instructions only here and called only where CPUID reports them.
__attribute__((target("sha,sse4.1"))) void compress_sha_extensions(std::array<uint32_t, 8>& h,
                                                                   const unsigned char* data,
                                                                   size_t blocks) {
  const __m128i big_endian = _mm_set_epi64x(0x0c0d0e0f08090a0bLL, 0x0405060700010203LL);
  // h[0..3] = A B C D and h[4..7] = E F G H, lowest lane first, into ABEF and CDGH.
  const __m128i dcba =
      _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[0])), 0xB1);
  const __m128i efgh =
      _mm_shuffle_epi32(_mm_loadu_si128(reinterpret_cast<const __m128i*>(&h[4])), 0x1B);
  __m128i abef = _mm_alignr_epi8(dcba, efgh, 8);
  __m128i cdgh = _mm_blend_epi16(efgh, dcba, 0xF0);
  for (; blocks > 0; --blocks, data += 64) {
    const __m128i abef_in = abef, cdgh_in = cdgh;
    __m128i w[4];  // w[g % 4] holds message words 4g .. 4g+3 of the current group g
    for (int i = 0; i < 4; ++i)
      w[i] = _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(data + 16 * i)),
                              big_endian);
    for (int g = 0; g < 16; ++g) {
      __m128i wk = _mm_add_epi32(
          w[g & 3], _mm_loadu_si128(reinterpret_cast<const __m128i*>(&kK[4 * size_t(g)])));
      cdgh = _mm_sha256rnds2_epu32(cdgh, abef, wk);
      wk = _mm_shuffle_epi32(wk, 0x0E);
      abef = _mm_sha256rnds2_epu32(abef, cdgh, wk);
      if (g < 12) {
        // Words 4(g+4) .. 4(g+4)+3: W[t-16] + s0(W[t-15]) from groups g and g+1, W[t-7] from
        // groups g+2 and g+3, then s1(W[t-2]) added by MSG2.
        const __m128i partial = _mm_add_epi32(_mm_sha256msg1_epu32(w[g & 3], w[(g + 1) & 3]),
                                              _mm_alignr_epi8(w[(g + 3) & 3], w[(g + 2) & 3], 4));
        w[g & 3] = _mm_sha256msg2_epu32(partial, w[(g + 3) & 3]);
      }
    }
    abef = _mm_add_epi32(abef, abef_in);
    cdgh = _mm_add_epi32(cdgh, cdgh_in);
  }
  const __m128i feba = _mm_shuffle_epi32(abef, 0x1B);
  const __m128i dchg = _mm_shuffle_epi32(cdgh, 0xB1);
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[0]), _mm_blend_epi16(feba, dchg, 0xF0));
  _mm_storeu_si128(reinterpret_cast<__m128i*>(&h[4]), _mm_alignr_epi8(dchg, feba, 8));
}

bool cpu_has_sha_extensions() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d)) return false;
  const bool ssse3 = c & (1u << 9), sse41 = c & (1u << 19);
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return ssse3 && sse41 && (b & (1u << 29));
}
#endif

class Sha256 {
 public:
  explicit Sha256(Sha256Engine engine) : engine_(engine) {}
  void update(const unsigned char* data, size_t n) {
    bits_ += uint64_t(n) * 8;
    if (fill_ > 0) {
      const size_t take = std::min(n, size_t(64) - fill_);
      std::memcpy(block_ + fill_, data, take);
      fill_ += take;
      data += take;
      n -= take;
      if (fill_ < 64) return;
      compress(block_, 1);
      fill_ = 0;
    }
    compress(data, n / 64);  // whole blocks straight from the caller's bytes
    data += n / 64 * 64;
    fill_ = n % 64;
    std::memcpy(block_, data, fill_);
  }
  std::string hex() {
    const uint64_t bits = bits_;
    unsigned char tail[72] = {0x80};  // the 1 bit, zeros, then the length in bits, big-endian
    const size_t zeros = (fill_ < 56 ? 56 - fill_ : 120 - fill_) - 1;
    for (int i = 0; i < 8; ++i)
      tail[1 + zeros + size_t(i)] = static_cast<unsigned char>(bits >> (56 - 8 * i));
    update(tail, 1 + zeros + 8);
    std::string out;
    char buf[9];
    for (uint32_t h : h_) {
      std::snprintf(buf, sizeof buf, "%08x", h);
      out += buf;
    }
    return out;
  }

 private:
  void compress(const unsigned char* data, size_t blocks) {
    if (blocks == 0) return;
#if defined(__x86_64__)
    if (engine_ == Sha256Engine::kShaExtensions) return compress_sha_extensions(h_, data, blocks);
#endif
    compress_portable(h_, data, blocks);
  }

  Sha256Engine engine_;
  std::array<uint32_t, 8> h_ = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  unsigned char block_[64] = {};
  size_t fill_ = 0;
  uint64_t bits_ = 0;
};

}  // namespace

bool sha256_engine_supported(Sha256Engine engine) {
#if defined(__x86_64__)
  static const bool sha_extensions = cpu_has_sha_extensions();
  return engine == Sha256Engine::kPortable || sha_extensions;
#else
  return engine == Sha256Engine::kPortable;
#endif
}

Sha256Engine best_sha256_engine() {
  return sha256_engine_supported(Sha256Engine::kShaExtensions) ? Sha256Engine::kShaExtensions
                                                               : Sha256Engine::kPortable;
}

std::string sha256_hex(std::string_view bytes) { return sha256_hex(bytes, best_sha256_engine()); }

std::string sha256_hex(std::string_view bytes, Sha256Engine engine) {
  if (!sha256_engine_supported(engine)) engine = Sha256Engine::kPortable;
  Sha256 s(engine);
  s.update(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
  return s.hex();
}

std::string sha256_file(const std::filesystem::path& file, uint64_t max_bytes) {
  // O_NONBLOCK and fstat before reading: a FIFO or a device named like a plugin must never
  // block awb, and a file over the cap is refused before it costs minutes of hashing.
  const int fd = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0)
    throw Error("io.read", file.string(),
                std::string("cannot open the file: ") + std::strerror(errno));
  struct stat st {};
  auto refuse = [&](const std::string& why) {
    ::close(fd);
    return Error("io.read", file.string(), why);
  };
  if (::fstat(fd, &st) != 0) throw refuse(std::string("fstat: ") + std::strerror(errno));
  if (!S_ISREG(st.st_mode)) throw refuse("not a regular file");
  if (static_cast<uint64_t>(st.st_size) > max_bytes)
    throw refuse(std::to_string(st.st_size) + " bytes, over the cap of " +
                 std::to_string(max_bytes) + " bytes");
  Sha256 s(best_sha256_engine());
  std::vector<unsigned char> buf(1 << 16);
  for (;;) {
    const ssize_t n = ::read(fd, buf.data(), buf.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw refuse(std::string("read: ") + std::strerror(errno));
    if (n == 0) break;
    s.update(buf.data(), static_cast<size_t>(n));
  }
  ::close(fd);
  return s.hex();
}

}  // namespace awb::core
