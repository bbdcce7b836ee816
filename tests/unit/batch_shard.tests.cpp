// batch_shard.tests.cpp: a batch in shards: the shard rule, the shards' merge giving the bytes
// of one unsharded run, and every refusal of shards that do not belong together.
#include "core/grading/batch_shard.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "core/exercises/exercise.hpp"
#include "core/grading/batch.hpp"
#include "core/grading/batch_journal.hpp"
#include "core/grading/batch_merge.hpp"
#include "graders/model/error.hpp"
#include "support/scratch.hpp"
#include "support/test_support.hpp"

using namespace awb;
using awb::test::scratch;
using awb::test::slurp;
using awb::test::spit;
namespace fs = std::filesystem;

namespace {

const fs::path kPlugins = AWB_TEST_PLUGIN_DIR;

// Every file under `root` (links followed), by its path relative to it.
std::map<std::string, std::string> files_under(const fs::path& root) {
  std::map<std::string, std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root))
    if (e.is_regular_file()) out[fs::relative(e.path(), root).string()] = slurp(e.path());
  return out;
}

core::BatchOptions batch_options(const fs::path& subs, const fs::path& results,
                                 const std::vector<const core::Exercise*>& exercises,
                                 std::optional<core::Shard> shard) {
  core::BatchOptions o;
  o.submissions = subs;
  o.results = results;
  o.exercises = exercises;
  o.grading.trust_all = true;  // in-process: the tests are about reports, not isolation
  o.shard = shard;
  return o;
}

// The merge of `shards` into `out` fails with `id`, its message holding `text`.
void refused(const std::vector<fs::path>& shards, const fs::path& out, const std::string& id,
             const std::string& text, const core::Assignment* assignment = nullptr) {
  core::MergeOptions m;
  m.shards = shards;
  m.out = out;
  m.assignment = assignment;
  test::check_refused([&] { core::merge_shards(m); }, id, text);
}

}  // namespace

TEST_CASE("shard: I/N counts from 0, and a submission's shard is sha256(name) mod N",
          "[batch][shard]") {
  std::string why;
  CHECK(core::parse_shard("0/1") == core::Shard{0, 1});
  CHECK(core::parse_shard("3/4") == core::Shard{3, 4});
  CHECK(core::parse_shard("99999/100000") == core::Shard{99999, 100000});
  for (const char* bad : {"4/4", "1/0", "0/0", "-1/4", "1", "1/", "/4", "a/b", "1.5/4", "1/4/2",
                          " 1/4", "1/4 ", "+1/4", "0/100001", "99999999999999999999/4", ""}) {
    INFO(bad);
    CHECK_FALSE(core::parse_shard(bad, &why));
    CHECK_FALSE(why.empty());
  }
  core::parse_shard("4/4", &why);
  CHECK_THAT(why, Catch::Contains("counts from 0") && Catch::Contains("3/4"));

  // The rule as docs/guide-instructor.md states it: int(sha256(name)[:16 hex digits], 16) mod N.
  CHECK(core::shard_of("alice", 4) == 3);
  CHECK(core::shard_of("bob", 4) == 2);
  CHECK(core::shard_of("01-correct", 4) == 0);
  CHECK(core::shard_of("alice", 7) == 1);

  // Every submission in exactly one shard; one added later moves no other.
  std::vector<fs::path> subs;
  for (int i = 0; i < 40; ++i) subs.push_back("class/student-" + std::to_string(i));
  std::vector<fs::path> more = subs;
  more.push_back("class/latecomer");
  size_t total = 0;
  for (int i = 0; i < 4; ++i) {
    const auto mine = core::shard_submissions(subs, {i, 4});
    total += mine.size();
    CHECK_FALSE(mine.empty());  // 40 names over 4 shards
    auto later = core::shard_submissions(more, {i, 4});
    later.erase(std::remove(later.begin(), later.end(), fs::path("class/latecomer")), later.end());
    CHECK(later == mine);
  }
  CHECK(total == subs.size());
}

