// base64.cpp: EVP_EncodeBlock writes the whole block at once, padding included.
#include "core/base/base64.hpp"

#include <openssl/evp.h>

#include <algorithm>

namespace awb::core {

std::string base64(std::string_view bytes) {
  // EVP_EncodeBlock takes an int count: encode in chunks of a multiple of 3 bytes, so that only
  // the last chunk pads.
  constexpr size_t kChunk = size_t(3) << 20;
  std::string out;
  out.reserve((bytes.size() + 2) / 3 * 4 + 1);
  for (size_t at = 0; at < bytes.size(); at += kChunk) {
    const size_t n = std::min(kChunk, bytes.size() - at);
    const size_t start = out.size();
    out.resize(start + (n + 2) / 3 * 4 + 1);  // EVP_EncodeBlock ends with a NUL
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data() + start),
                                        reinterpret_cast<const unsigned char*>(bytes.data() + at),
                                        static_cast<int>(n));
    out.resize(start + static_cast<size_t>(written));
  }
  return out;
}

}  // namespace awb::core
