// batch.tests.cpp: the batch journal (round trip, torn and corrupt lines, checksums) and
// run_batch's resume: a result is graded again exactly when its key changes.
#include "core/grading/batch.hpp"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <map>

#include "core/base/version.hpp"
#include "core/exercises/exercise.hpp"
#include "core/grading/batch_journal.hpp"
#include "graders/model/error.hpp"
#include "graders/report/format.hpp"
#include "support/scratch.hpp"

using namespace awb;
using awb::test::scratch;
using awb::test::slurp;
using awb::test::spit;
namespace fs = std::filesystem;

namespace {

core::JournalRecord sample_record(const std::string& subject, const std::string& exercise) {
  core::JournalRecord r;
  r.key = {"alice",
           subject,
           exercise,
           std::string(64, 'e'),
           std::string(64, 'p'),
           "0.1.0",
           "scalar=f64;strictness=2"};
  r.plugin_file = "plugin.so";
  r.report.exercise_id = exercise;
  r.report.title = "Softmax \"basics\" <&>\nsecond line, ünïcödé";
  r.report.provenance = {"0.1.0", std::string(64, 'e'), std::string(64, 'p'), "in-process", ""};
  grade::CheckResult c;
  c.id = "rows-sum";
  c.name = "rows_sum_to_one";
  c.kind = grade::CheckKind::kProperty;
  c.status = grade::Status::kFailed;
  c.points = 0.5;
  c.max_points = 1.0 / 3.0;
  c.summary = "row 2 sums to 1.37";
  c.details = "row 2: sum 1.37\n\trow 3: sum 0.91";
  c.diagnosis = "looks like dividing by the row sum";
  c.hint = "exponentiate first";
  c.visibility = grade::Visibility::kAfterDueDate;
  r.report.checks.push_back(c);
  c.id = "ref";
  c.kind = grade::CheckKind::kReference;
  c.status = grade::Status::kNotRun;
  c.visibility = grade::Visibility::kHidden;
  r.report.checks.push_back(c);
  r.report.score = 0.5;
  r.report.max_score = 1.0 / 3.0;
  r.seconds = 0.123456789;
  r.finished_at = "2024-05-01T12:00:00Z";
  return r;
}

void check_same(const core::JournalRecord& a, const core::JournalRecord& b) {
  CHECK(a.key == b.key);
  CHECK(a.plugin_file == b.plugin_file);
  CHECK(a.seconds == b.seconds);
  CHECK(a.finished_at == b.finished_at);
  CHECK(a.report.exercise_id == b.report.exercise_id);
  CHECK(a.report.title == b.report.title);
  CHECK(a.report.provenance.plugin_sha256 == b.report.provenance.plugin_sha256);
  CHECK(a.report.provenance.lockdown == b.report.provenance.lockdown);
  CHECK(a.report.score == b.report.score);
  CHECK(a.report.max_score == b.report.max_score);
  CHECK(a.report.not_gradable == b.report.not_gradable);
  REQUIRE(a.report.checks.size() == b.report.checks.size());
  for (size_t i = 0; i < a.report.checks.size(); ++i) {
    const auto& x = a.report.checks[i];
    const auto& y = b.report.checks[i];
    CHECK(x.id == y.id);
    CHECK(x.name == y.name);
    CHECK(x.kind == y.kind);
    CHECK(x.status == y.status);
    CHECK(x.points == y.points);
    CHECK(x.max_points == y.max_points);
    CHECK(x.summary == y.summary);
    CHECK(x.details == y.details);
    CHECK(x.diagnosis == y.diagnosis);
    CHECK(x.hint == y.hint);
    CHECK(x.visibility == y.visibility);
  }
}

// Three records in a fresh journal; returns its path.
fs::path journal_of_three(const fs::path& dir) {
  const fs::path file = dir / "journal.jsonl";
  auto journal = core::Journal::create(file);
  for (const char* ex : {"a", "b", "c"}) journal.append(sample_record("alice", ex));
  return file;
}

}  // namespace

TEST_CASE("batch: a journal line reads back field for field", "[batch]") {
  const auto record = sample_record("alice", "softmax");
  const std::string line = core::journal_line(record);
  REQUIRE(line.back() == '\n');
  CHECK(std::count(line.begin(), line.end(), '\n') == 1);  // one line, whatever the text holds
  std::string why;
  const auto back =
      core::parse_journal_line(std::string_view(line).substr(0, line.size() - 1), &why);
  INFO(why);
  REQUIRE(back);
  check_same(record, *back);
  // Written again, the line is the same bytes: the checksum covers a canonical form.
  CHECK(core::journal_line(*back) == line);
}