TEST_CASE("shard: the shards of a class merge into the bytes one unsharded run publishes",
          "[batch][shard][assignment]") {
  const fs::path dir = scratch("shard-merge");
  const fs::path subs = dir / "subs";
  // Under 3 shards: cy and fay in 0, hal in 1, the others in 2; cy and fay hand in ann's bytes,
  // so the roster's identical-file comments must cross shards.
  REQUIRE(core::shard_of("cy", 3) == 0);
  REQUIRE(core::shard_of("fay", 3) == 0);
  REQUIRE(core::shard_of("ann", 3) == 2);
  REQUIRE(core::shard_of("hal", 3) == 1);
  for (const char* s : {"ann", "bob", "cy", "dee", "eve", "fay", "hal"})
    fs::create_directories(subs / s);
  fs::copy_file(kPlugins / "awb_qkv.so", subs / "ann" / "attention.so");
  fs::copy_file(kPlugins / "awb_parameter_free.so", subs / "bob" / "a.so");
  fs::copy_file(kPlugins / "awb_multi_head.so", subs / "bob" / "b.so");
  fs::copy_file(kPlugins / "awb_qkv.so", subs / "cy" / "mine.so");
  spit(subs / "dee" / "broken.so", "not an ELF file");
  fs::copy_file(kPlugins / "awb_causal.so", subs / "eve" / "attention.so");
  fs::copy_file(kPlugins / "awb_qkv.so", subs / "fay" / "attention.so");
  // hal hands in nothing.

  const auto set = core::load_exercises({core::bundled_exercise_dir()});
  REQUIRE(set.errors.empty());
  const auto load =
      core::load_assignment(core::bundled_assignment_dir() / "qkv.yaml", set.exercises);
  REQUIRE(load.errors.empty());
  const core::Assignment& a = *load.assignment;
  auto options = [&](const fs::path& results, std::optional<core::Shard> shard) {
    core::BatchOptions o = batch_options(subs, results, a.exercise_list(), shard);
    o.assignment = &a;
    o.view = {true, false};
    return o;
  };

  core::run_batch(options(dir / "whole", std::nullopt));
  std::vector<fs::path> shards;
  for (int i = 0; i < 3; ++i) {
    shards.push_back(dir / ("shard-" + std::to_string(i)));
    const auto s = core::run_batch(options(shards.back(), core::Shard{i, 3}));
    CHECK(s.submissions == (i == 2 ? 4 : 2 - i));
  }
  // Each shard's own reports: its submissions only, and its manifest.
  CHECK(fs::exists(dir / "shard-2" / "gradescope" / "ann.json"));
  CHECK_FALSE(fs::exists(dir / "shard-2" / "gradescope" / "cy.json"));
  CHECK(fs::exists(dir / "shard-2" / "shard.json"));
  // (its identical-file comments see that shard alone: cy and fay, not ann)
  CHECK_THAT(slurp(dir / "shard-0" / "roster.csv"),
             Catch::Contains("identical to the bundled plugin awb_qkv.so") &&
                 Catch::Contains("identical to the file graded for fay") &&
                 !Catch::Contains("ann"));

  core::MergeOptions m;
  // Any order: the records of shard 0 come before ann's here, yet the roster names ann first.
  m.shards = {shards[1], shards[0], shards[2]};
  m.out = dir / "merged";
  m.assignment = &a;
  m.view = {true, false};
  const auto summary = core::merge_shards(m);
  CHECK(summary.shards == 3);
  CHECK(summary.submissions == 7);

  const auto whole = files_under(dir / "whole" / "current");
  const auto merged = files_under(dir / "merged" / "current");
  CHECK(whole.count("roster.csv"));
  CHECK(whole.count("gradescope/hal.json"));
  CHECK(whole.size() == merged.size());
  for (const auto& [name, bytes] : whole) {
    INFO(name);
    REQUIRE(merged.count(name));
    CHECK(merged.at(name) == bytes);  // the manifests too: the same files, the same bytes
  }
  CHECK_THAT(slurp(dir / "merged" / "roster.csv"),
             Catch::Contains("identical to the file graded for cy, fay") &&
                 Catch::Contains("identical to the file graded for ann, fay"));
}

