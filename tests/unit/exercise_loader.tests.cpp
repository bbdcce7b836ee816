// exercise_loader.tests.cpp: the exercise loader reports every problem of a malformed file at
// the right place (the corpus in fixtures/exercises/malformed documents itself with
// "# expect: <id> <line>:<col>" lines), loads the bundled exercises cleanly, and the seeded
// generator gives the same numbers everywhere.
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "core/exercises/problem_file.hpp"
#include "core/exercises/seeded.hpp"
#include "core/exercises/yaml_reader.hpp"
#include "core/grading/assignment.hpp"
#include "core/runner_client/runner_limits.hpp"

using namespace awb;
namespace fs = std::filesystem;

namespace {

// "<id> <line>:<col>" for every "# expect:" line of a fixture, in file order.
std::vector<std::string> expected_errors(const fs::path& file) {
  std::ifstream in(file);
  std::vector<std::string> out;
  const std::string tag = "# expect:";
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(tag, 0) != 0) continue;
    std::string rest = line.substr(tag.size());
    rest.erase(0, rest.find_first_not_of(' '));
    rest.erase(rest.find_last_not_of(" \r") + 1);
    out.push_back(rest);
  }
  return out;
}

// "LINE:COL" from a location "FILE:LINE:COL", or "?" when it carries no position.
std::string line_col(const std::string& location) {
  const size_t c2 = location.rfind(':');
  if (c2 == std::string::npos || c2 == 0) return "?";
  const size_t c1 = location.rfind(':', c2 - 1);
  if (c1 == std::string::npos) return "?";
  const std::string line = location.substr(c1 + 1, c2 - c1 - 1);
  const std::string col = location.substr(c2 + 1);
  auto digits = [](const std::string& s) {
    return !s.empty() &&
           std::all_of(s.begin(), s.end(), [](char ch) { return ch >= '0' && ch <= '9'; });
  };
  return digits(line) && digits(col) ? line + ":" + col : "?";
}

std::vector<std::string> actual_errors(const core::ExerciseLoad& load) {
  std::vector<std::string> out;
  for (const auto& e : load.errors) out.push_back(e.id() + " " + line_col(e.location()));
  return out;
}

std::vector<fs::path> malformed_files() {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(AWB_TEST_MALFORMED_DIR))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

const std::string kTiny =
    "awb-exercise: 1\n"
    "id: tiny\n"
    "title: \"A tiny exercise\"\n"
    "variant:\n"
    "  kind: parameter-free\n"
    "tokens: [\"Your\", \"journey\", \"starts\"]\n"
    "embeddings:\n"
    "  - [0.43, 0.15, 0.89]\n"
    "  - [0.55, 0.87, 0.66]\n"
    "  - [0.57, 0.85, 0.64]\n"
    "checks:\n"
    "  - id: rows-sum-to-one\n"
    "    kind: property\n"
    "    property: rows_sum_to_one\n";

}  // namespace

TEST_CASE("exercise: malformed corpus matches its expect lines", "[exercise][loader]") {
  const auto files = malformed_files();
  REQUIRE(files.size() >= 30);
  std::set<std::string> ids_seen;
  for (const auto& file : files) {
    INFO("fixture " << file.filename().string());
    const auto expected = expected_errors(file);
    REQUIRE_FALSE(expected.empty());
    const core::ExerciseLoad load = core::load_exercise_file(file);
    CHECK_FALSE(load.exercise.has_value());
    const auto actual = actual_errors(load);
    CHECK(actual == expected);
    for (const auto& e : load.errors) ids_seen.insert(e.id());
  }
  // Every id of FORMAT.md's table that a file can provoke (too_large is tested in memory).
  for (const char* id :
       {"exercise.yaml", "exercise.too_deep", "exercise.too_many_aliases", "exercise.duplicate_key",
        "exercise.unknown_key", "exercise.missing_key", "exercise.type", "exercise.value",
        "exercise.not_finite", "exercise.shape", "exercise.limit", "exercise.unknown_token",
        "exercise.unknown_case", "exercise.duplicate_id", "exercise.version",
        "exercise.several_documents", "exercise.tag", "exercise.nul_byte"}) {
    INFO("error id " << id);
    CHECK(ids_seen.count(id) == 1);
  }
}

