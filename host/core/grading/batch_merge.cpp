// batch_merge.cpp: reads each shard's manifest, checks the shards belong together, takes the
// records their reports were built from out of their journals, and publishes the class's set.
#include "core/grading/batch_merge.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "core/base/bounded_read.hpp"
#include "core/base/version.hpp"
#include "core/grading/batch.hpp"
#include "core/grading/batch_publish.hpp"
#include "core/grading/batch_results.hpp"
#include "core/grading/batch_shard.hpp"
#include "graders/model/error.hpp"
#include "graders/model/text.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;

// A class of tens of thousands of submissions stays far below it.
constexpr uintmax_t kShardManifestMaxBytes = uintmax_t{64} << 20;

struct ShardFolder {
  fs::path folder;
  ShardManifest manifest;
};

std::string describe(const ShardFolder& s) {
  return "shard " + to_string(s.manifest.shard) + " (" + s.folder.string() + ")";
}

// Whether `path` is `folder` or inside it (both as folder_path gives them).
bool inside(const fs::path& path, const fs::path& folder) {
  const auto [end, _] = std::mismatch(folder.begin(), folder.end(), path.begin(), path.end());
  return end == folder.end();
}

// The folder as one absolute path, links resolved: two spellings of a folder compare equal.
fs::path folder_path(const fs::path& p) {
  std::error_code ec;
  fs::path c = fs::weakly_canonical(fs::absolute(p), ec);
  return c.has_filename() ? c : c.parent_path();  // "dir/" is "dir"
}

// The manifest in the folder's current report set: there only once the shard's run finished.
ShardFolder read_shard(const fs::path& folder) {
  const fs::path file = folder / "current" / std::string(kShardFile);
  const std::optional<std::string> text =
      read_bounded_file(file, kShardManifestMaxBytes, "the shard manifest");
  if (!text)
    throw Error("batch.shard_unfinished", folder.string(),
                "no finished shard here: its reports hold no " + std::string(kShardFile) +
                    " (grade it with awb grade --batch ... --shard I/N; a run that was stopped "
                    "finishes with --resume)");
  return {folder, parse_manifest(*text, file)};
}

// The grading options as "name=value;..." (batch.cpp's options_text): the option whose value
// differs, named as given on the command line ("--cpu-limit 2, unset in the other").
std::string options_difference(const std::string& a, const std::string& b) {
  auto parse = [](const std::string& text) {
    std::map<std::string, std::string> out;  // a repeated name (--param) joins its values
    size_t at = 0;
    while (at <= text.size()) {
      const size_t end = std::min(text.find(';', at), text.size());
      const std::string item = text.substr(at, end - at);
      const size_t eq = item.find('=');
      std::string& v = out[item.substr(0, eq)];
      v += (v.empty() ? "" : " ") + (eq == std::string::npos ? "" : item.substr(eq + 1));
      at = end + 1;
    }
    return out;
  };
  const auto ma = parse(a), mb = parse(b);
  std::set<std::string> names;
  for (const auto& [k, v] : ma) names.insert(k);
  for (const auto& [k, v] : mb) names.insert(k);
  for (const std::string& name : names) {
    const auto ia = ma.find(name), ib = mb.find(name);
    const std::string va = ia == ma.end() ? "" : ia->second;
    const std::string vb = ib == mb.end() ? "" : ib->second;
    if (va == vb) continue;
    std::string option = "--" + name;
    std::replace(option.begin(), option.end(), '_', '-');
    auto said = [](const std::string& v) { return v.empty() ? std::string("unset") : v; };
    return "another " + option + " (" + said(vb) + ", " + said(va) +
           " in the other; grading options '" + b + "', '" + a + "')";
  }
  return "other grading options ('" + b + "', '" + a + "')";
}

// The first field in which `b` differs from `a`, said for the user; "" when they agree.
std::string difference(const ShardManifest& a, const ShardManifest& b) {
  auto quoted = [](const std::string& s) { return "'" + s + "'"; };
  if (a.rule != b.rule)
    return "another shard rule (" + quoted(b.rule) + ", " + quoted(a.rule) + ")";
  if (a.shard.count != b.shard.count)
    return "another count of shards (" + std::to_string(b.shard.count) + ", " +
           std::to_string(a.shard.count) + ")";
  if (a.awb_version != b.awb_version)
    return "another awb version (" + b.awb_version + ", " + a.awb_version + ")";
  if (a.assignment_sha256 != b.assignment_sha256)
    return "another assignment (sha256 " + quoted(b.assignment_sha256) + ", " +
           quoted(a.assignment_sha256) + ")";
  if (a.options != b.options) return options_difference(a.options, b.options);
  if (a.exercises != b.exercises) {
    std::vector<std::string> ids_a, ids_b;
    for (const auto& e : a.exercises) ids_a.push_back(e.first);
    for (const auto& e : b.exercises) ids_b.push_back(e.first);
    if (ids_a != ids_b)
      return "other exercises ([" + join(ids_b, ", ") + "], [" + join(ids_a, ", ") + "])";
    for (size_t i = 0; i < a.exercises.size(); ++i)
      if (a.exercises[i].second != b.exercises[i].second)
        return "another version of exercise " + a.exercises[i].first +
               " (its file changed between the runs)";
  }
  if (a.class_sha256 != b.class_sha256)
    return "another set of submissions (" + std::to_string(b.class_size) + " submission(s), " +
           std::to_string(a.class_size) +
           "): the submissions folder changed between the shards' runs, or they graded different "
           "folders; grade every shard again with --resume (only what changed is graded)";
  return "";
}

