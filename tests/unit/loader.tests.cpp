// loader.tests.cpp: every broken fixture gives a precise load report; nothing throws.
#include <sys/stat.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cstddef>
#include <filesystem>
#include <fstream>

#include "core/base/sha256.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/error.hpp"
#include "runner/protocol.hpp"
#include "support/scratch.hpp"
#include "support/test_support.hpp"

using namespace awb;
namespace fs = std::filesystem;

namespace {

const core::LoadFailure* failure_for(const core::Catalog& cat, const std::string& file) {
  for (const auto& f : cat.failures)
    if (f.path.filename() == file) return &f;
  return nullptr;
}

// A variant from before get_extension: the fields past its struct_size are whatever followed it
// in the plugin's memory. Here that is a working get_extension, so reading it would show.
int g_extension_calls = 0;
awb_status short_backward(void*, const awb_problem*, const awb_results*, const awb_tensor*,
                          const awb_tensor*, awb_gradients*, char*, size_t) {
  return AWB_OK;
}
const awb_backward_ext kShortBackward = {sizeof(awb_backward_ext), &short_backward};
const void* counting_get_extension(const awb_variant*, const char*) {
  ++g_extension_calls;
  return &kShortBackward;
}
awb_status short_create(const awb_variant*, void** instance, char*, size_t) {
  *instance = nullptr;
  return AWB_OK;
}
void short_destroy(void*) {}
awb_status short_forward(void*, const awb_problem*, awb_results*, char*, size_t) { return AWB_OK; }

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
  CHECK_THAT(f->message, Catch::StartsWith("not a valid shared library: not an ELF file"));
}

TEST_CASE("a truncated library is not a valid shared library, never a crash", "[loader]") {
  // Mapped, the missing tail of a truncated library faults (SIGBUS), which read as the student's
  // code crashing; its headers show the damage before anything maps it.
  const fs::path dir = test::scratch("truncated");
  const fs::path whole = fs::path(AWB_TEST_PLUGIN_DIR) / "awb_qkv.so";
  const fs::path cut = dir / "attention.so";
  fs::copy_file(whole, cut);
  fs::resize_file(cut, fs::file_size(whole) / 2);
  for (const bool trusted : {false, true}) {
    core::LoadPolicy policy;
    policy.trust_all = trusted;
    const auto cat = core::load_catalog({cut}, policy);
    REQUIRE(cat.failures.size() == 1);
    CHECK(cat.failures[0].stage == core::LoadStage::kOpen);
    CHECK_THAT(cat.failures[0].message,
               Catch::StartsWith("not a valid shared library: ") && Catch::Contains("truncated"));
  }
}