TEST_CASE("exercise: unknown key has a did-you-mean", "[exercise][loader]") {
  std::string text = kTiny;
  text.replace(text.find("title:"), 5, "titel");
  const auto load = core::parse_exercise(text, "typo.yaml");
  REQUIRE_FALSE(load.errors.empty());
  const auto& e = load.errors.front();
  CHECK(e.id() == "exercise.unknown_key");
  CHECK(e.location() == "typo.yaml:3:1");
  CHECK_THAT(e.message(), Catch::Contains("titel") && Catch::Contains("did you mean 'title'?"));
}

TEST_CASE("exercise: every problem of a file is reported", "[exercise][loader]") {
  const auto load =
      core::load_exercise_file(fs::path(AWB_TEST_MALFORMED_DIR) / "31-several-top-level.yaml");
  CHECK_FALSE(load.exercise.has_value());
  REQUIRE(load.errors.size() >= 3);
  std::set<std::string> ids;
  for (const auto& e : load.errors) ids.insert(e.id());
  CHECK(ids.size() >= 3);
}

TEST_CASE("exercise: oversized file is refused", "[exercise][loader]") {
  std::string text = kTiny;
  text.resize((size_t(8) << 20) + 1, '#');
  const auto load = core::parse_exercise(text, "big.yaml");
  REQUIRE(load.errors.size() == 1);
  CHECK(load.errors[0].id() == "exercise.too_large");
  CHECK(load.errors[0].location() == "big.yaml:1:1");
}

// kTiny with `n` one-letter tokens and generated embeddings: the tokens list is the longest.
std::string with_tokens(int n) {
  std::string toks = "[a";
  for (int i = 1; i < n; ++i) toks += ",a";
  std::string text = kTiny;
  const size_t from = text.find("tokens:"), to = text.find("checks:");
  return text.replace(from, to - from,
                      "tokens: " + toks + "]\nembeddings: {generate: {seed: 1, d_model: 2}}\n");
}

std::string error_list(const std::vector<Error>& errors) {
  std::string out;
  for (const auto& e : errors) out += e.id() + " " + line_col(e.location()) + ";";
  return out;
}

TEST_CASE("exercise: a list just under its cap loads, one over is refused before the tree",
          "[exercise][loader][caps]") {
  const auto under = core::parse_exercise(with_tokens(4096), "t.yaml");
  CHECK(error_list(under.errors) == "");
  const auto over = core::parse_exercise(with_tokens(4097), "t.yaml");
  CHECK(error_list(over.errors) == "exercise.limit 6:9;");
  CHECK_THAT(over.errors.at(0).message(), Catch::Contains("more than 4096 entries"));
}

TEST_CASE("exercise: a file just under the byte cap loads, one over is refused",
          "[exercise][loader][caps]") {
  std::string text = kTiny;
  text.resize(size_t(8) << 20, '#');
  text[kTiny.size()] = '\n';
  CHECK(error_list(core::parse_exercise(text, "big.yaml").errors) == "");
  text += '#';
  CHECK(error_list(core::parse_exercise(text, "big.yaml").errors) == "exercise.too_large 1:1;");
}

// The tree caps at their edges, with caps small enough to write by hand.
TEST_CASE("yaml reader: node, list and line caps refuse at the offending place",
          "[exercise][loader][caps]") {
  auto refusal = [](const std::string& text, core::YamlCaps caps) {
    core::YamlReader rd("c.yaml", "exercise", caps);
    rd.parse(text);
    return error_list(rd.errors());
  };
  core::YamlCaps nodes;
  nodes.max_nodes = 7;  // the mapping, two keys, 1, the list and its two entries
  CHECK(refusal("a: 1\nb: [2, 3]\n", nodes) == "");
  CHECK(refusal("a: 1\nb: [2, 3, 4]\n", nodes) == "exercise.limit 2:11;");
  core::YamlCaps list;
  list.max_list = 3;
  CHECK(refusal("a:\n  - 1\n  - 2\n  - 3\n", list) == "");
  CHECK(refusal("a:\n  - 1\n  - 2\n  - 3\n  - 4\n", list) == "exercise.limit 2:3;");
  core::YamlCaps line;
  line.max_line_entries = 2;
  CHECK(refusal("a: [1, 2, 3]\nb: [1, 2, 3]\n", line) == "");
  CHECK(refusal("a: [[1, 2], [3, 4]]\n", line) == "exercise.limit 1:15;");
  core::YamlCaps aliases;
  aliases.max_aliases = 1;
  CHECK(refusal("a: &x 1\nb: *x\n", aliases) == "");
  CHECK(refusal("a: &x 1\nb: [*x, *x]\n", aliases) == "exercise.too_many_aliases 2:9;");
}

