// base64.hpp: bytes as base64 text (RFC 4648, with padding), through OpenSSL's libcrypto.
#ifndef AWB_CORE_BASE_BASE64_HPP_
#define AWB_CORE_BASE_BASE64_HPP_

#include <string>
#include <string_view>

namespace awb::core {

std::string base64(std::string_view bytes);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_BASE64_HPP_
