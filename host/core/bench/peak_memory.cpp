// peak_memory.cpp: VmHWM / VmRSS from /proc/self/status, reset through /proc/self/clear_refs.
#include "core/bench/peak_memory.hpp"

#include <fstream>
#include <string>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace awb::core {
namespace {

// A "Key:   1234 kB" line of /proc/self/status, in bytes; -1 when absent.
int64_t status_bytes(const std::string& key) {
  std::ifstream in("/proc/self/status");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, key.size(), key) != 0 || line.size() <= key.size() ||
        line[key.size()] != ':')
      continue;
    return std::stoll(line.substr(key.size() + 1)) * 1024;
  }
  return -1;
}

}  // namespace

bool PeakMemoryProbe::start() {
  baseline_ = -1;
#if defined(__GLIBC__)
  malloc_trim(0);  // so that work reusing freed heap pages still shows as new pages
#endif
  std::ofstream clear("/proc/self/clear_refs");
  if (!clear || !(clear << "5" << std::flush)) return false;
  baseline_ = status_bytes("VmRSS");
  return baseline_ >= 0;
}

int64_t PeakMemoryProbe::stop() const {
  if (baseline_ < 0) return -1;
  const int64_t hwm = status_bytes("VmHWM");
  return hwm < 0 ? -1 : (hwm > baseline_ ? hwm - baseline_ : 0);
}

}  // namespace awb::core
