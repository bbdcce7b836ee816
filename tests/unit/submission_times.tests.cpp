// submission_times.tests.cpp: the submission-time and extension CSVs read strictly (errors name
// file:line), Gradescope's metadata time, and a batch's lateness computed from those times at
// every publish: files copied after the due date, an extension, a not-gradable submission, a
// resume under other times.
#include "core/grading/submission_times.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/grading/batch.hpp"
#include "core/grading/batch_merge.hpp"
#include "graders/model/error.hpp"
#include "support/scratch.hpp"

using namespace awb;
using awb::test::scratch;
using awb::test::slurp;
using awb::test::spit;
namespace fs = std::filesystem;

namespace {

const std::set<std::string> kClass = {"01-ann", "02-bob", "03-cy"};

std::time_t utc(const char* text) { return *core::parse_utc_time(text); }

// The error reading `files` throws: its id and where.
Error read_error(const core::TimeFiles& files, const std::set<std::string>& names = kClass) {
  try {
    core::read_time_inputs(files, names);
  } catch (const Error& e) {
    return e;
  }
  FAIL("read without an error");
  return Error("", "");
}

core::TimeFiles submitted_at(const fs::path& file) {
  core::TimeFiles f;
  f.submitted_at = file;
  return f;
}

}  // namespace

TEST_CASE("times: a submission-time CSV is read as UTC, rows by submission", "[batch][times]") {
  const fs::path dir = scratch("times_read");
  // A spreadsheet's export: a byte order mark, CRLF, quotes, spaces around a field.
  spit(dir / "times.csv",
       "\xEF\xBB\xBFsubmission,submitted_at\r\n"
       "01-ann,2026-12-15T21:04:00Z\r\n"
       "\r\n"
       "\"02-bob\", 2026-12-16T00:00:01Z\r\n");
  const core::TimeInputs in = core::read_time_inputs(submitted_at(dir / "times.csv"), kClass);
  CHECK(in.submitted_at.size() == 2);
  CHECK(in.submitted_at.at("01-ann") == utc("2026-12-15T21:04:00Z"));
  CHECK(in.submitted_at.at("02-bob") == utc("2026-12-16T00:00:01Z"));
  CHECK(in.submitted_at_sha256.size() == 64);
  CHECK(in.extensions_sha256.empty());

  spit(dir / "ext.csv",
       "submission,extension\n"
       "01-ann,3\n"
       "02-bob,2026-12-18\n");
  core::TimeFiles f;
  f.extensions = dir / "ext.csv";
  const core::TimeInputs ext = core::read_time_inputs(f, kClass);
  CHECK(ext.extensions.at("01-ann").extra_days == 3);
  CHECK_FALSE(ext.extensions.at("01-ann").due);
  CHECK(ext.extensions.at("02-bob").due == utc("2026-12-18T23:59:59Z"));  // the end of the day

  core::Assignment a;
  a.due = utc("2026-12-15T23:59:00Z");
  CHECK(core::due_for(a, ext, "01-ann") == utc("2026-12-18T23:59:00Z"));
  CHECK(core::due_for(a, ext, "02-bob") == utc("2026-12-18T23:59:59Z"));
  CHECK(core::due_for(a, ext, "03-cy") == a.due);
}