TEST_CASE("a plugin given by the user wins over the bundled one with its id", "[loader]") {
  // A student's plugin that reuses a bundled id must be what is graded, never the bundled file
  // in its place.
  const fs::path dir = test::scratch("shadow");
  fs::copy_file(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_qkv.so", dir / "mine.so");
  const auto cat = core::load_catalog(core::plugin_search_path({dir}));
  const auto ref = core::find_variant(cat, "qkv");
  CHECK(ref.plugin->path == dir / "mine.so");
  CHECK_FALSE(ref.plugin->bundled);
  CHECK(ref.plugin->isolation != runner::Isolation::kInProcess);  // not trusted: a runner's
  const auto* f = failure_for(cat, "awb_qkv.so");
  REQUIRE(f);
  CHECK(f->stage == core::LoadStage::kDuplicate);
  CHECK_THAT(f->message, Catch::Contains("mine.so"));
  REQUIRE(cat.notes.size() == 1);
  CHECK_THAT(cat.notes[0], Catch::Contains("mine.so") && Catch::Contains("awb_qkv.so"));
  // Two plugins of the user with one id: the first stays, the second is the duplicate.
  fs::copy_file(dir / "mine.so", dir / "yours.so");
  const auto twice = core::load_catalog(core::plugin_search_path({dir}));
  CHECK(core::find_variant(twice, "qkv").plugin->path == dir / "mine.so");
  REQUIRE(failure_for(twice, "yours.so"));
  CHECK_THAT(failure_for(twice, "yours.so")->message, Catch::Contains("mine.so"));
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
  CHECK(cat.plugins.size() == 6);
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
  const fs::path dir =
      fs::temp_directory_path() / ("awb-loader-links-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  // A link to a bundled plugin: loaded through it, it would run in awb itself as trusted code.
  fs::create_symlink(fs::path(AWB_TEST_PLUGIN_DIR) / "awb_qkv.so", dir / "a_link.so");
  REQUIRE(::mkfifo((dir / "b_fifo.so").c_str(), 0600) == 0);  // opening it would block
  fs::create_symlink("/dev/zero", dir / "c_zero.so");         // reading it would never end
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

TEST_CASE("a folder that is a link to the bundled folder is not trusted, and is refused",
          "[loader][isolation]") {
  // Trust once went by the folder a file lies in once links are resolved: a submission folder
  // that was a link to the bundled folder ran in awb as the bundled plugins, with full marks.
  const fs::path dir =
      fs::temp_directory_path() / ("awb-loader-dirlink-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "s");
  const fs::path bundled = core::bundled_plugin_dir();
  REQUIRE(fs::equivalent(bundled, AWB_TEST_PLUGIN_DIR));
  fs::create_directory_symlink(bundled, dir / "linked");
  fs::create_symlink(bundled / "awb_qkv.so", dir / "s" / "attention.so");
  const core::Catalog cat = core::load_catalog({dir / "linked" / "awb_qkv.so"});
  REQUIRE(cat.plugins.size() == 1);
  CHECK(cat.plugins[0].library == nullptr);
  CHECK(cat.plugins[0].isolation != runner::Isolation::kInProcess);
  CHECK_FALSE(cat.plugins[0].bundled);
  // What grading refuses: the link to the folder, a link to a file in it, a folder holding one.
  CHECK(core::links_into_bundled(dir / "linked"));
  CHECK(core::links_into_bundled(dir / "linked" / "awb_qkv.so"));
  CHECK(core::links_into_bundled(dir / "s" / "attention.so"));
  CHECK(core::links_into_bundled(dir / "s"));
  // Not the bundled folder or file as written, nor a copy.
  CHECK_FALSE(core::links_into_bundled(bundled));
  CHECK_FALSE(core::links_into_bundled(bundled / "awb_qkv.so"));
  CHECK_FALSE(core::links_into_bundled(bundled.string() + "/"));
  fs::remove(dir / "s" / "attention.so");
  fs::copy_file(bundled / "awb_qkv.so", dir / "s" / "attention.so");
  CHECK_FALSE(core::links_into_bundled(dir / "s"));
  // The bundled folder as written is trusted still.
  const core::Catalog own = core::load_catalog({bundled / "awb_qkv.so"});
  REQUIRE(own.plugins.size() == 1);
  CHECK(own.plugins[0].bundled);
  CHECK(own.plugins[0].isolation == runner::Isolation::kInProcess);
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

TEST_CASE("get_extension is read only when the variant's struct_size covers it", "[loader][abi]") {
  awb_variant v{sizeof(awb_variant),
                "short",
                "Short",
                nullptr,
                AWB_CAP_F64,
                &short_create,
                &short_destroy,
                &short_forward,
                &counting_get_extension,
                0,
                nullptr};
  const awb_variant* variants[] = {&v};
  const awb_plugin_descriptor d{sizeof d, AWB_ABI_MAJOR, AWB_ABI_MINOR, "org.example.short",
                                "Short",  "1.0",         nullptr,       nullptr,
                                1,        variants};
  const size_t before = offsetof(awb_variant, get_extension);
  // Stops right before the field, and halfway into it (half a pointer is no pointer either).
  for (const size_t size : {before, before + sizeof(void*) / 2}) {
    CAPTURE(size);
    v.struct_size = size;
    g_extension_calls = 0;
    const runner::RawDescriptor raw = runner::read_descriptor(&d);
    CHECK(runner::backward_extension(&v) == nullptr);
    CHECK(g_extension_calls == 0);
    const core::LoadResult load = core::validate_descriptor(raw, "short.so");
    REQUIRE(load.plugin);  // an older plugin still loads, it just is not trainable
    CHECK_FALSE(load.plugin->variants.at(0).trainable);
  }
  v.struct_size = sizeof(awb_variant);  // the same variant declaring the field is asked
  g_extension_calls = 0;
  CHECK(runner::read_descriptor(&d).variants.at(0).has_backward);
  CHECK(runner::backward_extension(&v) == &kShortBackward);
  // read_descriptor asks for the backward and the cost extensions, backward_extension once more.
  CHECK(g_extension_calls == 3);
}