void check_together(const std::vector<ShardFolder>& shards) {
  const ShardFolder& first = shards.front();
  if (first.manifest.awb_version != AWB_VERSION)
    throw Error("batch.shard_mismatch", first.folder.string(),
                describe(first) + " was graded by awb " + first.manifest.awb_version +
                    ", this is awb " + AWB_VERSION + ": merge with the awb that graded the shards");
  for (const auto& s : shards)
    if (const std::string why = difference(first.manifest, s.manifest); !why.empty())
      throw Error("batch.shard_mismatch", s.folder.string(),
                  describe(s) + " does not belong with " + describe(first) +
                      ": it was graded with " + why +
                      "; merge shards of one run of awb grade --batch ... --shard I/N");

  std::map<fs::path, const ShardFolder*> folders;
  std::map<int, const ShardFolder*> by_index;
  for (const auto& s : shards) {
    if (const auto [it, fresh] = folders.emplace(folder_path(s.folder), &s); !fresh)
      throw Error("batch.shard_duplicate", s.folder.string(),
                  "this folder is given twice (as " + it->second->folder.string() + " and " +
                      s.folder.string() + ")");
    if (const auto [it, fresh] = by_index.emplace(s.manifest.shard.index, &s); !fresh)
      throw Error("batch.shard_duplicate", s.folder.string(),
                  "shard " + to_string(s.manifest.shard) + " is given twice: " +
                      it->second->folder.string() + " and " + s.folder.string());
  }
  std::vector<std::string> missing;
  for (int i = 0; i < first.manifest.shard.count; ++i)
    if (!by_index.count(i)) missing.push_back(std::to_string(i));
  if (!missing.empty())
    throw Error("batch.shard_missing", "",
                "shard(s) " + join(missing, ", ") + " of " +
                    std::to_string(first.manifest.shard.count) + " not given (" +
                    std::to_string(shards.size()) + " given): pass every shard's results folder");

  std::map<std::string, const ShardFolder*> owner;
  for (const auto& s : shards)
    for (const auto& [name, subjects] : s.manifest.submissions)
      if (const auto [it, fresh] = owner.emplace(name, &s); !fresh)
        throw Error("batch.shard_overlap", s.folder.string(),
                    "submission " + name + " is in " + describe(*it->second) + " and in " +
                        describe(s) + ": each submission belongs to one shard");
}

// The merge's own assignment must be the one the shards were graded under: the roster's
// columns, maxima and late policy come from it.
void check_assignment(const ShardManifest& m, const Assignment* assignment) {
  if (assignment == nullptr) {
    if (!m.assignment_sha256.empty())
      throw Error("batch.shard_mismatch", "",
                  "the shards were graded under an assignment: give the merge the same "
                  "--assignment (and --exercises) as the shards");
    return;
  }
  if (m.assignment_sha256.empty())
    throw Error("batch.shard_mismatch", "",
                "the shards were graded without an assignment: merge them without --assignment");
  if (assignment->sha256 != m.assignment_sha256)
    throw Error("batch.shard_mismatch", "",
                "the assignment given is not the one the shards were graded under (sha256 " +
                    assignment->sha256 + ", theirs " + m.assignment_sha256 + ")");
  std::vector<std::pair<std::string, std::string>> mine;
  for (const Exercise* ex : assignment->exercise_list()) mine.emplace_back(ex->id, ex->sha256);
  if (mine != m.exercises)
    throw Error("batch.shard_mismatch", "",
                "the assignment's exercises as loaded now differ from those the shards graded (an "
                "exercise file changed, or another --exercises folder)");
}

