// sha256.hpp: SHA-256 (FIPS 180-4) of bytes and files, for provenance.
#ifndef AWB_CORE_BASE_SHA256_HPP_
#define AWB_CORE_BASE_SHA256_HPP_

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

namespace awb::core {

// Hex digests, through OpenSSL's libcrypto.
std::string sha256_hex(std::string_view bytes);
// The largest file awb hashes or loads as a plugin: one with debug information is tens of MB,
// and a sparse 8 GiB file named like a plugin must not cost minutes of hashing.
inline constexpr uint64_t kMaxPluginBytes = uint64_t(512) << 20;
// Throws awb::Error("io.read") when the file cannot be read, is not a regular file (a FIFO, a
// device) or is larger than `max_bytes`.
std::string sha256_file(const std::filesystem::path& file, uint64_t max_bytes = kMaxPluginBytes);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_SHA256_HPP_
