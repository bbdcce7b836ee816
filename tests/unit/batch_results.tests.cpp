// batch_results.tests.cpp: a results folder is awb's: the marker, its lock, and the bounded
// reads of what awb keeps there.
#include "core/grading/batch_results.hpp"

#include <sys/stat.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <optional>

#include "core/base/bounded_read.hpp"
#include "graders/model/error.hpp"
#include "support/scratch.hpp"
#include "support/test_support.hpp"

using namespace awb;
using awb::test::scratch;
using awb::test::slurp;
using awb::test::spit;
namespace fs = std::filesystem;

namespace {

// claim() fails with `id`, its message holding `text`.
void refused(const fs::path& folder, core::ResultsKind kind, const std::string& id,
             const std::string& text) {
  test::check_refused([&] { core::ResultsFolder::claim(folder, kind); }, id, text);
}

}  // namespace

TEST_CASE("a results folder: new, empty or marked is claimed, a user's folder refused",
          "[batch][results]") {
  const fs::path dir = scratch("batch_results_claim");
  {
    const auto held = core::ResultsFolder::claim(dir / "new", core::ResultsKind::kBatch);
    CHECK_THAT(slurp(dir / "new" / core::kResultsMarker), Catch::StartsWith("awb-results 1\n"));
    // Held: a second claim, of either kind, is refused while the first runs.
    refused(dir / "new", core::ResultsKind::kBatch, "batch.results_locked", "in use by pid");
  }
  // Released with its holder; a merge into a batch's folder is refused.
  CHECK_NOTHROW(core::ResultsFolder::claim(dir / "new", core::ResultsKind::kBatch));
  refused(dir / "new", core::ResultsKind::kMerge, "batch.usage", "holds a batch's results");

  fs::create_directories(dir / "mine");
  spit(dir / "mine" / "grades.csv", "mine\n");
  refused(dir / "mine", core::ResultsKind::kBatch, "batch.out_not_awb",
          "--out names an existing folder that awb did not create");
  CHECK_FALSE(fs::exists(dir / "mine" / core::kResultsMarker));
  CHECK(slurp(dir / "mine" / "grades.csv") == "mine\n");

  // An earlier awb's folder (its journal) is adopted; a folder of shards counts as empty.
  fs::create_directories(dir / "old");
  spit(dir / "old" / "journal.jsonl", "");
  CHECK_NOTHROW(core::ResultsFolder::claim(dir / "old", core::ResultsKind::kBatch));
  CHECK(fs::exists(dir / "old" / core::kResultsMarker));
  CHECK_NOTHROW(core::ResultsFolder::claim(dir / "class" / "shard-0", core::ResultsKind::kBatch));
  CHECK_NOTHROW(core::ResultsFolder::claim(dir / "class", core::ResultsKind::kMerge));

  // A marker that is not awb's (a FIFO, other text) is no marker.
  fs::create_directories(dir / "fifo");
  REQUIRE(::mkfifo((dir / "fifo" / core::kResultsMarker).c_str(), 0644) == 0);
  refused(dir / "fifo", core::ResultsKind::kBatch, "batch.out_not_awb", "a FIFO");
  fs::create_directories(dir / "text");
  spit(dir / "text" / core::kResultsMarker, "something else\n");
  refused(dir / "text", core::ResultsKind::kBatch, "batch.out_not_awb", "not awb's marker");
}

TEST_CASE("files awb reads back: regular, bounded, never a FIFO or a link", "[batch][results]") {
  const fs::path dir = scratch("batch_results_bounded");
  CHECK_FALSE(core::read_bounded_file(dir / "missing", 100, "the file").has_value());
  spit(dir / "small", "hello");
  CHECK(core::read_bounded_file(dir / "small", 100, "the file") ==
        std::optional<std::string>("hello"));
  auto refuses = [&](const fs::path& p, const std::string& id, const std::string& text) {
    try {
      core::read_bounded_file(p, 4, "the file");
      FAIL("read " << p);
    } catch (const Error& e) {
      INFO(e.what());
      CHECK(e.id() == id);
      CHECK_THAT(e.message(), Catch::Contains(text));
    }
  };
  refuses(dir / "small", "io.too_large", "over awb's limit");
  REQUIRE(::mkfifo((dir / "fifo").c_str(), 0644) == 0);
  refuses(dir / "fifo", "io.not_regular", "is a FIFO");  // at once: no writer is waited for
  fs::create_symlink("/dev/zero", dir / "zero");
  refuses(dir / "zero", "io.not_regular", "a symbolic link");
  fs::create_directories(dir / "folder");
  refuses(dir / "folder", "io.not_regular", "a folder");
}
