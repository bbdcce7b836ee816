// batch.hpp: grading a folder of submissions (docs/guide-instructor.md): every variant of every
// plugin in each submission on every exercise, journaled result by result (batch_journal.hpp),
// resumable after a kill, and final reports built only from the sorted journal.
//
// Layout: SUBMISSIONS/<submission>/ holds a student's built plugin file(s) (*.so), or the sources
// of a CMake project that builds them (built first: source_build.hpp; a build that fails makes
// the submission not gradable, with the first compiler errors); the folder's name is the
// student's id. RESULTS/ receives
//   journal.jsonl              one checksummed line per (submission, subject, exercise) result
// and one whole set of reports, published as a generation (batch_publish.hpp: reports.<g>/ with
// a MANIFEST.sha256, `current` pointing at it, the names below links into current/):
//   grades.csv                 one row per subject, one column per exercise, totals
//   junit.xml                  one testsuite per (subject, exercise)
//   gradescope/<submission>.json  a Gradescope results.json per submission
//   prairielearn/<submission>.json  a PrairieLearn results.json per submission
//   roster.csv                 with an assignment: one row per submission, numbers only, for a
//                              gradebook (the assignment's variant; the others named in comment),
//                              the instructor's totals whatever the view, each row's lateness
//                              from its time (submission_times.hpp) and where that came from
//   roster.meta.json           beside it: the assignment, the views, the due date, awb's version
// The reports carry no timing, so a resumed run writes them byte for byte as an uninterrupted
// run would. A submission the journal already holds whole (same *.so files, exercises, options
// and awb version) is not loaded again: resuming a finished batch only publishes its reports.
// With a shard (batch_shard.hpp) only that shard's submissions are graded, and the set also
// holds shard.json, its manifest: awb grade merge (batch_merge.hpp) builds the class's reports
// from the shards' results folders.
#ifndef AWB_CORE_GRADING_BATCH_HPP_
#define AWB_CORE_GRADING_BATCH_HPP_

#include <atomic>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/builds/source_build.hpp"
#include "core/exercises/exercise.hpp"
#include "core/grading/assignment.hpp"
#include "core/grading/batch_journal.hpp"
#include "core/grading/batch_publish.hpp"
#include "core/grading/batch_shard.hpp"
#include "core/grading/grading.hpp"
#include "core/grading/submission_times.hpp"
#include "graders/report/report.hpp"

namespace awb::core {

class DigestCache;

struct BatchOptions {
  std::filesystem::path submissions;       // a folder of submission folders
  std::filesystem::path results;           // created if missing
  std::vector<const Exercise*> exercises;  // with an assignment: assignment->exercise_list()
  const Assignment* assignment = nullptr;  // grade its variant only, every check counting
  GradeOptions grading;
  // The --param assignments the exercises were loaded with ("window=4"): part of what a result
  // was graded under, as the options are, so a resume under others grades again.
  std::vector<std::string> variant_params;
  grade::View view;  // for every report but Gradescope's (Gradescope decides its own)
  int jobs = 1;      // submissions graded at once
  // Source submissions (a CMake project: CMakeLists.txt at the folder's top) are built in the
  // build sandbox first, into this cache (default: RESULTS/builds), by a hash of their sources.
  BuildLimits build;
  std::filesystem::path build_cache;
  // Runners may lock down less than `limited`, where a submission can kill awb: each start of a
  // submission is journaled, and one two earlier runs began and never finished is not graded
  // again (awb grade sets it with --min-isolation process).
  bool journal_starts = false;
  bool resume = false;
  const std::atomic<bool>* cancel = nullptr;  // set it to stop after the results in progress
  std::optional<Shard> shard;                 // grade this shard's submissions only
  // With an assignment: the submissions' times and extensions (submission_times.hpp), read
  // before grading starts; lateness is computed from them when the reports are published.
  TimeFiles times;
};

// After each submission (graded, or taken from the journal).
struct BatchProgress {
  int done = 0;
  int total = 0;             // submissions
  int not_gradable = 0;      // submissions so far with no loadable plugin
  std::string submission;    // the one just finished
  int exercises_passed = 0;  // of that submission, over all its subjects
  int exercises_total = 0;
  std::string note;  // "not gradable: <reason>", plugins that failed to load, ...
  int reused = 0;    // results of that submission taken from the journal
  double elapsed_seconds = 0;
  double eta_seconds = -1;  // -1: unknown yet
};

struct BatchSummary {
  int submissions = 0;
  int not_gradable = 0;
  int subjects = 0;
  int graded = 0;  // results graded in this run
  int reused = 0;  // results taken from the journal
  bool cancelled = false;
  std::vector<std::string> journal_warnings;  // lines of an existing journal that were dropped
};

// The submission folders, sorted by name (hidden folders are skipped).
std::vector<std::filesystem::path> list_submissions(const std::filesystem::path& folder);

// Grades the batch and writes the reports. `progress` is called from the worker threads, one
// call at a time. Throws awb::Error: "batch.journal_exists" (a journal is there and resume is
// off), "batch.journal_locked", "io.read" / "io.write" (a file could not be read or written).
// Faults of submissions never throw: they become not-gradable or error results.
BatchSummary run_batch(const BatchOptions& options,
                       const std::function<void(const BatchProgress&)>& progress = {});

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

#endif  // AWB_CORE_GRADING_BATCH_HPP_
