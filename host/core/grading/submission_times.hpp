// submission_times.hpp: when each submission of a batch was made and when it was due: the
// platform's or LMS's submission times (--submitted-at), per-student extensions (--extensions),
// a platform's metadata for a batch of one (Gradescope's submission_metadata.json), and the
// files' modification times as the documented fallback. Lateness is computed from these when
// the reports are published, never taken from the journal, so a resume or a merge given other
// times publishes the lateness those times give.
//
// Both CSV files are RFC 4180, one header line, then one row per submission:
//   submission,submitted_at       2026-12-15T21:04:00Z (ISO 8601, UTC, like an assignment's due)
//   submission,extension          a new due date (2026-12-18T23:59:00Z or 2026-12-18, the end of
//                                 that day) or a whole number of extra days (3)
// A submission is a folder name of the batch, exactly. Errors name file:line.
#ifndef AWB_CORE_GRADING_SUBMISSION_TIMES_HPP_
#define AWB_CORE_GRADING_SUBMISSION_TIMES_HPP_

#include <cstdint>
#include <ctime>
#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "core/grading/assignment.hpp"

namespace awb::core {

// Where a roster row's time came from (its time_source column).
enum class TimeSource { kSubmittedAt, kMetadata, kFileMtime, kNone };
const char* to_string(TimeSource source);  // "submitted-at" | "metadata" | "file-mtime" | ""

// A due date moved for one student: to a date, or by whole days.
struct Extension {
  std::optional<std::time_t> due;
  int extra_days = 0;
};

// The time inputs of a batch or a merge, as read from their files.
struct TimeInputs {
  std::map<std::string, std::time_t> submitted_at;  // by submission
  std::map<std::string, Extension> extensions;
  std::optional<std::time_t> metadata;  // the platform's time of the batch's only submission
  // sha256 of each file's bytes ("" when not given): a shard's manifest records them.
  std::string submitted_at_sha256, extensions_sha256;
};

struct TimeFiles {
  std::filesystem::path submitted_at;  // --submitted-at
  std::filesystem::path extensions;    // --extensions
  std::filesystem::path metadata;      // --submission-metadata
  bool empty() const { return submitted_at.empty() && extensions.empty() && metadata.empty(); }
};

// Reads the files given, checking every row against `submissions` (the names of the class's
// folders). Throws awb::Error at file:line: "times.format" (no such file, a header or row of
// the wrong shape, metadata without created_at), "times.bad_time" (not an ISO 8601 UTC time,
// or a number of days that is not a whole number from 1 to 365), "times.unknown_submission" (a
// name no folder has), "times.duplicate" (a submission's second row). Metadata needs a batch
// of one submission ("times.format" otherwise).
TimeInputs read_time_inputs(const TimeFiles& files, const std::set<std::string>& submissions);

// "2018-07-01T14:22:32.365935-07:00": ISO 8601 with seconds, an optional fraction and a zone
// (Z or +hh:mm / -hh:mm), as a UTC time; nothing when the text is not such a time.
std::optional<std::time_t> parse_iso8601_time(const std::string& text);

// A submission's time and where it came from: the CSV's row, else the metadata, else the newest
// modification time of its files (`mtime`, 0: none), else nothing.
struct SubmittedTime {
  std::time_t at = 0;
  TimeSource source = TimeSource::kNone;
};
SubmittedTime submission_time(const TimeInputs& inputs, const std::string& submission,
                              int64_t mtime);

// The due date that holds for `submission`: the assignment's, moved by its extension.
std::optional<std::time_t> due_for(const Assignment& assignment, const TimeInputs& inputs,
                                   const std::string& submission);

// The newest modification time of a regular file under `folder` (0 when there is none).
int64_t newest_mtime(const std::filesystem::path& folder);

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_SUBMISSION_TIMES_HPP_
