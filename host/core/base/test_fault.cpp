// test_fault.cpp: parses AWB_TEST_FAULT once.
#include "core/base/test_fault.hpp"

#include <cstdlib>
#include <iostream>

namespace awb::core {

const TestFault& test_fault() {
  static const TestFault parsed = [] {
    TestFault f;
    const char* env = std::getenv("AWB_TEST_FAULT");
    if (env == nullptr || *env == '\0') return f;
    const std::string text = env;
    const auto colon = text.find(':');
    const std::string kind = text.substr(0, colon);
    char* end = nullptr;
    const long n = colon == std::string::npos ? 0 : std::strtol(text.c_str() + colon + 1, &end, 10);
    const bool number = end != nullptr && *end == '\0' && n >= 1;
    if (number && (kind == "kill-after-report" || kind == "enospc-at-report" ||
                   kind == "enospc-at-build-store"))
      f = {kind, n};
    else
      std::cerr << "awb: AWB_TEST_FAULT='" << text
                << "' is not kill-after-report:N, enospc-at-report:N or enospc-at-build-store:N "
                   "(N >= 1); ignored\n";
    return f;
  }();
  return parsed;
}

}  // namespace awb::core
