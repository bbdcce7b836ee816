// batch_results.hpp: a results folder is awb's (a batch's or a merge's --out): it carries an
// ownership marker, and one awb process at a time works in it.
//
// RESULTS/.awb-results   "awb-results 1" / "kind batch|merge" / "created_by awb <version>": the
//                        folder is awb's. A batch or a merge writes into a folder only when it is
//                        missing, empty, or holds this marker; a folder of an earlier awb (no
//                        marker, but a journal.jsonl or a `current` link to reports.<g>) is
//                        adopted and the marker written (with "adopted earlier awb": its flat
//                        reports are awb's to replace); a folder holding only other results
//                        folders of awb (the Slurm recipe's RESULTS/shard-*) counts as empty.
//                        Anything else is refused before anything in it is touched.
// The marker is also the folder's lock: it is held (flock) from the start of a batch or merge to
// its end, so two of them never interleave (the second is refused, naming the holder's pid). The
// kernel drops the lock of a process that dies, kill -9 included: a stale lock is simply free.
#ifndef AWB_CORE_GRADING_BATCH_RESULTS_HPP_
#define AWB_CORE_GRADING_BATCH_RESULTS_HPP_

#include <filesystem>

namespace awb::core {

inline constexpr const char* kResultsMarker = ".awb-results";

enum class ResultsKind { kBatch, kMerge };

// The pid holding a flock on the file open as `fd` (from /proc/locks), or 0 when unknown.
long flock_holder(int fd);

// Whether `folder`'s marker says it was adopted from an earlier awb: only then are the reports
// in the flat layout of earlier versions (a regular grades.csv, a gradescope/ folder) awb's to
// replace. Elsewhere such a file is the user's, and publishing refuses to replace it.
bool results_adopted(const std::filesystem::path& folder);

// A results folder claimed for one run: created if missing, checked to be awb's, marked, locked.
class ResultsFolder {
 public:
  // Throws awb::Error: "batch.out_not_awb" (a folder awb did not create), "batch.usage" (a
  // batch's folder given to a merge or the other way round), "batch.results_locked" (another
  // awb works in it), "io.write".
  static ResultsFolder claim(const std::filesystem::path& folder, ResultsKind kind);
  ResultsFolder(ResultsFolder&& other) noexcept;
  ResultsFolder& operator=(ResultsFolder&&) = delete;
  ResultsFolder(const ResultsFolder&) = delete;
  ~ResultsFolder();  // releases the lock

 private:
  explicit ResultsFolder(int fd) : fd_(fd) {}
  int fd_ = -1;
};

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_BATCH_RESULTS_HPP_