TEST_CASE("times: bad rows are refused with their id at file:line", "[batch][times]") {
  const fs::path dir = scratch("times_errors");
  struct Case {
    const char* text;
    const char* id;
    int line;
    const char* says;
  };
  const std::vector<Case> cases = {
      {"submission,submitted_at\n01-ann,2026-12-15T21:04:00Z\n01-anne,2026-12-15T21:04:00Z\n",
       "times.unknown_submission", 3, "did you mean '01-ann'"},
      {"submission,submitted_at\n01-ann,2026-12-15 21:04\n", "times.bad_time", 2, "not a UTC time"},
      {"submission,submitted_at\n01-ann,2026-12-15T21:04:00+01:00\n", "times.bad_time", 2,
       "not a UTC time"},
      {"submission,submitted_at\n01-ann,2026-12-15\n", "times.bad_time", 2, "not a UTC time"},
      {"submission,submitted_at\n01-ann,2026-12-15T21:04:00Z\n\n01-ann,2026-12-16T21:04:00Z\n",
       "times.duplicate", 4, "already has a row (line 2)"},
      {"student,time\n01-ann,2026-12-15T21:04:00Z\n", "times.format", 1,
       "header 'submission,submitted_at'"},
      {"submission,submitted_at\n01-ann,2026-12-15T21:04:00Z,extra\n", "times.format", 2, "has 3"},
      {"submission,submitted_at\n\"01-ann,2026-12-15T21:04:00Z\n", "times.format", 2, "not closed"},
  };
  for (const auto& c : cases) {
    INFO(c.text);
    spit(dir / "t.csv", c.text);
    const Error e = read_error(submitted_at(dir / "t.csv"));
    INFO(e.what());
    CHECK(e.id() == c.id);
    CHECK(e.location() == (dir / "t.csv").string() + ":" + std::to_string(c.line));
    CHECK_THAT(e.message(), Catch::Contains(c.says));
  }
  spit(dir / "e.csv", "submission,extension\n02-bob,0\n");
  core::TimeFiles f;
  f.extensions = dir / "e.csv";
  CHECK(read_error(f).id() == "times.bad_time");
  spit(dir / "e.csv", "submission,extension\n02-bob,soon\n");
  CHECK(read_error(f).id() == "times.bad_time");
}

TEST_CASE("times: Gradescope's created_at, with its zone, for a batch of one", "[batch][times]") {
  CHECK(core::parse_iso8601_time("2018-07-01T14:22:32.365935-07:00") ==
        utc("2018-07-01T21:22:32Z"));
  CHECK(core::parse_iso8601_time("2018-07-01T14:22:32Z") == utc("2018-07-01T14:22:32Z"));
  CHECK(core::parse_iso8601_time("2018-07-01T14:22:32+05:30") == utc("2018-07-01T08:52:32Z"));
  CHECK_FALSE(core::parse_iso8601_time("2018-07-01T14:22:32"));
  CHECK_FALSE(core::parse_iso8601_time("2018-07-01T14:22:32.-07:00"));
  CHECK_FALSE(core::parse_iso8601_time("yesterday"));

  const fs::path dir = scratch("times_metadata");
  spit(dir / "submission_metadata.json",
       R"({"id": 1, "created_at": "2026-12-16T02:30:00.123456-08:00", "users": []})");
  core::TimeFiles f;
  f.metadata = dir / "submission_metadata.json";
  const core::TimeInputs in = core::read_time_inputs(f, {"submission"});
  CHECK(in.metadata == utc("2026-12-16T10:30:00Z"));
  const core::SubmittedTime t = core::submission_time(in, "submission", 12345);
  CHECK(t.at == utc("2026-12-16T10:30:00Z"));
  CHECK(t.source == core::TimeSource::kMetadata);
  CHECK(read_error(f).id() == "times.format");  // three submissions: whose time is it?
  spit(dir / "submission_metadata.json", R"({"id": 1})");
  CHECK(read_error(f, {"submission"}).id() == "times.format");
}

namespace {

void set_mtime(const fs::path& folder, std::time_t t) {
  const struct timespec times[2] = {{t, 0}, {t, 0}};
  for (const auto& e : fs::recursive_directory_iterator(folder))
    if (e.is_regular_file()) REQUIRE(::utimensat(AT_FDCWD, e.path().c_str(), times, 0) == 0);
}

// The roster's rows by submission, each cell by its column's name (RFC 4180: quoted cells may
// hold commas and doubled quotes; no cell holds a line break).
std::map<std::string, std::map<std::string, std::string>> roster_of(const fs::path& file) {
  const std::string text = slurp(file);
  std::vector<std::vector<std::string>> rows;
  for (size_t at = 0, nl; (nl = text.find("\r\n", at)) != std::string::npos; at = nl + 2) {
    const std::string line = text.substr(at, nl - at);
    std::vector<std::string> cells(1);
    bool quoted = false;
    for (size_t i = 0; i < line.size(); ++i) {
      const char c = line[i];
      if (quoted && c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        cells.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = !quoted;
      } else if (c == ',' && !quoted) {
        cells.emplace_back();
      } else {
        cells.back() += c;
      }
    }
    rows.push_back(cells);
  }
  std::map<std::string, std::map<std::string, std::string>> out;
  for (size_t r = 1; r < rows.size(); ++r) {
    REQUIRE(rows[r].size() == rows[0].size());
    for (size_t c = 0; c < rows[0].size(); ++c) out[rows[r][0]][rows[0][c]] = rows[r][c];
  }
  return out;
}

}  // namespace

