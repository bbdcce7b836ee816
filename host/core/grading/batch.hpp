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
#include "core/grading/batch_reports.hpp"
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

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_BATCH_HPP_
