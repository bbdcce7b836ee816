// source_tree.tests.cpp: what a source submission's build cache key sees, how its sources are
// copied for the sandbox (links never followed), and which lines of a log become feedback.
#include "core/builds/source_tree.hpp"

#include <catch2/catch.hpp>
#include <filesystem>

#include "core/base/sha256.hpp"
#include "graders/model/error.hpp"
#include "support/scratch.hpp"

namespace fs = std::filesystem;
using awb::core::copy_source_tree;
using awb::core::first_build_errors;
using awb::core::is_source_tree;
using awb::core::source_tree_digest;

namespace {

void write_text(const fs::path& p, const std::string& text) {
  fs::create_directories(p.parent_path());
  awb::test::spit(p, text);
}

fs::path fresh_folder(const std::string& name) { return awb::test::scratch("source-tree-" + name); }

constexpr uint64_t kMiB = 1 << 20;

}  // namespace

TEST_CASE("a source tree is a folder with a CMakeLists.txt at its top", "[builds]") {
  const fs::path dir = fresh_folder("kind");
  CHECK_FALSE(is_source_tree(dir));
  write_text(dir / "src" / "CMakeLists.txt", "");
  CHECK_FALSE(is_source_tree(dir));
  write_text(dir / "CMakeLists.txt", "project(x)");
  CHECK(is_source_tree(dir));
}

TEST_CASE("the digest follows contents, names and links, not .git or timestamps", "[builds]") {
  const fs::path dir = fresh_folder("digest");
  write_text(dir / "CMakeLists.txt", "project(x)");
  write_text(dir / "src" / "a.cpp", "int a;");
  const std::string d0 = source_tree_digest(dir, kMiB);
  CHECK(d0.size() == 64);
  fs::last_write_time(dir / "src" / "a.cpp",
                      fs::file_time_type::clock::now() - std::chrono::hours(5));
  CHECK(source_tree_digest(dir, kMiB) == d0);
  write_text(dir / ".git" / "HEAD", "ref: refs/heads/main");
  CHECK(source_tree_digest(dir, kMiB) == d0);
  write_text(dir / "src" / "a.cpp", "int b;");
  const std::string d1 = source_tree_digest(dir, kMiB);
  CHECK(d1 != d0);
  fs::rename(dir / "src" / "a.cpp", dir / "src" / "b.cpp");
  CHECK(source_tree_digest(dir, kMiB) != d1);
  fs::create_symlink("/etc/hostname", dir / "link");
  const std::string with_link = source_tree_digest(dir, kMiB);
  fs::remove(dir / "link");
  fs::create_symlink("/etc/os-release", dir / "link");
  CHECK(source_tree_digest(dir, kMiB) != with_link);
}

TEST_CASE("sources above the size limit are refused by name", "[builds]") {
  const fs::path dir = fresh_folder("large");
  write_text(dir / "CMakeLists.txt", "project(x)");
  write_text(dir / "data.bin", std::string(2 * kMiB, 'x'));
  try {
    source_tree_digest(dir, kMiB);
    FAIL("no error");
  } catch (const awb::Error& e) {
    CHECK(e.id() == "build.source_too_large");
  }
}

TEST_CASE("the copy keeps links as links and skips what is not a file", "[builds]") {
  const fs::path dir = fresh_folder("copy-from");
  const fs::path to = fresh_folder("copy-to") / "src";
  write_text(dir / "CMakeLists.txt", "project(x)");
  write_text(dir / "src" / "a.cpp", "int a;");
  write_text(dir / ".git" / "HEAD", "ref");
  fs::create_symlink("/etc/hostname", dir / "secret");
  copy_source_tree(dir, to);
  CHECK(fs::is_regular_file(to / "CMakeLists.txt"));
  CHECK(fs::is_regular_file(to / "src" / "a.cpp"));
  CHECK_FALSE(fs::exists(to / ".git"));
  REQUIRE(fs::is_symlink(to / "secret"));
  CHECK(fs::read_symlink(to / "secret") == "/etc/hostname");
  CHECK(source_tree_digest(to, kMiB) == source_tree_digest(dir, kMiB));
}

TEST_CASE("a build log's first errors read as paths inside the submission", "[builds]") {
  const std::string log =
      "awb-builder: == cmake --build /tmp/awb-build-X/cmake\n"
      "[1/2] Building CXX object CMakeFiles/p.dir/src/p.cpp.o\n"
      "FAILED: CMakeFiles/p.dir/src/p.cpp.o\n"
      "/tmp/awb-build-X/src/src/p.cpp:43:20: error: expected primary-expression\n"
      "   43 |     r.z() = a * x +;\n"
      "      |                    ^\n"
      "ninja: build stopped: subcommand failed.\n"
      "awb-builder: the build step failed (cmake exited with status 1)\n";
  const std::string errors = first_build_errors(log, "/tmp/awb-build-X", 20);
  CHECK(errors.find("src/p.cpp:43:20: error: expected primary-expression") == 0);
  CHECK(errors.find("r.z() = a * x +;") != std::string::npos);
  CHECK(errors.find("/tmp/awb-build-X") == std::string::npos);
  CHECK(errors.find("awb-builder") == std::string::npos);
  CHECK(errors.find("[1/2]") == std::string::npos);
  CHECK(first_build_errors(log, "/tmp/awb-build-X", 1) ==
        "src/p.cpp:43:20: error: expected primary-expression\n");
}

TEST_CASE("no file name makes one tree's digest another's", "[builds]") {
  // The digest once hashed "file\t<path>\t<sha>\n" lines: a single file whose name holds a tab
  // and a newline read as two files, so a crafted submission took another student's key and
  // that student's build was "failed" from the cache.
  const fs::path honest = fresh_folder("honest");
  write_text(honest / "a", "X");
  write_text(honest / "b", "Y");
  const fs::path crafted = fresh_folder("crafted");
  write_text(crafted / ("a\t" + awb::core::sha256_hex("X") + "\nfile\tb"), "Y");
  CHECK(source_tree_digest(crafted, kMiB) != source_tree_digest(honest, kMiB));
}

TEST_CASE("a compiler that ran out of memory is told from one that found an error", "[builds]") {
  // As GCC 12 printed it under a 120 MB address-space limit: no "error:" on the line, so the
  // build was "cmake exited with status 1" with no error lines.
  const std::string gcc =
      "[1/2] Building CXX object CMakeFiles/p.dir/p.cpp.o\n"
      "FAILED: CMakeFiles/p.dir/p.cpp.o\n"
      "cc1plus: out of memory allocating 101189280 bytes after a total of 1978368 bytes\n"
      "ninja: build stopped: subcommand failed.\n"
      "awb-builder: the build step failed (cmake exited with status 1)\n";
  CHECK(awb::core::log_shows_out_of_memory(gcc));
  CHECK_THAT(first_build_errors(gcc, "/tmp/awb-build-X", 20),
             Catch::Contains("cc1plus: out of memory allocating 101189280 bytes"));
  CHECK(awb::core::log_shows_out_of_memory("LLVM ERROR: out of memory\n"));
  CHECK(awb::core::log_shows_out_of_memory("virtual memory exhausted: Cannot allocate memory\n"));
  CHECK_FALSE(awb::core::log_shows_out_of_memory(
      "p.cpp:1:1: error: 'x' was not declared in this scope\n"
      "awb-builder: the build step failed (cmake exited with status 1)\n"));
}