TEST_CASE("exercise: limits a file does not set are the runner's defaults", "[exercise][loader]") {
  const core::RunnerLimits runner;
  const auto none = core::parse_exercise(kTiny, "tiny.yaml");
  REQUIRE(none.exercise);
  CHECK(none.exercise->limits.cpu_seconds == runner.cpu_seconds);
  CHECK(none.exercise->limits.wall_seconds == runner.wall_seconds);
  CHECK(none.exercise->limits.memory_mb == runner.memory_mb);

  const auto some = core::parse_exercise(kTiny + "limits:\n  wall_seconds: 7.5\n", "some.yaml");
  REQUIRE(some.exercise);
  CHECK(some.exercise->limits.wall_seconds == 7.5);
  CHECK(some.exercise->limits.cpu_seconds == runner.cpu_seconds);
  CHECK(some.exercise->limits.memory_mb == runner.memory_mb);
}

TEST_CASE("exercise: a second YAML document is an error where it starts", "[exercise][loader]") {
  CHECK(error_list(core::parse_exercise(kTiny + "---\nid: other\n", "d.yaml").errors) ==
        "exercise.several_documents 15:1;");
  CHECK(error_list(core::parse_exercise(kTiny + "---\n", "d.yaml").errors) ==
        "exercise.several_documents 15:1;");
  // An explicit start or end of the one document is fine.
  CHECK(error_list(core::parse_exercise("---\n" + kTiny + "...\n", "d.yaml").errors) == "");
}

TEST_CASE("exercise: quoted scalars are strings, not numbers or booleans", "[exercise][loader]") {
  auto quoted = [](const std::string& from, const std::string& to) {
    std::string text = kTiny + "parameters:\n  sharpness: 2\n  causal: true\n";
    text.replace(text.find(from), from.size(), to);
    return core::parse_exercise(text, "q.yaml").errors;
  };
  CHECK(error_list(quoted("", "")) == "");
  auto e = quoted("0.87", "\"0.87\"");
  REQUIRE(error_list(e) == "exercise.type 9:12;");
  CHECK_THAT(e[0].message(), Catch::Contains("embeddings[1][1]") && Catch::Contains("quoted"));
  CHECK(error_list(quoted("sharpness: 2", "sharpness: '2'")) == "exercise.type 16:14;");
  CHECK(error_list(quoted("causal: true", "causal: \"true\"")) == "exercise.type 17:11;");
  CHECK(error_list(quoted("awb-exercise: 1", "awb-exercise: '1'")) == "exercise.type 1:15;");
}

// Only regular files are read: the loader opens with O_NONBLOCK and checks with fstat, so a
// FIFO with no writer cannot block it (this test would hang otherwise).
TEST_CASE("exercise: FIFOs, devices and directories are refused without blocking",
          "[exercise][loader][problem][assignment]") {
  const fs::path dir = fs::temp_directory_path() / ("awb-fifo-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path fifo = dir / "pipe.yaml";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  for (const fs::path& p : {fifo, fs::path("/dev/zero"), dir}) {
    INFO(p.string());
    const auto ex = core::load_exercise_file(p);
    REQUIRE(ex.errors.size() == 1);
    CHECK(ex.errors[0].id() == "exercise.not_a_file");
    CHECK(ex.errors[0].location() == p.string());
    const auto pr = core::read_problem_file(p);
    REQUIRE(pr.errors.size() == 1);
    CHECK(pr.errors[0].id() == "problem.not_a_file");
    const auto as = core::load_assignment(p, {});
    REQUIRE(as.errors.size() == 1);
    CHECK(as.errors[0].id() == "assignment.not_a_file");
  }
  CHECK_THAT(core::load_exercise_file(fifo).errors[0].message(), Catch::Contains("FIFO"));
  const auto set = core::load_exercises({fifo});
  CHECK(error_list(set.errors) == "exercise.not_a_file ?;");
  fs::remove_all(dir);
}

