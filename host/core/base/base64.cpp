// base64.cpp: EVP_EncodeBlock writes the whole block at once, padding included.
#include "core/base/base64.hpp"

#include <openssl/evp.h>

#include <algorithm>

namespace awb::core {

std::string base64(std::string_view bytes) {
  std::string out;
  // EVP_EncodeBlock takes an int count: encode in chunks of a multiple of 3 bytes, so only the
  // last chunk pads.
  constexpr size_t kChunk = size_t(3) << 20;
  out.reserve((bytes.size() + 2) / 3 * 4 + 1);
  for (size_t at = 0; at < bytes.size() || at == 0; at += kChunk) {
    const size_t n = std::min(kChunk, bytes.size() - at);
    const size_t start = out.size();
    out.resize(start + (n + 2) / 3 * 4 + 1);
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data() + start),
                                        reinterpret_cast<const unsigned char*>(bytes.data() + at),
                                        static_cast<int>(n));
    out.resize(start + static_cast<size_t>(written));
    if (bytes.empty()) break;
  }
  return out;
}

}  // namespace awb::core
