// digest_cache.tests.cpp: a remembered digest is given back only while the file is unchanged;
// any write (even one that restores size and modification time) is hashed again.
#include "core/base/digest_cache.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <catch2/catch.hpp>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <string>

#include "core/base/sha256.hpp"

namespace fs = std::filesystem;
using namespace awb;

namespace {

struct TempDir {
  fs::path path = fs::temp_directory_path() / ("awb-digest-cache-" + std::to_string(::getpid()));
  TempDir() { fs::create_directories(path); }
  ~TempDir() { fs::remove_all(path); }
};

void write(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary | std::ios::trunc) << bytes;
}

constexpr std::chrono::nanoseconds kNoSettle{0};

// Waits (a few milliseconds at most) until the file system's clock has moved past `p`'s ctime,
// so that the next change to `p` is bound to show in its ctime.
void next_clock_tick(const fs::path& p) {
  struct stat st {};
  REQUIRE(::stat(p.c_str(), &st) == 0);
  for (;;) {
    struct timespec now {};
    ::clock_gettime(CLOCK_REALTIME_COARSE, &now);
    if (now.tv_sec > st.st_ctim.tv_sec ||
        (now.tv_sec == st.st_ctim.tv_sec && now.tv_nsec > st.st_ctim.tv_nsec))
      return;
  }
}

}  // namespace

TEST_CASE("digest cache: unchanged files are answered from memory and from the saved file",
          "[digest_cache]") {
  const TempDir dir;
  const fs::path a = dir.path / "a.so", b = dir.path / "b.so", saved = dir.path / "digests.tsv";
  write(a, "first");
  write(b, "second");
  core::DigestCache cache(kNoSettle);
  CHECK(cache.sha256(a) == core::sha256_hex("first"));
  CHECK(cache.sha256(b) == core::sha256_hex("second"));
  CHECK(cache.sha256(a) == core::sha256_hex("first"));
  CHECK(cache.hashed() == 2);
  cache.save(saved);

  core::DigestCache again(saved, kNoSettle);
  CHECK(again.sha256(a) == core::sha256_hex("first"));
  CHECK(again.sha256(b) == core::sha256_hex("second"));
  CHECK(again.hashed() == 0);

  SECTION("a rewrite that keeps the size and restores the modification time is hashed again") {
    struct stat before {};
    REQUIRE(::stat(a.c_str(), &before) == 0);
    next_clock_tick(a);
    write(a, "FIRST");
    const struct timespec times[2] = {before.st_atim, before.st_mtim};
    REQUIRE(::utimensat(AT_FDCWD, a.c_str(), times, 0) == 0);
    CHECK(again.sha256(a) == core::sha256_hex("FIRST"));
    CHECK(again.hashed() == 1);
  }
  SECTION("a file replaced by another (a new inode) is hashed again") {
    next_clock_tick(a);
    write(dir.path / "new.so", "first");
    fs::rename(dir.path / "new.so", a);
    CHECK(again.sha256(a) == core::sha256_hex("first"));
    CHECK(again.hashed() == 1);
  }
  SECTION("only the files asked about since loading are saved") {
    core::DigestCache partial(saved, kNoSettle);
    CHECK(partial.sha256(b) == core::sha256_hex("second"));
    partial.save(saved);
    core::DigestCache reloaded(saved, kNoSettle);
    CHECK(reloaded.sha256(a) == core::sha256_hex("first"));
    CHECK(reloaded.hashed() == 1);  // a was dropped
  }
}

TEST_CASE("digest cache: a damaged or foreign cache file costs only hashing", "[digest_cache]") {
  const TempDir dir;
  const fs::path a = dir.path / "a.so", saved = dir.path / "digests.tsv";
  write(a, "bytes");
  SECTION("missing") {
    CHECK(core::DigestCache(dir.path / "none.tsv").sha256(a) == core::sha256_hex("bytes"));
  }
  SECTION("not a cache file") {
    write(saved, "hello\n1 2 3\n");
    CHECK(core::DigestCache(saved).sha256(a) == core::sha256_hex("bytes"));
  }
  SECTION(
      "a damaged line among good ones is skipped; a forged digest for a changed file is not "
      "believed") {
    core::DigestCache cache(kNoSettle);
    cache.sha256(a);
    cache.save(saved);
    std::ifstream in(saved);
    std::string header, line;
    std::getline(in, header);
    std::getline(in, line);
    in.close();
    // The same stat fields with another digest: believed only while the file is unchanged,
    // which is what the cache promises; after a write the file is read again.
    const size_t digest_start = line.size() - a.string().size() - 1 - 64;
    const std::string forged =
        line.substr(0, digest_start) + std::string(64, 'f') + line.substr(digest_start + 64);
    write(saved, header + "\nnot\ta line\n" + forged + "\n");
    next_clock_tick(a);
    write(a, "other");
    core::DigestCache loaded(saved, kNoSettle);
    CHECK(loaded.sha256(a) == core::sha256_hex("other"));
    CHECK(loaded.hashed() == 1);
  }
}

TEST_CASE("digest cache: a file changed moments ago is hashed but not remembered",
          "[digest_cache]") {
  const TempDir dir;
  const fs::path a = dir.path / "a.so";
  write(a, "fresh");
  core::DigestCache cache;  // the default settling time, seconds
  CHECK(cache.sha256(a) == core::sha256_hex("fresh"));
  CHECK(cache.sha256(a) == core::sha256_hex("fresh"));
  CHECK(cache.hashed() == 2);
}