TEST_CASE("times: a class copied after the due date is late as its submission times say",
          "[batch][times]") {
  const fs::path dir = scratch("times_batch");
  const fs::path subs = dir / "subs", results = dir / "results";
  const fs::path plugins = AWB_TEST_PLUGIN_DIR;
  for (const char* s : {"01-ann", "02-bob", "03-cy", "04-dee", "05-eve"})
    fs::create_directories(subs / s);
  for (const char* s : {"01-ann", "02-bob", "03-cy", "05-eve"})
    fs::copy_file(plugins / "awb_parameter_free.so", subs / s / "attention.so");
  spit(subs / "04-dee" / "attention.so", "not an ELF file");  // not gradable
  // Copied now, years after the due date: the files' times alone would make everyone late.
  spit(dir / "a.yaml",
       "awb-assignment: 1\nid: timed\ntitle: Timed\nexercises: [journey]\n"
       "due: 2026-01-15T23:59:00Z\nlate: {percent_per_day: 10, max_days: 5}\n"
       "leaderboard: [score]\n");
  const auto set = core::load_exercises({core::bundled_exercise_dir()});
  const auto load = core::load_assignment(dir / "a.yaml", set.exercises);
  REQUIRE(load.errors.empty());
  const core::Assignment& a = *load.assignment;
  spit(dir / "times.csv",
       "submission,submitted_at\n"
       "01-ann,2026-01-15T20:00:00Z\n"    // on time
       "02-bob,2026-01-17T08:00:00Z\n"    // 2 started days late: 20 % off
       "03-cy,2026-01-17T08:00:00Z\n"     // as late, but extended by 3 days
       "04-dee,2026-01-30T08:00:00Z\n");  // not gradable: never late
  spit(dir / "ext.csv", "submission,extension\n03-cy,3\n");
  core::BatchOptions o;
  o.submissions = subs;
  o.results = results;
  o.exercises = a.exercise_list();
  o.assignment = &a;
  o.grading.trust_all = true;  // in-process: the test is about times, not isolation
  o.view = {false, true};      // a student view: the roster stays the instructor's
  o.times.submitted_at = dir / "times.csv";
  o.times.extensions = dir / "ext.csv";
  core::run_batch(o);

  auto roster = roster_of(results / "roster.csv");
  INFO(slurp(results / "roster.csv"));
  const std::string full = roster["01-ann"]["total"];
  CHECK(roster["01-ann"]["max"] == grade::format_number(a.max_points()));  // every check
  CHECK(full == roster["01-ann"]["max"]);
  CHECK(roster["01-ann"]["late_days"] == "0");
  CHECK(roster["01-ann"]["time_source"] == "submitted-at");
  CHECK(roster["01-ann"]["submitted_at"] == "2026-01-15T20:00:00Z");
  CHECK(roster["02-bob"]["late_days"] == "2");
  CHECK(roster["02-bob"]["final"] == grade::format_number(std::stod(full) * 0.8));
  CHECK_THAT(roster["02-bob"]["comment"], Catch::Contains("late 2 days (20 % off)"));
  CHECK(roster["03-cy"]["late_days"] == "0");
  CHECK_THAT(roster["03-cy"]["comment"],
             Catch::Contains("due date extended to 2026-01-18T23:59:00Z"));
  CHECK(roster["04-dee"]["status"] == "not gradable");
  CHECK(roster["04-dee"]["late_days"] == "0");
  CHECK(roster["04-dee"]["time_source"] == "submitted-at");
  // Not in the CSV: the files' time, said as such (and late by it).
  CHECK(roster["05-eve"]["time_source"] == "file-mtime");
  CHECK(std::stoi(roster["05-eve"]["late_days"]) > 0);

  // The leaderboard: the visible points only, less bob's 20 %.
  const auto board = [&](const char* name) {
    return nlohmann::json::parse(slurp(results / "gradescope" /
                                       (std::string(name) + ".json")))["leaderboard"][0]["value"]
        .get<double>();
  };
  CHECK(board("01-ann") < std::stod(full));  // journey has hidden checks
  CHECK(board("02-bob") == Approx(board("01-ann") * 0.8));
  CHECK(board("03-cy") == Approx(board("01-ann")));

  const auto meta = nlohmann::json::parse(slurp(results / "roster.meta.json"));
  CHECK(meta["assignment"]["id"] == "timed");
  CHECK(meta["roster_view"] == "instructor");
  CHECK(meta["reports_view"]["view"] == "student");
  CHECK(meta["due"] == "2026-01-15T23:59:00Z");
  CHECK(meta["awb_version"].is_string());

  // A resume under corrected times publishes the lateness they give (nothing graded again).
  spit(dir / "times.csv",
       "submission,submitted_at\n"
       "02-bob,2026-01-15T23:00:00Z\n"
       "05-eve,2026-01-16T00:30:00Z\n");
  o.resume = true;
  o.times.extensions.clear();
  const core::BatchSummary again = core::run_batch(o);
  CHECK(again.graded == 0);
  roster = roster_of(results / "roster.csv");
  CHECK(roster["02-bob"]["late_days"] == "0");
  CHECK(roster["05-eve"]["late_days"] == "1");
  CHECK(roster["05-eve"]["time_source"] == "submitted-at");
  // 03-cy has no row now and no extension: the file's time, years late, past max_days.
  CHECK(roster["03-cy"]["time_source"] == "file-mtime");
  CHECK(roster["03-cy"]["final"] == "0");
  // And a resume without any times: the files' times as they are now.
  set_mtime(subs / "01-ann", utc("2026-01-15T12:00:00Z"));
  o.times = {};
  core::run_batch(o);
  roster = roster_of(results / "roster.csv");
  CHECK(roster["01-ann"]["time_source"] == "file-mtime");
  CHECK(roster["01-ann"]["submitted_at"] == "2026-01-15T12:00:00Z");
  CHECK(roster["01-ann"]["late_days"] == "0");
}

