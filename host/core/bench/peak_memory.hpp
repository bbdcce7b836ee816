// peak_memory.hpp: the resident-memory high water of this process around a piece of work.
#ifndef AWB_CORE_BENCH_PEAK_MEMORY_HPP_
#define AWB_CORE_BENCH_PEAK_MEMORY_HPP_

#include <cstdint>

namespace awb::core {

// Linux: free heap pages are first handed back (malloc_trim), then the kernel's high-water mark
// VmHWM is reset to the current resident size by writing 5 to /proc/self/clear_refs; after the
// work, VmHWM − (VmRSS at the start) is the most memory the work held at once. It counts pages
// touched, not bytes allocated: memory reserved but never written does not show.
class PeakMemoryProbe {
 public:
  // Starts a measure; false when this system cannot reset the mark (then stop() returns -1).
  bool start();
  // Bytes above the resident size at start(), or -1.
  int64_t stop() const;

 private:
  int64_t baseline_ = -1;
};

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_PEAK_MEMORY_HPP_
