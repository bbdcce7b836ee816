// loader.tests.cpp: every broken fixture gives a precise load report; nothing throws.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "core/plugins/plugin_loader.hpp"
#include "core/base/sha256.hpp"
#include "graders/model/error.hpp"
#include "support/test_support.hpp"

using namespace awb;
namespace fs = std::filesystem;

namespace {

const core::LoadFailure* failure_for(const core::Catalog& cat, const std::string& file) {
  for (const auto& f : cat.failures)
    if (f.path.filename() == file) return &f;
  return nullptr;
}

const core::Catalog& broken_catalog() {
  static const core::Catalog cat = core::load_catalog({AWB_TEST_BROKEN_DIR});
  return cat;
}

}  // namespace

TEST_CASE("loading the broken fixtures never throws", "[loader]") {
  CHECK_NOTHROW(core::load_catalog({AWB_TEST_BROKEN_DIR}));
  const auto& cat = broken_catalog();
  // duplicate_id_a loads; every other file is a failure with a reason.
  REQUIRE(cat.plugins.size() == 1);
  CHECK(cat.plugins[0].id == "org.awb.fixture.duplicate");
  CHECK(cat.failures.size() == 6);
}

TEST_CASE("wrong ABI major names both versions", "[loader][abi]") {
  const auto* f = failure_for(broken_catalog(), "wrong_abi_major.so");
  REQUIRE(f);
  CHECK(f->stage == core::LoadStage::kAbi);
  // The fixture is built with AWB_ABI_MAJOR + 1 and this header's minor.
  const std::string minor = std::to_string(AWB_ABI_MINOR);
  CHECK_THAT(f->message, Catch::Contains("plugin built for ABI 2." + minor) &&
                             Catch::Contains("this host speaks ABI 1." + minor));
}

TEST_CASE("missing entry symbol", "[loader]") {
  const auto* f = failure_for(broken_catalog(), "missing_entry_symbol.so");
  REQUIRE(f);
  CHECK(f->stage == core::LoadStage::kEntrySymbol);
  CHECK_THAT(f->message, Catch::Contains("awb_plugin_entry"));
  CHECK_THAT(f->system_error, Catch::Contains("undefined symbol"));
}

TEST_CASE("a file that is not a shared library", "[loader]") {
  const auto* f = failure_for(broken_catalog(), "not_a_library.so");
  REQUIRE(f);
  CHECK(f->stage == core::LoadStage::kOpen);
  CHECK_THAT(f->system_error, Catch::Contains("not_a_library.so"));
}

TEST_CASE("an unresolved dependency", "[loader]") {
  const auto* f = failure_for(broken_catalog(), "unresolved_dependency.so");
  REQUIRE(f);
  CHECK(f->stage == core::LoadStage::kOpen);
  CHECK_THAT(f->system_error, Catch::Contains("libawb_fixture_dependency.so") &&
                                  Catch::Contains("cannot open shared object file"));
}

TEST_CASE("a duplicate plugin id keeps the first and reports the second", "[loader]") {
  const auto* f = failure_for(broken_catalog(), "duplicate_id_b.so");
  REQUIRE(f);
  CHECK(f->stage == core::LoadStage::kDuplicate);
  CHECK_THAT(f->message,
             Catch::Contains("org.awb.fixture.duplicate") && Catch::Contains("duplicate_id_a.so"));
}

TEST_CASE("inconsistent capabilities", "[loader]") {
  const auto* f = failure_for(broken_catalog(), "inconsistent_caps.so");
  REQUIRE(f);
  CHECK(f->stage == core::LoadStage::kDescriptor);
  CHECK_THAT(f->message, Catch::Contains("inconsistent capabilities") &&
                             Catch::Contains("multi-head without qkv"));
}

TEST_CASE("a missing folder is a discover failure", "[loader]") {
  const auto cat = core::load_catalog({fs::path(AWB_TEST_BROKEN_DIR) / "no-such-folder"});
  REQUIRE(cat.failures.size() == 1);
  CHECK(cat.failures[0].stage == core::LoadStage::kDiscover);
}