TEST_CASE("batch: invalid UTF-8 from a plugin still gives a line that reads back", "[batch]") {
  auto record = sample_record("alice", "softmax");
  record.report.checks[0].summary = "bad \xff\xfe bytes";
  const std::string line = core::journal_line(record);
  const auto back = core::parse_journal_line(std::string_view(line).substr(0, line.size() - 1));
  REQUIRE(back);
  CHECK(back->report.checks[0].summary == "bad \xEF\xBF\xBD\xEF\xBF\xBD bytes");
}

TEST_CASE("batch: the journal file round trips and refuses to be created twice", "[batch]") {
  const fs::path dir = scratch("round-trip");
  const fs::path file = journal_of_three(dir);
  const auto contents = core::read_journal(file);
  CHECK_FALSE(contents.torn_tail);
  CHECK(contents.warnings.empty());
  CHECK(contents.good_bytes == fs::file_size(file));
  REQUIRE(contents.records.size() == 3);
  check_same(contents.records[1], sample_record("alice", "b"));
  try {
    core::Journal::create(file);
    FAIL("a second journal was created over the first");
  } catch (const Error& e) {
    CHECK(e.id() == "batch.journal_exists");
    CHECK_THAT(e.message(), Catch::Contains("--resume"));
  }
  CHECK(core::read_journal(dir / "missing.jsonl").records.empty());
}

TEST_CASE("batch: a torn last line is dropped and cut off on resume", "[batch]") {
  const fs::path dir = scratch("torn");
  const fs::path file = journal_of_three(dir);
  const auto good = fs::file_size(file);
  const std::string fourth = core::journal_line(sample_record("alice", "d"));
  {
    std::ofstream out(file, std::ios::binary | std::ios::app);
    out << fourth.substr(0, fourth.size() / 2);  // killed mid-write
  }
  auto contents = core::read_journal(file);
  CHECK(contents.torn_tail);
  CHECK(contents.records.size() == 3);
  CHECK(contents.good_bytes == good);
  REQUIRE(contents.warnings.size() == 1);
  CHECK_THAT(contents.warnings[0], Catch::Contains("line 4"));

  {
    core::JournalContents seen;
    auto journal = core::Journal::resume(file, seen);
    CHECK(seen.records.size() == 3);
    CHECK(fs::file_size(file) == good);  // truncated back to the last good line
    journal.append(sample_record("alice", "d"));
  }
  contents = core::read_journal(file);
  CHECK_FALSE(contents.torn_tail);
  CHECK(contents.warnings.empty());
  REQUIRE(contents.records.size() == 4);
  check_same(contents.records[3], sample_record("alice", "d"));
}

TEST_CASE("batch: a line whose checksum does not match is rejected", "[batch]") {
  const std::string line = core::journal_line(sample_record("alice", "a"));
  std::string tampered = line.substr(0, line.size() - 1);
  const auto at = tampered.find("\"score\":0.5");
  REQUIRE(at != std::string::npos);
  tampered.replace(at, 11, "\"score\":1.5");  // still valid JSON, a different grade
  std::string why;
  CHECK_FALSE(core::parse_journal_line(tampered, &why));
  CHECK(why == "checksum mismatch");
  CHECK_FALSE(core::parse_journal_line("{\"key\":1}", &why));
  CHECK(why == "no checksum");
  CHECK_FALSE(core::parse_journal_line("{\"key\":", &why));
  CHECK(why == "not valid JSON");

  SECTION("as the last line: dropped, and cut off on resume") {
    const fs::path dir = scratch("checksum-last");
    const fs::path file = journal_of_three(dir);
    const auto good = fs::file_size(file);
    spit(file, slurp(file) + tampered + "\n");
    const auto contents = core::read_journal(file);
    CHECK(contents.torn_tail);
    CHECK(contents.records.size() == 3);
    core::JournalContents seen;
    core::Journal::resume(file, seen);
    CHECK(fs::file_size(file) == good);
  }
  SECTION("in the middle: ignored, the lines after it kept") {
    const fs::path dir = scratch("checksum-middle");
    const fs::path file = journal_of_three(dir);
    std::string text = slurp(file);
    const auto first_end = text.find('\n') + 1;
    std::string first = text.substr(0, first_end);
    first[first.find("\"score\":0.5") + 8] = '7';
    spit(file, first + text.substr(first_end));
    const auto contents = core::read_journal(file);
    CHECK_FALSE(contents.torn_tail);
    REQUIRE(contents.records.size() == 2);
    CHECK(contents.records[0].key.exercise_id == "b");
    REQUIRE(contents.warnings.size() == 1);
    CHECK_THAT(contents.warnings[0], Catch::Contains("line 1: checksum mismatch"));
  }
}

