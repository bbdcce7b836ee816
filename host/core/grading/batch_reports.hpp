// batch_reports.hpp: a batch's report set from its journal records: the reports per subject and
// per submission, the class roster under an assignment, and the files every format writes.
// SPDX-License-Identifier: MIT
#ifndef AWB_CORE_GRADING_BATCH_REPORTS_HPP_
#define AWB_CORE_GRADING_BATCH_REPORTS_HPP_

#include <cstdint>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "core/base/digest_cache.hpp"
#include "core/grading/assignment.hpp"
#include "core/grading/batch_journal.hpp"
#include "core/grading/batch_publish.hpp"
#include "core/grading/submission_times.hpp"
#include "graders/report/report.hpp"

namespace awb::core {

// The reports of a batch from journal records: the records are sorted by (submission, subject,
// exercise id), timing is left out. Used by run_batch; exposed for tests and the GUI.
struct BatchReports {
  std::vector<grade::GradeReport> subjects;  // one per subject, sorted
  // One per submission (all its subjects), sorted; exercises named "<plugin>:<variant>/<id>"
  // when the submission has several subjects.
  std::vector<std::pair<std::string, grade::GradeReport>> submissions;
};
BatchReports build_batch_reports(std::vector<JournalRecord> records);
// The roster rows of an assignment's batch: one per submission, its time and lateness, and the
// comment (why it is not gradable, what else it held, files identical to another submission's
// or to one that ships with awb: `known` maps sha256 to a name such as "bundled plugin qkv").
// Each row's time is submission_time(times, name, mtimes[name]) and its due date due_for(): a
// not-gradable row is never late.
std::vector<grade::RosterRow> roster_rows(const BatchReports& reports,
                                          const std::vector<JournalRecord>& records,
                                          const Assignment& assignment,
                                          const std::map<std::string, std::string>& known,
                                          const TimeInputs& times,
                                          const std::map<std::string, int64_t>& mtimes);
// sha256 → "bundled plugin <file>" / "shipped mutant <file>" for the plugin files that ship with
// awb and have one of `sizes` (the sizes of the files to compare with), hashed through `digests`.
std::map<std::string, std::string> shipped_plugin_hashes(const std::set<uintmax_t>& sizes,
                                                         DigestCache& digests);
// The files of a batch's report set, named relative to the set ("gradescope/alice.json"). A
// gradebook format (grades.csv) is written with the instructor's totals whatever `view`; each
// Gradescope leaderboard applies its roster row's late policy share.
std::vector<ReportFile> batch_report_files(const BatchReports& reports, const grade::View& view,
                                           const Assignment* assignment,
                                           const std::vector<grade::RosterRow>& roster,
                                           const TimeInputs& times = {});
// Publishes every format's batch files (grades.csv, junit.xml, gradescope/<submission>.json,
// prairielearn/<submission>.json) as the new current set of `results` (publish_report_set: the
// previous set or this one, never a mix); with an assignment, roster.csv and roster.meta.json
// too; and `extra` files (a shard's manifest).
void write_batch_reports(const BatchReports& reports, const std::filesystem::path& results,
                         const grade::View& view, const Assignment* assignment = nullptr,
                         const std::vector<grade::RosterRow>& roster = {},
                         std::vector<ReportFile> extra = {}, const TimeInputs& times = {});
// The roster's sidecar (roster.meta.json): the assignment (id, title, sha256), the roster's view
// (always the instructor's), the view of the other reports, the due date and late policy, the
// time inputs' digests and awb's version. No time of the run: a resume writes the same bytes.
std::string roster_meta(const Assignment& assignment, const grade::View& view,
                        const TimeInputs& times);

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_BATCH_REPORTS_HPP_
