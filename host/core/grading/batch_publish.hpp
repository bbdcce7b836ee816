// batch_publish.hpp: a batch's reports published as one whole set, so that readers and the next
// resume see the previous set or the new one, never a mix (docs/guide-instructor.md).
//
// RESULTS/ holds
//   reports.<generation>/      one whole set: grades.csv, junit.xml, gradescope/, prairielearn/,
//                              [roster.csv, roster.meta.json], [shard.json] (a shard's
//                              manifest, batch_shard.hpp), and MANIFEST.sha256 (every other file,
//                              `sha256sum -c` format)
//   current -> reports.<generation>     replaced in one step (a new link renamed over it)
//   grades.csv -> current/grades.csv    and the other entries of the set likewise: the
//                                       familiar paths, relative links that follow `current`
// A set is written into a hidden staging folder (.staging.<generation>), fsync'd, renamed to
// reports.<generation>, and only then made current. Anything else an interrupted write left
// (staging folders, temp links and files, generations that are not current) is removed by the
// next run; the previous generation is removed once the new one is current. A generation is
// removed file by file as its MANIFEST.sha256 lists them: a file awb did not write there stays,
// and so does its folder (the results folder is awb's: batch_results.hpp).
#ifndef AWB_CORE_GRADING_BATCH_PUBLISH_HPP_
#define AWB_CORE_GRADING_BATCH_PUBLISH_HPP_

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace awb::core {

// The roster an assignment's batch adds to its set: not a report format (it needs the
// assignment), so not in the registry of graders/report/formats.hpp.
inline constexpr std::string_view kRosterFile = "roster.csv";
// Beside it, what it was made from (a sidecar: a spreadsheet imports the roster untouched).
inline constexpr std::string_view kRosterMetaFile = "roster.meta.json";

struct ReportFile {
  std::string name;  // relative to the set: "grades.csv", "gradescope/alice.json"
  std::string content;
};

// The MANIFEST.sha256 of a set: "<sha256>  <name>" per file, sorted by name; a name holding a
// backslash or newline is escaped as sha256sum writes it (the line then starts with '\').
std::string report_manifest(std::vector<ReportFile> files);

// Beside the journal: the submissions' files' digests, remembered (core/base/digest_cache.hpp)
// so that a resume reads again only the files that changed.
inline constexpr const char* kDigestCacheFile = "digests.tsv";

// Removes what an interrupted publish (or cache write) left in `results`; never the journal, the
// current generation, or files awb did not write. Best effort: a leftover it cannot remove
// stays for the next run.
void clean_results(const std::filesystem::path& results);

// The generation RESULTS/current points at, or "" when there is none yet.
std::string current_generation(const std::filesystem::path& results);

// Publishes `files` as the new current set (see above). Throws awb::Error("io.write") naming
// the step that failed and what `results` then holds: the previous set, intact, unless the
// failure came after the new set became current (then the new set, with a familiar link
// possibly missing).
void publish_report_set(const std::filesystem::path& results, std::vector<ReportFile> files);

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_BATCH_PUBLISH_HPP_
