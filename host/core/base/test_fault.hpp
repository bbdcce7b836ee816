// test_fault.hpp: the test-only fault hook AWB_TEST_FAULT=<kind>:<N>, parsed once for every part
// of awb that offers a fault point (report publishing: core/grading/batch_fault.hpp; the build
// cache: core/builds/source_build.cpp), so that tests can kill awb or fill the disk at an exact
// step without sleeps.
//
//   kill-after-report:N      awb SIGKILLs itself right after the Nth report step
//   enospc-at-report:N       the Nth report step that needs disk space fails with ENOSPC
//   enospc-at-build-store:N  storing the Nth source build into the build cache fails with ENOSPC
// Unset or malformed: no fault (a malformed value is reported once on stderr so a typo cannot
// pass a test silently).
#ifndef AWB_CORE_BASE_TEST_FAULT_HPP_
#define AWB_CORE_BASE_TEST_FAULT_HPP_

#include <string>

namespace awb::core {

struct TestFault {
  std::string kind;  // "" when none
  long n = 0;        // >= 1
};

// The fault asked for in AWB_TEST_FAULT, read once.
const TestFault& test_fault();

}  // namespace awb::core

#endif  // AWB_CORE_BASE_TEST_FAULT_HPP_
