// sha256.cpp: SHA-256 through OpenSSL's libcrypto (EVP), which picks the fastest code the CPU has
// (the x86 SHA extensions, ARMv8's SHA-2 instructions) at run time.
#include "core/base/sha256.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <memory>
#include <vector>

#include "graders/model/error.hpp"

namespace awb::core {
namespace {

// One digest in progress.
class Sha256 {
 public:
  Sha256() : ctx_(EVP_MD_CTX_new(), &EVP_MD_CTX_free) {
    if (!ctx_ || EVP_DigestInit_ex(ctx_.get(), EVP_sha256(), nullptr) != 1)
      throw Error("io.read", "SHA-256", "libcrypto could not start a digest");
  }
  void update(const void* data, size_t n) {
    if (n > 0 && EVP_DigestUpdate(ctx_.get(), data, n) != 1)
      throw Error("io.read", "SHA-256", "libcrypto could not digest the data");
  }
  std::string hex() {
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    if (EVP_DigestFinal_ex(ctx_.get(), digest, &n) != 1)
      throw Error("io.read", "SHA-256", "libcrypto could not finish the digest");
    static constexpr char kHex[] = "0123456789abcdef";
    std::string out;
    for (unsigned int i = 0; i < n; ++i) {
      out += kHex[digest[i] >> 4];
      out += kHex[digest[i] & 15];
    }
    return out;
  }

 private:
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx_;
};

}  // namespace

std::string sha256_hex(std::string_view bytes) {
  Sha256 s;
  s.update(bytes.data(), bytes.size());
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
  Sha256 s;
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