TEST_CASE("the same folder twice loads each file once", "[loader]") {
  const auto cat = core::load_catalog({AWB_TEST_PLUGIN_DIR, AWB_TEST_PLUGIN_DIR});
  CHECK(cat.plugins.size() == 4);
  CHECK(cat.failures.empty());
}

TEST_CASE("instances keep their library loaded after the catalog is gone", "[loader]") {
  std::unique_ptr<core::VariantInstance> inst;
  {
    const auto cat = core::load_catalog({AWB_TEST_PLUGIN_DIR});
    const auto ref = core::find_variant(cat, "org.awb.qkv:qkv");
    inst = std::make_unique<core::VariantInstance>(ref.plugin->library, *ref.variant);
  }
  std::mt19937_64 rng(3);
  const auto p = test::random_problem(rng, 4, 3, 1, 2, true, false);
  ProblemSpec single = p;
  single.w_o.reset();
  CHECK_NOTHROW(core::run_forward(inst->as_raw(), single, {}));
}

TEST_CASE("variant lookup names candidates", "[loader]") {
  const auto& cat = test::bundled_catalog();
  try {
    core::find_variant(cat, "flash");
    FAIL("no error");
  } catch (const Error& e) {
    CHECK(e.id() == "plugin.variant_not_found");
    CHECK_THAT(e.message(), Catch::Contains("org.awb.qkv:qkv"));
  }
}

TEST_CASE("a submission's links, FIFOs and huge files are refused, never followed or trusted",
          "[loader][isolation]") {
  const fs::path dir = fs::temp_directory_path() / ("awb-loader-links-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // A link to a bundled plugin: loaded through it, it would run in awb itself as trusted code.
  fs::create_symlink(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_qkv.so", dir / "a_link.so");
  REQUIRE(::mkfifo((dir / "b_fifo.so").c_str(), 0600) == 0);  // opening it would block
  fs::create_symlink("/dev/zero", dir / "c_zero.so");           // reading it would never end
  { std::ofstream(dir / "d_huge.so"); }
  fs::resize_file(dir / "d_huge.so", core::kMaxPluginBytes + 1);  // sparse: costs no disk

  core::LoadPolicy submission;
  submission.regular_files_only = true;
  const core::Catalog cat = core::load_catalog({dir}, submission);
  CHECK(cat.plugins.empty());
  REQUIRE(cat.failures.size() == 4);
  CHECK(failure_for(cat, "a_link.so")->message ==
        "a symbolic link: a submission holds regular files only");
  CHECK(failure_for(cat, "b_fifo.so")->message == "not a regular file");
  CHECK(failure_for(cat, "c_zero.so")->message ==
        "a symbolic link: a submission holds regular files only");
  CHECK_THAT(failure_for(cat, "d_huge.so")->message, Catch::Contains("larger than any plugin"));
  for (const auto& f : cat.failures) CHECK(f.stage == core::LoadStage::kDiscover);
  CHECK_THROWS_AS(core::sha256_file(dir / "b_fifo.so"), Error);  // and hashing never blocks
  CHECK_THROWS_AS(core::sha256_file(dir / "d_huge.so"), Error);

  // Elsewhere a link may be followed, but trust never comes through it: the bundled plugin
  // behind it runs in a runner like any other file outside the bundled folder.
  fs::remove(dir / "b_fifo.so");
  fs::remove(dir / "c_zero.so");
  fs::remove(dir / "d_huge.so");
  const core::Catalog linked = core::load_catalog({dir});
  REQUIRE(linked.plugins.size() == 1);
  CHECK(linked.plugins[0].library == nullptr);
  CHECK(linked.plugins[0].isolation != runner::Isolation::kInProcess);
  CHECK_FALSE(linked.plugins[0].bundled);
  fs::remove_all(dir);
}

TEST_CASE("a variant that is not there names the files that did not load", "[loader]") {
  try {
    core::find_variant(broken_catalog(), "student-attention");
    FAIL("found a variant no plugin provides");
  } catch (const Error& e) {
    CHECK(e.id() == "plugin.variant_not_found");
    CHECK_THAT(e.message(), Catch::Contains("did not load: ") &&
                                Catch::Contains("wrong_abi_major.so: abi: ") &&
                                Catch::Contains("missing_entry_symbol.so: entry-symbol: "));
  }
}
