// batch_fault.hpp: the fault points of report publishing for the test-only hook AWB_TEST_FAULT
// (core/base/test_fault.hpp), so tests can kill awb or fill the disk at an exact step.
//
//   AWB_TEST_FAULT=kill-after-report:N   awb SIGKILLs itself right after the Nth report step
//   AWB_TEST_FAULT=enospc-at-report:N    the Nth report step that needs disk space fails as a
//                                        full disk would (ENOSPC)
// Report steps, in order: each file written into the staging folder (MANIFEST.sha256 last),
// the staging folder's rename to its generation, the new `current` link and its rename over the
// old one, each familiar link (grades.csv, ...) made or replaced, each old entry removed. Files,
// links and renames need space; removals do not. Unset or malformed: no fault (a malformed
// value is reported once on stderr so a typo cannot pass a test silently).
#ifndef AWB_CORE_GRADING_BATCH_FAULT_HPP_
#define AWB_CORE_GRADING_BATCH_FAULT_HPP_

namespace awb::core {

enum class ReportStep { kAllocates, kRemoves };

// Called before a report step; true when it must fail with ENOSPC (errno is then set).
bool report_step_fails(ReportStep step);
// Called after a report step succeeded; does not return when the hook kills awb here.
void report_step_done();

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_BATCH_FAULT_HPP_