// Small files that ask for gigabytes: refused with exercise.limit in well under a second.
// Hidden ([.]): wall-clock limits are flaky on loaded machines, and the corpus already checks
// what these files report (50-, 51- and 30-*.yaml). Run with `awb_unit_tests "[hostile]"`.
TEST_CASE("exercise: hostile sizes are refused quickly", "[.][hostile][exercise][loader]") {
  auto refused_fast = [](const std::string& text, const std::string& label) {
    INFO(label);
    const auto start = std::chrono::steady_clock::now();
    const auto load = core::parse_exercise(text, label);
    const std::chrono::duration<double> took = std::chrono::steady_clock::now() - start;
    CHECK_FALSE(load.exercise.has_value());
    CHECK(std::any_of(load.errors.begin(), load.errors.end(),
                      [](const Error& e) { return e.id() == "exercise.limit"; }));
    CHECK(took.count() < 1.0);
  };
  const std::string head = "awb-exercise: 1\nid: tiny\ntitle: \"A tiny exercise\"\n";
  const std::string check =
      "checks:\n  - id: rows-sum-to-one\n    kind: property\n    property: rows_sum_to_one\n";
  std::string a_tokens = "[a";
  for (int i = 1; i < 4096; ++i) a_tokens += ", a";
  a_tokens += "]";

  // 63 aliases: 64 cases x 4096 tokens x 4096 generated numbers.
  std::string generated = head + "variant: {kind: parameter-free}\ntokens: &t " + a_tokens +
                          "\nembeddings:\n  generate: {seed: 1, d_model: 4096}\ncases:\n";
  for (int i = 0; i < 63; ++i) generated += "  - {id: c" + std::to_string(i) + ", tokens: *t}\n";
  generated += "  - id: c63\n" + check;
  refused_fast(generated, "generated.yaml");

  // No alias at all: 16 layers x 4 seeded 4096 x 4096 weights in 3 KiB.
  std::string seeded = head +
                       "variant: {kind: qkv}\ntokens: [a, b, c]\n"
                       "embeddings: {generate: {seed: 1, d_model: 4096}}\nlayers:\n";
  const std::string w = "{seed: 1, rows: 4096, cols: 4096}";
  for (int i = 0; i < 16; ++i)
    seeded += "  - weights: {w_q: " + w + ", w_k: " + w + ", w_v: " + w + ", w_o: " + w + "}\n";
  seeded += check;
  refused_fast(seeded, "seeded.yaml");

  // The billion-laughs fixture: 63 aliases re-read one 4096-wide vocabulary row 2^30 times.
  std::ifstream in(fs::path(AWB_TEST_MALFORMED_DIR) / "30-billion-laughs.yaml");
  const std::string laughs((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  refused_fast(laughs, "30-billion-laughs.yaml");
}

TEST_CASE("exercise: bundled exercises load cleanly", "[exercise][loader]") {
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(AWB_TEST_EXERCISE_DIR))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  REQUIRE_FALSE(files.empty());
  for (const auto& f : files) {
    INFO("exercise " << f.filename().string());
    const auto load = core::load_exercise_file(f);
    for (const auto& e : load.errors) UNSCOPED_INFO(e.what());
    CHECK(load.errors.empty());
    CHECK(load.exercise.has_value());
  }
  const auto set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  CHECK(set.errors.empty());
  CHECK(set.exercises.size() == files.size());
}

TEST_CASE("exercise: seeded generator is deterministic", "[exercise][loader]") {
  CHECK(core::SplitMix64(0).next() == 0xE220A8397B1DCDAFull);
  // SplitMix64 + Box-Muller computed independently (Python): u = (next >> 11) * 2^-53,
  // normal = sqrt(-2 ln(1 - u1)) * cos(2 pi u2).
  core::SplitMix64 rng(1);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", rng.normal(0.0, 1.0));
  CHECK(std::string(buf) == "-0.034267321791851144");
}
