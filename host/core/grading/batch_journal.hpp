// batch_journal.hpp: the journal of a batch grading run: one checksummed JSON line per finished
// (submission, subject, exercise) result, appended and fsync'd before the next result starts, so
// a killed run can resume where it stopped and never grade a result twice.
//
// A line is a JSON object, keys in this order:
//   {"key": {submission, subject, exercise_id, exercise_sha256, plugin_sha256, awb_version,
//            options},
//    "plugin_file": the plugin's file name inside the submission ("" when not gradable),
//    "note", "submitted_at": about the submission (only when set),
//    "folder_sha256", "subjects": the submission's *.so files (names and contents) and how many
//        subjects they gave, when it was graded (only when set: lines of older runs lack them),
//    "report": the full ExerciseReport (every check, provenance, not_gradable),
//    "seconds": wall time grading this result, "finished_at": UTC ISO 8601 time,
//    "checksum": sha256 hex of the canonical (compact) JSON of everything before it}
// A batch whose runners may stay below `limited` also writes a line before it starts grading a
// submission, exercise id "#started-<n>"; such lines are never part of a report.
// The timing fields live only here: the reports built from the journal leave them out, so a
// resumed run writes the same bytes as an uninterrupted one.
#ifndef AWB_CORE_GRADING_BATCH_JOURNAL_HPP_
#define AWB_CORE_GRADING_BATCH_JOURNAL_HPP_

#include <cstdint>
#include <filesystem>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "graders/report/report.hpp"

namespace awb::core {

// What makes a result still valid: an edited exercise, a rebuilt plugin, another awb version or
// other grading options give another key, and the result is graded again.
struct JournalKey {
  std::string submission;
  std::string subject;
  std::string exercise_id;
  std::string exercise_sha256;
  std::string plugin_sha256;  // of the plugin file; of the folder's *.so files when not gradable
  std::string awb_version;
  std::string options;  // the grading options ("scalar=f64;strictness=2")
  auto operator<=>(const JournalKey&) const = default;
  bool operator==(const JournalKey&) const = default;
};

struct JournalRecord {
  JournalKey key;
  std::string plugin_file;
  // About the submission as a whole (written only when set, so older lines still read):
  std::string note;  // e.g. "also submitted: a:b" (what an assignment did not grade)
  // The newest modification time of its files when graded, Unix seconds (0: unknown). Not what
  // lateness is computed from in a run (the folder's times then, or the time inputs); a merge,
  // which may not see the folders, falls back to it.
  int64_t submitted_at = 0;
  // What lets a resume reuse the submission without loading it: the sha256 of its *.so files'
  // names and contents, and the number of subjects loading them gave ("" and 0: unknown).
  std::string folder_sha256;
  int subjects = 0;
  grade::ExerciseReport report;
  double seconds = 0;
  std::string finished_at;
};

// JSON of the report model, every field, in a fixed key order. from_json throws awb::Error
// ("batch.journal_record") on a missing or mistyped field or an unknown enum name.
nlohmann::ordered_json to_json(const grade::CheckResult& c);
nlohmann::ordered_json to_json(const grade::ExerciseReport& e);
nlohmann::ordered_json to_json(const JournalKey& k);
grade::CheckResult check_result_from_json(const nlohmann::ordered_json& j);
grade::ExerciseReport exercise_report_from_json(const nlohmann::ordered_json& j);
JournalKey journal_key_from_json(const nlohmann::ordered_json& j);

// One journal line, checksum included and ending in '\n'. Invalid UTF-8 in report text becomes
// U+FFFD, so the line always parses back.
std::string journal_line(const JournalRecord& record);
// Parses one line (without its '\n'); nothing, with the reason in `why`, when it is not valid
// JSON, lacks a field, or its checksum does not match.
std::optional<JournalRecord> parse_journal_line(std::string_view line, std::string* why = nullptr);

// The largest journal awb reads (a class of thousands of submissions stays far below it):
// beyond it, or when the file is not a regular one (a FIFO, a link), reading throws
// awb::Error("io.too_large" / "io.not_regular") instead of hanging or exhausting memory.
inline constexpr uintmax_t kJournalMaxBytes = uintmax_t{1} << 30;

// A journal file read back.
struct JournalContents {
  std::vector<JournalRecord> records;  // valid lines, in file order, first of each key only
  uintmax_t good_bytes = 0;            // the file up to and including the last valid line
  bool torn_tail = false;              // the last line was cut short or corrupt
  std::vector<std::string> warnings;   // lines ignored, with why (for the user)
};
// A missing file reads as empty. Throws awb::Error("io.read") when it cannot be read.
JournalContents read_journal(const std::filesystem::path& file);
// The same for a journal that no run is writing (awb grade merge reads finished shards): read
// under a shared lock, so no run starts writing it meanwhile. Throws
// awb::Error("batch.journal_locked"), naming the writer, while a run holds it.
JournalContents read_idle_journal(const std::filesystem::path& file);

// The journal open for appending. Appends are serialised: each record is one write() of one
// line, then fsync(), before append() returns. An exclusive lock (flock) keeps a second batch
// run from writing to the same journal.
class Journal {
 public:
  // A new journal; throws awb::Error("batch.journal_exists") when the file already exists.
  static Journal create(const std::filesystem::path& file);
  // An existing (or missing) journal, for --resume: reads it, cuts a torn or corrupt last line
  // off (truncate to the last good line + fsync), and opens it for appending.
  static Journal resume(const std::filesystem::path& file, JournalContents& contents);

  Journal(Journal&& other) noexcept;
  Journal& operator=(Journal&&) = delete;
  Journal(const Journal&) = delete;
  ~Journal();

  // Throws awb::Error("io.write"); the file is then cut back to its size before the call.
  void append(const JournalRecord& record);
  const std::filesystem::path& path() const { return path_; }

 private:
  Journal(std::filesystem::path path, int fd);
  std::filesystem::path path_;
  int fd_ = -1;
  std::mutex mutex_;
};

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_BATCH_JOURNAL_HPP_