TEST_CASE("batch: resume grades exactly the results whose key changed", "[batch]") {
  const fs::path dir = scratch("resume");
  const fs::path subs = dir / "subs", results = dir / "results";
  fs::create_directories(subs / "alice");
  fs::create_directories(subs / "bob");  // empty: not gradable
  fs::copy_file(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_parameter_free.so",
                subs / "alice" / "plugin.so");

  const auto set = core::load_exercises({core::bundled_exercise_dir()});
  REQUIRE(set.errors.empty());
  REQUIRE(set.exercises.size() >= 2);
  std::vector<core::Exercise> exercises(set.exercises.begin(), set.exercises.begin() + 2);
  auto options_for = [&](bool resume) {
    core::BatchOptions o;
    o.submissions = subs;
    o.results = results;
    for (const auto& e : exercises) o.exercises.push_back(&e);
    o.jobs = 2;
    o.resume = resume;
    return o;
  };

  auto s = core::run_batch(options_for(false));
  CHECK(s.submissions == 2);
  CHECK(s.not_gradable == 1);
  CHECK(s.graded == 4);
  CHECK(s.reused == 0);
  const std::string csv = slurp(results / "grades.csv");
  const std::string junit = slurp(results / "junit.xml");
  CHECK_THAT(csv,
             Catch::Contains("bob,0,0,0,0,not gradable,not gradable: discover: no plugin file"));
  CHECK_THAT(junit, Catch::Contains("time=\"0\""));  // no timing in the reports
  CHECK(fs::exists(results / "gradescope" / "alice.json"));
  CHECK(fs::exists(results / "gradescope" / "bob.json"));
  // PrairieLearn's file per submission: bob's holds nothing to grade, so it is not gradable.
  CHECK_THAT(slurp(results / "prairielearn" / "alice.json"), Catch::Contains("\"gradable\": true"));
  const std::string bob_pl = slurp(results / "prairielearn" / "bob.json");
  CHECK_THAT(bob_pl, Catch::Contains("\"gradable\": false"));
  CHECK_THAT(bob_pl, Catch::Contains("\"format_errors\": [\n    \"discover: no plugin file"));

  SECTION("an existing journal without resume is refused") {
    try {
      core::run_batch(options_for(false));
      FAIL("ran over an existing journal");
    } catch (const Error& e) {
      CHECK(e.id() == "batch.journal_exists");
    }
  }
  SECTION("nothing changed: nothing graded, the same reports") {
    s = core::run_batch(options_for(true));
    CHECK(s.graded == 0);
    CHECK(s.reused == 4);
    CHECK(slurp(results / "grades.csv") == csv);
    CHECK(slurp(results / "junit.xml") == junit);
    CHECK(core::read_journal(results / "journal.jsonl").records.size() == 4);
  }
  SECTION("an edited exercise: only its results are graded again") {
    exercises[1].sha256 = std::string(64, '0');
    s = core::run_batch(options_for(true));
    CHECK(s.graded == 2);  // alice and bob on the edited exercise
    CHECK(s.reused == 2);
    const auto contents = core::read_journal(results / "journal.jsonl");
    CHECK(contents.records.size() == 6);
    CHECK(contents.warnings.empty());  // no duplicate keys
    // The reports hold the current results only: the stale ones are not in them.
    const std::string junit2 = slurp(results / "junit.xml");
    CHECK(junit2.find(std::string(64, '0')) != std::string::npos);
    CHECK(slurp(results / "grades.csv") == csv);
  }
  SECTION("a rebuilt plugin: all of its results are graded again") {
    {
      std::ofstream out(subs / "alice" / "plugin.so", std::ios::binary | std::ios::app);
      out << "rebuilt";  // trailing bytes: still loads, another sha256
    }
    s = core::run_batch(options_for(true));
    CHECK(s.graded == 2);
    CHECK(s.reused == 2);
  }
  SECTION("other grading options: everything is graded again") {
    auto o = options_for(true);
    o.grading.strictness = 1;
    s = core::run_batch(o);
    CHECK(s.graded == 4);
  }
}