// The merge's own time inputs, checked against the whole class. Lateness is computed from them
// alone, so shards graded with another file of the same kind merge under this one; shards
// graded with a kind of file the merge lacks are refused rather than fall back to file times.
TimeInputs merge_times(const std::vector<ShardFolder>& shards, const MergeOptions& options) {
  if (!options.times.empty() && options.assignment == nullptr)
    throw Error("batch.usage", "", "--submitted-at and --extensions need --assignment");
  for (const auto& s : shards) {
    const bool had_times = !s.manifest.submitted_at_sha256.empty();
    const bool had_extensions = !s.manifest.extensions_sha256.empty();
    if ((had_times && options.times.submitted_at.empty()) ||
        (had_extensions && options.times.extensions.empty()))
      throw Error("batch.shard_mismatch", s.folder.string(),
                  describe(s) + " was graded with " +
                      (had_times && options.times.submitted_at.empty() ? "--submitted-at"
                                                                       : "--extensions") +
                      ": give the merge that file too (lateness is computed by the merge)");
  }
  std::set<std::string> names;
  for (const auto& s : shards)
    for (const auto& [name, subjects] : s.manifest.submissions) names.insert(name);
  return read_time_inputs(options.times, names);
}

// The records of the shard's reports, from its journal.
std::vector<JournalRecord> shard_records(const ShardFolder& s) {
  const fs::path journal = s.folder / "journal.jsonl";
  JournalContents contents;
  try {
    contents = read_idle_journal(journal);
  } catch (const Error& e) {
    if (e.id() != "batch.journal_locked") throw;
    throw Error("batch.shard_unfinished", s.folder.string(),
                describe(s) + " is being graded now (its journal is " + e.message() +
                    "); merge once it has finished");
  }
  const std::vector<JournalKey> wanted = manifest_keys(s.manifest);
  const std::set<JournalKey> keys(wanted.begin(), wanted.end());
  std::vector<JournalRecord> records;
  for (auto& r : contents.records)
    if (keys.count(r.key)) records.push_back(std::move(r));
  if (records.size() != keys.size())
    throw Error("batch.shard_unfinished", journal.string(),
                "the journal of " + describe(s) + " lacks " +
                    std::to_string(keys.size() - records.size()) + " of the " +
                    std::to_string(keys.size()) +
                    " results its reports hold; grade it again with --resume");
  return records;
}

}  // namespace

MergeSummary merge_shards(const MergeOptions& options) {
  if (options.shards.empty()) throw Error("batch.shard_missing", "", "no shard given");
  std::vector<ShardFolder> shards;
  for (const auto& folder : options.shards) shards.push_back(read_shard(folder));
  const fs::path out = folder_path(options.out);
  for (const auto& folder : options.shards)
    if (inside(out, folder_path(folder)))
      throw Error("batch.usage", options.out.string(),
                  "the merged reports (--out) must not go into a shard's results folder (" +
                      folder.string() + ")");
  std::error_code ec;
  if (fs::exists(fs::symlink_status(options.out / "journal.jsonl", ec)))
    throw Error("batch.usage", options.out.string(),
                "holds a batch's journal: the merged reports would replace that batch's own; "
                "merge into another folder");

  check_together(shards);
  check_assignment(shards.front().manifest, options.assignment);
  const TimeInputs times = merge_times(shards, options);

  // Held to the end: a second merge (or a batch) into `out` is refused meanwhile.
  const ResultsFolder claimed = ResultsFolder::claim(options.out, ResultsKind::kMerge);
  std::vector<JournalRecord> records;
  std::map<std::string, std::string> shipped;
  MergeSummary summary;
  summary.shards = static_cast<int>(shards.size());
  for (const auto& s : shards) {
    std::vector<JournalRecord> mine = shard_records(s);
    // What the shard's run saw of each submission's tree, not what its journal first recorded.
    for (auto& r : mine) {
      const auto note = s.manifest.notes.find(r.key.submission);
      r.note = note == s.manifest.notes.end() ? "" : note->second;
    }
    std::move(mine.begin(), mine.end(), std::back_inserter(records));
    shipped.insert(s.manifest.shipped_copies.begin(), s.manifest.shipped_copies.end());
    summary.submissions += static_cast<int>(s.manifest.submissions.size());
  }
  summary.results = static_cast<int>(records.size());

  // What run_batch does with the records of a whole class, from here on.
  const BatchReports reports = build_batch_reports(records);
  std::vector<grade::RosterRow> roster;
  if (options.assignment) {
    // The folders may be elsewhere: the file times are those each shard's run journaled.
    std::map<std::string, int64_t> mtimes;
    for (const auto& r : records) mtimes[r.key.submission] = r.submitted_at;
    roster = roster_rows(reports, records, *options.assignment, shipped, times, mtimes);
  }
  write_batch_reports(reports, options.out, options.view, options.assignment, roster, {}, times);
  return summary;
}

}  // namespace awb::core
