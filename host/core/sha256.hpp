// sha256.hpp: SHA-256 (FIPS 180-4) of bytes and files, for provenance.
#ifndef AWB_CORE_SHA256_HPP_
#define AWB_CORE_SHA256_HPP_

#include <filesystem>
#include <string>
#include <string_view>

namespace awb::core {

std::string sha256_hex(std::string_view bytes);
// Throws awb::Error("io.read") when the file cannot be read.
std::string sha256_file(const std::filesystem::path& file);

}  // namespace awb::core

#endif  // AWB_CORE_SHA256_HPP_
