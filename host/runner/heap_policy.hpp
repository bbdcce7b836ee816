// heap_policy.hpp: the allocator policy of a process that makes plugin calls back to back.
// glibc maps each block of 128 KiB or more afresh and gives it back when freed, so a plugin that
// allocates its buffers on every call (as most students' do) takes a page fault per 4 KiB of
// them every call. With these thresholds large blocks come from the heap and stay there once
// freed: the next call reuses pages already touched. Set by every runner, and by `awb bench`
// for the plugins it times in its own process, so that they run as they would in a runner.
#ifndef AWB_RUNNER_HEAP_POLICY_HPP_
#define AWB_RUNNER_HEAP_POLICY_HPP_

#include <malloc.h>

namespace awb::runner {

inline void keep_freed_heap_memory() {
  ::mallopt(M_MMAP_THRESHOLD, 256 << 20);
  ::mallopt(M_TRIM_THRESHOLD, 512 << 20);
}

}  // namespace awb::runner

#endif  // AWB_RUNNER_HEAP_POLICY_HPP_
