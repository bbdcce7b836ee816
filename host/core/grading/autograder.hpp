// autograder.hpp: what an autograding platform (Gradescope, PrairieLearn) needs besides awb
// itself to grade a course's submissions: the assignment, every exercise it grades, and the
// platform's scripts (contrib/), as the files of one bundle.
//
// A bundle reads, relative to its root:
//   grade_submission.sh            grades one submission through `awb grade --batch` and always
//                                  leaves the platform's results.json (contrib/autograder/)
//   assignment/assignment.yaml     the assignment, byte for byte
//   assignment/<path>              each exercise it names by `file:`, at that path
//   exercises/<id>.yaml            each exercise it names by id (looked up with --exercises)
// and the platform's own entry points: Gradescope's setup.sh and run_autograder (beside them the
// awb package setup.sh installs, awb.deb), PrairieLearn's grade.sh.
#ifndef AWB_CORE_GRADING_AUTOGRADER_HPP_
#define AWB_CORE_GRADING_AUTOGRADER_HPP_

#include <filesystem>
#include <string>
#include <vector>

#include "core/base/zip_writer.hpp"
#include "core/grading/assignment.hpp"

namespace awb::core {

enum class Platform { kGradescope, kPrairieLearn };

// The files of the bundle for `platform` (ZipEntry: a name relative to the bundle, the bytes,
// whether it is executable). `package` is the awb Debian package Gradescope's setup.sh installs
// (ignored for PrairieLearn, whose image has awb installed). Throws awb::Error:
// "autograder.usage" when an exercise named by `file:` lies outside the assignment's folder (a
// bundle keeps those paths as they are) or `package` is not a Debian package; "io.read" when a
// file cannot be read.
std::vector<ZipEntry> autograder_files(const Assignment& assignment, Platform platform,
                                       const std::filesystem::path& package = {});

// The platforms' scripts: <prefix>/share/awb/contrib, or the source tree's contrib/.
std::filesystem::path shipped_contrib_dir();

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_AUTOGRADER_HPP_
