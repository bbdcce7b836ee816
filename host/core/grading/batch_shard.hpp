// batch_shard.hpp: a batch split into shards (awb grade --batch ... --shard I/N, one per task of
// a cluster's job array): which shard each submission belongs to, and the manifest a finished
// shard publishes with its reports, from which batch_merge.hpp rebuilds the class's reports.
//
// The rule: submission NAME is in shard int(first 16 hex digits of sha256(NAME), 16) mod N. It
// depends on the name and N alone, so a submission stays in its shard when others are added or
// removed, and every task computes the same split without talking to the others.
//
// The manifest (shard.json in the shard's report set, so it is published whole with them; its
// presence marks a finished shard) holds what the shards must agree on (N, the rule, awb
// version, grading options, exercises, assignment, the class as a whole) and what the merge
// needs of each shard: its submissions with their subjects (with the exercises, the keys of
// every journal record its reports were built from) and the files of its submissions that are
// byte copies of a plugin or mutant shipped with awb.
#ifndef AWB_CORE_GRADING_BATCH_SHARD_HPP_
#define AWB_CORE_GRADING_BATCH_SHARD_HPP_

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/grading/assignment.hpp"
#include "core/grading/batch_journal.hpp"

namespace awb::core {

// Shard `index` of `count`; the index counts from 0, as every index of awb's command line.
struct Shard {
  int index = 0;
  int count = 1;
  bool operator==(const Shard&) const = default;
};
// A cluster's job arrays are far smaller; the cap keeps "I/N" one plain number each.
inline constexpr int kMaxShards = 100000;

// "I/N" with 0 <= I < N <= kMaxShards, digits only; nothing, with the reason in `why`, else.
std::optional<Shard> parse_shard(std::string_view text, std::string* why = nullptr);
std::string to_string(const Shard& shard);  // "I/N"

// The shard (0 .. count-1) a submission of this name belongs to (the rule above).
int shard_of(std::string_view submission, int count);
// The submission folders of `shard`, in the order given.
std::vector<std::filesystem::path> shard_submissions(
    const std::vector<std::filesystem::path>& submissions, const Shard& shard);

// The file a shard adds to its report set.
inline constexpr std::string_view kShardFile = "shard.json";
inline constexpr std::string_view kShardRule = "sha256(name) mod N";

struct ShardManifest {
  Shard shard;
  std::string rule = std::string(kShardRule);
  std::string awb_version;
  std::string options;                                         // the journal keys' grading options
  std::vector<std::pair<std::string, std::string>> exercises;  // (id, sha256), graded in order
  std::string assignment_sha256;                               // "" without an assignment
  // Every submission of the folder, in every shard: how many, and the sha256 of their names
  // (one a line, sorted), so shards that saw the folder differently do not merge.
  int class_size = 0;
  std::string class_sha256;
  // This shard's submissions, each with its subjects: (subject, plugin sha256) as in the keys.
  std::map<std::string, std::vector<std::pair<std::string, std::string>>> submissions;
  // sha256 -> "bundled plugin awb_qkv.so": the shipped files its graded files are copies of.
  std::map<std::string, std::string> shipped_copies;
  // Each submission's note as this run computed it from its tree ("not graded: ...", "did not
  // load: ..."): the merge's comments, whatever the journal's first record of it said.
  std::map<std::string, std::string> notes;
  // The sha256 of the --submitted-at and --extensions files the shard was graded with ("": none;
  // the manifest's "times" entry, absent then). Lateness is computed again by the merge from the
  // files given to it, which must include each kind the shards had.
  std::string submitted_at_sha256, extensions_sha256;
};

// The manifest of a shard's run: its submissions (names of its folders) with the subjects of
// `records` (the records its reports are built from), the class (names of every folder).
ShardManifest make_shard_manifest(const Shard& shard, const std::string& options,
                                  const std::vector<const Exercise*>& exercises,
                                  const Assignment* assignment,
                                  const std::vector<std::filesystem::path>& everyone,
                                  const std::vector<std::filesystem::path>& mine,
                                  const std::vector<JournalRecord>& records,
                                  const std::map<std::string, std::string>& shipped_copies);
// The journal keys of every result the shard's reports hold.
std::vector<JournalKey> manifest_keys(const ShardManifest& manifest);

// JSON text, keys in a fixed order (the same manifest gives the same bytes).
std::string manifest_text(const ShardManifest& manifest);
// Throws awb::Error("io.read", file) when `text` is not such a manifest.
ShardManifest parse_manifest(const std::string& text, const std::filesystem::path& file);

}  // namespace awb::core

#endif  // AWB_CORE_GRADING_BATCH_SHARD_HPP_