TEST_CASE("batch: unloadable submissions are not gradable, with the stage and reason", "[batch]") {
  const fs::path dir = scratch("unloadable");
  const fs::path subs = dir / "subs", results = dir / "results";
  fs::create_directories(subs / "text");
  spit(subs / "text" / "plugin.so", "not an ELF file\n");
  fs::create_directories(subs / "abi");
  fs::copy_file(fs::path(AWB_TEST_BROKEN_DIR) / "wrong_abi_major.so", subs / "abi" / "plugin.so");
  fs::create_directories(subs / "mixed");
  fs::copy_file(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_qkv.so", subs / "mixed" / "good.so");
  spit(subs / "mixed" / "junk.so", "junk");

  const auto set = core::load_exercises({core::bundled_exercise_dir()});
  REQUIRE(set.errors.empty());
  core::BatchOptions o;
  o.submissions = subs;
  o.results = results;
  o.exercises.push_back(&set.exercises.front());
  std::vector<core::BatchProgress> seen;
  const auto s = core::run_batch(o, [&](const core::BatchProgress& p) { seen.push_back(p); });
  CHECK(s.submissions == 3);
  CHECK(s.not_gradable == 2);
  REQUIRE(seen.size() == 3);
  CHECK(seen.back().done == 3);
  CHECK(seen.back().total == 3);

  const auto records = core::read_journal(results / "journal.jsonl").records;
  std::map<std::string, std::string> reasons;
  for (const auto& r : records) reasons[r.key.subject] = r.report.not_gradable;
  REQUIRE(reasons.size() == 4);
  CHECK_THAT(reasons["text"], Catch::StartsWith("plugin.so: open: "));
  CHECK_THAT(reasons["abi"], Catch::StartsWith("plugin.so: abi: "));
  CHECK(reasons["mixed/org.awb.qkv:qkv"].empty());
  CHECK_THAT(reasons["mixed/junk.so"], Catch::StartsWith("junk.so: open: "));
  // Paths of this machine do not reach the reports.
  for (const auto& [subject, reason] : reasons)
    CHECK(reason.find(subs.string()) == std::string::npos);
}

TEST_CASE("batch: under an assignment the roster has one row per submission, one maximum",
          "[batch][assignment]") {
  const fs::path dir = scratch("assignment");
  const fs::path subs = dir / "subs", results = dir / "results";
  const fs::path plugins = AWB_TEST_PLUGIN_DIR;
  for (const char* s : {"01-ann", "02-bob", "03-cy", "04-dee", "05-eve"})
    fs::create_directories(subs / s);
  fs::copy_file(plugins / "awb_qkv.so", subs / "01-ann" / "attention.so");
  fs::copy_file(plugins / "awb_qkv.so", subs / "02-bob" / "mine.so");         // the same bytes
  fs::copy_file(plugins / "awb_parameter_free.so", subs / "03-cy" / "a.so");  // no qkv
  fs::copy_file(plugins / "awb_multi_head.so", subs / "03-cy" / "b.so");
  spit(subs / "04-dee" / "broken.so", "not an ELF file");
  // 05-eve hands in nothing.

  const auto set = core::load_exercises({core::bundled_exercise_dir()});
  REQUIRE(set.errors.empty());
  const auto load =
      core::load_assignment(core::bundled_assignment_dir() / "qkv.yaml", set.exercises);
  REQUIRE(load.errors.empty());
  const core::Assignment& a = *load.assignment;
  core::BatchOptions o;
  o.submissions = subs;
  o.results = results;
  o.exercises = a.exercise_list();
  o.assignment = &a;
  o.grading.trust_all = true;  // in-process: the test is about totals, not isolation
  o.view = {true, false};
  const auto summary = core::run_batch(o);
  CHECK(summary.submissions == 5);

  const std::string roster = slurp(results / "roster.csv");
  INFO(roster);
  std::vector<std::string> rows;
  for (size_t at = 0, nl; (nl = roster.find("\r\n", at)) != std::string::npos; at = nl + 2)
    rows.push_back(roster.substr(at, nl - at));
  REQUIRE(rows.size() == 6);
  CHECK(rows[0].rfind(
            "submission,river-bank,animal-road,why-qkv,scaling,resolve-it,"
            "previous-token,qkv-stability,causal-single-head,total,max,late_days,final,status,"
            "comment",
            0) == 0);
  const std::string max = "," + grade::format_number(a.max_points()) + ",";
  for (size_t i = 1; i < rows.size(); ++i) CHECK(rows[i].find(max) != std::string::npos);
  CHECK_THAT(rows[1], Catch::StartsWith("01-ann,") && Catch::Contains(",graded,") &&
                          Catch::Contains("identical to the bundled plugin awb_qkv.so") &&
                          Catch::Contains("identical to the file graded for 02-bob"));
  // 03-cy: the multi-head plugin has Q/K/V, so it is graded; the other is named.
  CHECK_THAT(rows[3], Catch::StartsWith("03-cy,") &&
                          Catch::Contains("not graded: org.awb.parameter-free:parameter-free"));
  CHECK_THAT(rows[4], Catch::StartsWith("04-dee,0,0,0,0,0,0,0,0,0,") &&
                          Catch::Contains(",not gradable,not gradable: broken.so: open"));
  CHECK_THAT(rows[5], Catch::Contains(",not gradable,not gradable: discover: no plugin file"));
  // Numbers only in the score columns: no cell between the name and status holds text.
  for (size_t i = 1; i < rows.size(); ++i) {
    const auto status = rows[i].find(",graded,") != std::string::npos
                            ? rows[i].find(",graded,")
                            : rows[i].find(",not gradable,");
    const std::string numbers = rows[i].substr(rows[i].find(',') + 1, status - rows[i].find(','));
    CHECK(numbers.find_first_not_of("0123456789.,") == std::string::npos);
  }
}

TEST_CASE("batch: below limited, a submission awb died on twice is not graded a third time",
          "[batch][isolation]") {
  const fs::path dir = scratch("stopped-twice");
  const fs::path subs = dir / "subs", results = dir / "results";
  fs::create_directories(subs / "alice");
  fs::create_directories(subs / "bob");
  fs::copy_file(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_parameter_free.so", subs / "alice" / "a.so");
  fs::copy_file(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_parameter_free.so", subs / "bob" / "b.so");
  const auto set = core::load_exercises({core::bundled_exercise_dir()});
  const core::Exercise* journey = nullptr;
  for (const auto& e : set.exercises)
    if (e.id == "journey") journey = &e;
  REQUIRE(journey);
  core::BatchOptions o;
  o.submissions = subs;
  o.results = results;
  o.exercises = {journey};
  o.grading.session.minimum = runner::Isolation::kProcess;  // where a submission can kill awb
  o.journal_starts = true;
  o.view = {true, false};

  // Two earlier runs began bob and died there (as a submission that kills awb makes them).
  fs::create_directories(results);
  {
    core::Journal j = core::Journal::create(results / "journal.jsonl");
    for (int n : {1, 2}) {
      core::JournalRecord mark;
      mark.key = {"bob", "bob",       "#started-" + std::to_string(n), "",
                  "d",   AWB_VERSION, "scalar=f64;strictness=2"};
      mark.report.exercise_id = mark.key.exercise_id;
      mark.report.not_gradable = "grading started";
      j.append(mark);
    }
  }
  o.resume = true;
  const auto summary = core::run_batch(o);
  CHECK(summary.not_gradable == 1);
  const std::string csv = slurp(results / "grades.csv");
  INFO(csv);
  CHECK_THAT(csv, Catch::Contains("bob,0,0,13,not gradable,not gradable: awb itself was stopped "
                                  "twice while grading this submission"));
  CHECK_THAT(csv, Catch::Contains("alice,13,13,13"));
  // alice's start was marked before she was graded; the marks never reach a report.
  bool alice_marked = false;
  for (const auto& r : core::read_journal(results / "journal.jsonl").records)
    alice_marked |= r.key.submission == "alice" && r.key.exercise_id == "#started-1";
  CHECK(alice_marked);
  CHECK(csv.find("#started") == std::string::npos);
}