TEST_CASE("times: a merge computes lateness from its own time files, and needs them",
          "[batch][times][shard]") {
  const fs::path dir = scratch("times_merge");
  const fs::path subs = dir / "subs";
  for (const char* s : {"ann", "bob", "cy"}) {
    fs::create_directories(subs / s);
    fs::copy_file(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_parameter_free.so", subs / s / "a.so");
  }
  spit(dir / "a.yaml",
       "awb-assignment: 1\nid: timed\ntitle: Timed\nexercises: [journey]\n"
       "due: 2026-01-15T23:59:00Z\nlate: {percent_per_day: 10, max_days: 5}\n");
  const auto set = core::load_exercises({core::bundled_exercise_dir()});
  const auto load = core::load_assignment(dir / "a.yaml", set.exercises);
  REQUIRE(load.errors.empty());
  spit(dir / "late.csv", "submission,submitted_at\nbob,2026-01-17T08:00:00Z\n");
  spit(dir / "fixed.csv", "submission,submitted_at\nbob,2026-01-15T08:00:00Z\n");
  std::vector<fs::path> shards;
  for (int i = 0; i < 2; ++i) {
    core::BatchOptions o;
    o.submissions = subs;
    o.results = dir / ("shard-" + std::to_string(i));
    o.exercises = load.assignment->exercise_list();
    o.assignment = &*load.assignment;
    o.grading.trust_all = true;
    o.shard = core::Shard{i, 2};
    o.times.submitted_at = dir / "late.csv";
    core::run_batch(o);
    shards.push_back(o.results);
  }
  core::MergeOptions m;
  m.shards = shards;
  m.assignment = &*load.assignment;
  m.out = dir / "merged";
  try {
    core::merge_shards(m);
    FAIL("merged shards graded with --submitted-at without it");
  } catch (const Error& e) {
    CHECK(e.id() == "batch.shard_mismatch");
    CHECK_THAT(e.message(), Catch::Contains("--submitted-at"));
  }
  // Given, the merge's file decides: a corrected one publishes its lateness.
  m.times.submitted_at = dir / "fixed.csv";
  core::merge_shards(m);
  auto roster = roster_of(m.out / "roster.csv");
  CHECK(roster["bob"]["late_days"] == "0");
  CHECK(roster["bob"]["time_source"] == "submitted-at");
  CHECK(roster["ann"]["time_source"] == "file-mtime");  // the time its shard journaled
  m.times.submitted_at = dir / "late.csv";
  m.out = dir / "merged-late";
  core::merge_shards(m);
  roster = roster_of(m.out / "roster.csv");
  CHECK(roster["bob"]["late_days"] == "2");
}
