// batch_merge.hpp: awb grade merge: the reports of a class graded in shards (batch_shard.hpp),
// built from the shards' journals into one report set, byte for byte what one unsharded run of
// the same class would publish (grades.csv, junit.xml, gradescope/, roster.csv: the roster's
// identical-file comments see every shard). Shards that do not belong together are refused.
#ifndef AWB_CORE_GRADING_BATCH_MERGE_HPP_
#define AWB_CORE_GRADING_BATCH_MERGE_HPP_

#include <filesystem>
#include <vector>

#include "core/grading/assignment.hpp"
#include "core/grading/submission_times.hpp"
#include "graders/report/report.hpp"

namespace awb::core {

struct MergeOptions {
  std::vector<std::filesystem::path> shards;  // each shard's results folder
  std::filesystem::path out;                  // receives the report set (created if missing)
  // What decides the reports and is not in the shards' journals: the assignment (required when
  // the shards were graded under one, and then the same file) and who reads them.
  const Assignment* assignment = nullptr;
  grade::View view;
  // The submissions' times and extensions: lateness is computed again here, from these (else
  // from the files' times each shard journaled). Shards graded with one of these files need it
  // given here too.
  TimeFiles times;
};

struct MergeSummary {
  int shards = 0;
  int submissions = 0;
  int results = 0;
};

// Publishes the merged reports into `out` (publish_report_set). Throws awb::Error:
//   batch.shard_unfinished  a folder holds no finished shard (no manifest in its reports, a run
//                           still writing its journal, or a journal that lacks results)
//   batch.shard_mismatch    shards graded differently (count, awb version, options, exercises,
//                           assignment, or a submissions folder that changed between them), an
//                           assignment given to the merge that is not theirs, or shards graded
//                           with --submitted-at or --extensions merged without that option
//   times.*                 a time input that is invalid (submission_times.hpp)
//   batch.shard_duplicate   a shard (or a folder) given twice
//   batch.shard_missing     a shard of the count not given
//   batch.shard_overlap     a submission in two shards
//   batch.usage             `out` is one of the shards' folders or a batch's results folder
//   io.read / io.write      a file could not be read or written
MergeSummary merge_shards(const MergeOptions& options);

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_BATCH_MERGE_HPP_