TEST_CASE("shard: merge refuses shards that do not belong together, saying why", "[batch][shard]") {
  const fs::path dir = scratch("shard-refusals");
  const fs::path subs = dir / "subs";
  // Under 2 shards: ann, bob and cy in 0, fay and hal in 1.
  REQUIRE(core::shard_of("ann", 2) == 0);
  REQUIRE(core::shard_of("fay", 2) == 1);
  for (const char* s : {"ann", "bob", "cy", "fay", "hal"}) {
    fs::create_directories(subs / s);
    fs::copy_file(kPlugins / "awb_parameter_free.so", subs / s / "attention.so");
  }
  const auto set = core::load_exercises({core::bundled_exercise_dir()});
  REQUIRE(set.errors.empty());
  const std::vector<const core::Exercise*> one{&set.exercises.front()};
  auto grade = [&](const std::string& name, std::optional<core::Shard> shard, int strictness = 2) {
    core::BatchOptions o = batch_options(subs, dir / name, one, shard);
    o.grading.strictness = strictness;
    core::run_batch(o);
    return dir / name;
  };
  const fs::path s0 = grade("s0", core::Shard{0, 2});
  const fs::path s1 = grade("s1", core::Shard{1, 2});
  const fs::path out = dir / "out";

  // The pair itself merges.
  core::MergeOptions m;
  m.shards = {s0, s1};
  m.out = out;
  CHECK(core::merge_shards(m).submissions == 5);

  refused({s0}, out, "batch.shard_missing", "shard(s) 1 of 2 not given");
  refused({s0, s0, s1}, out, "batch.shard_duplicate", "given twice");
  fs::copy(s0, dir / "s0-copy", fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  refused({s0, dir / "s0-copy", s1}, out, "batch.shard_duplicate", "shard 0/2 is given twice");
  refused({s0, s1, grade("third", core::Shard{2, 3})}, out, "batch.shard_mismatch",
          "another count of shards (3, 2)");
  refused({s0, grade("strict", core::Shard{1, 2}, 1)}, out, "batch.shard_mismatch",
          "another --strictness (1, 2 in the other");

  // A submission handed in after shard 0 ran: shard 1 saw another class.
  fs::create_directories(subs / "gus");
  refused({s0, grade("late", core::Shard{1, 2})}, out, "batch.shard_mismatch",
          "another set of submissions (6 submission(s), 5)");
  fs::remove_all(subs / "gus");

  const auto load =
      core::load_assignment(core::bundled_assignment_dir() / "qkv.yaml", set.exercises);
  REQUIRE(load.errors.empty());
  refused({s0, s1}, out, "batch.shard_mismatch", "graded without an assignment", &*load.assignment);

  // A manifest claiming another shard's submission.
  const fs::path over = dir / "s1-over";
  fs::copy(s1, over, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  const fs::path manifest = over / "current" / "shard.json";
  auto j = nlohmann::ordered_json::parse(slurp(manifest));
  j["submissions"]["ann"] = j["submissions"]["fay"];
  spit(manifest, j.dump());
  refused({s0, over}, out, "batch.shard_overlap", "submission ann is in shard 0/2");

  // Unfinished: no shard here, a run still writing the journal, a journal without its results.
  refused({s0, grade("plain", std::nullopt)}, out, "batch.shard_unfinished",
          "no finished shard here");
  {
    core::JournalContents contents;
    const auto running = core::Journal::resume(s1 / "journal.jsonl", contents);
    refused({s0, s1}, out, "batch.shard_unfinished", "is being graded now");
  }
  const fs::path torn = dir / "s1-torn";
  fs::copy(s1, torn, fs::copy_options::recursive | fs::copy_options::copy_symlinks);
  const std::string journal = slurp(torn / "journal.jsonl");
  spit(torn / "journal.jsonl", journal.substr(0, journal.find('\n') + 1));
  refused({s0, torn}, out, "batch.shard_unfinished", "lacks 1 of the 2 results");

  // The merged reports never go into a shard or over a batch's own.
  refused({s0, s1}, s0, "batch.usage", "must not go into a shard's results folder");
  refused({s0, s1}, s1 / "merged", "batch.usage", "must not go into a shard's results folder");
  refused({s0, s1}, dir / "plain", "batch.usage", "holds a batch's journal");
}
