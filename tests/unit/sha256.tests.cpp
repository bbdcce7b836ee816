// sha256.tests.cpp: SHA-256 against the FIPS 180-2 known answers, in memory and through the
// file path that reads in 64 KiB pieces.
#include "core/base/sha256.hpp"

#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <string>

#include "graders/model/error.hpp"

namespace fs = std::filesystem;
using namespace awb;

namespace {

constexpr const char* kEmpty = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
constexpr const char* kMillionA =
    "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";

// A file of its own per test process, removed when the test is done.
struct TempFile {
  fs::path path;
  explicit TempFile(const std::string& bytes)
      : path(fs::temp_directory_path() / ("awb-sha256-" + std::to_string(::getpid()))) {
    std::ofstream(path, std::ios::binary) << bytes;
  }
  ~TempFile() { fs::remove(path); }
};

}  // namespace

TEST_CASE("SHA-256 known answers (FIPS 180-2)", "[sha256]") {
  CHECK(core::sha256_hex("") == kEmpty);
  CHECK(core::sha256_hex("abc") ==
        "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  // 448 bits: the padding no longer fits the first block, so a second one is added.
  CHECK(core::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(core::sha256_hex("abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmno"
                         "ijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu") ==
        "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1");
  CHECK(core::sha256_hex(std::string(1000000, 'a')) == kMillionA);
}

TEST_CASE("SHA-256 of a file, read in pieces", "[sha256]") {
  SECTION("one million 'a': fifteen 64 KiB reads and a partial one") {
    const TempFile f(std::string(1000000, 'a'));
    CHECK(core::sha256_file(f.path) == kMillionA);
  }
  SECTION("an empty file") {
    const TempFile f("");
    CHECK(core::sha256_file(f.path) == kEmpty);
  }
  SECTION("exactly one read's worth, then the end") {
    const std::string bytes(std::size_t(1) << 16, 'x');
    const TempFile f(bytes);
    CHECK(core::sha256_file(f.path) == core::sha256_hex(bytes));
  }
  SECTION("a file over the cap is refused, not hashed") {
    const TempFile f(std::string(100, 'a'));
    CHECK_THROWS_AS(core::sha256_file(f.path, 99), Error);
    CHECK(core::sha256_file(f.path, 100) == core::sha256_hex(std::string(100, 'a')));
  }
}

TEST_CASE("SHA-256 around the padding edges: in memory and from a file agree", "[sha256]") {
  // Every length around the padding edges (55, 56, 63, 64 bytes) and several blocks, of bytes
  // that are not all alike: the one-shot digest and the file's, read through its own loop.
  std::string bytes;
  uint32_t x = 12345;
  for (int i = 0; i < 300; ++i) {
    x = x * 1664525u + 1013904223u;
    bytes += static_cast<char>(x >> 24);
  }
  for (size_t n : {0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 300}) {
    const std::string prefix = bytes.substr(0, n);
    INFO("length " << n);
    const TempFile f(prefix);
    CHECK(core::sha256_file(f.path) == core::sha256_hex(prefix));
  }
  // A known answer across the padding edge: 56 bytes of 'a'.
  CHECK(core::sha256_hex(std::string(56, 'a')) ==
        "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
}
