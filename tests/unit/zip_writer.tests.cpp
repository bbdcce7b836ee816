// zip_writer.tests.cpp: the stored-ZIP writer, read back by a reader of its own as an extractor
// reads an archive.
#include "core/base/zip_writer.hpp"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "support/test_support.hpp"

using awb::test::thrown_error_id;
using namespace awb::core;

namespace {

uint32_t get(const std::string& bytes, size_t at, int size) {
  REQUIRE(at + size <= bytes.size());
  uint32_t v = 0;
  for (int i = size - 1; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(bytes[at + i]);
  return v;
}

struct ReadEntry {
  std::string content;
  uint32_t mode = 0;  // the Unix mode from the external attributes
};

// Reads an archive the way an extractor does: the end record, then the central directory, then
// each local header it points to; every field that must agree between them is checked.
std::map<std::string, ReadEntry> read_zip(const std::string& zip) {
  REQUIRE(zip.size() >= 22);
  const size_t end = zip.size() - 22;  // no archive comment
  REQUIRE(get(zip, end, 4) == 0x06054b50);
  const uint32_t count = get(zip, end + 10, 2);
  CHECK(get(zip, end + 8, 2) == count);
  size_t at = get(zip, end + 16, 4);
  CHECK(at + get(zip, end + 12, 4) == end);  // the directory ends where the end record starts
  std::map<std::string, ReadEntry> out;
  for (uint32_t i = 0; i < count; ++i) {
    REQUIRE(get(zip, at, 4) == 0x02014b50);
    CHECK(get(zip, at + 4, 2) >> 8 == 3);  // made on Unix: the mode is meaningful
    CHECK(get(zip, at + 10, 2) == 0);      // stored
    const uint32_t crc = get(zip, at + 16, 4), size = get(zip, at + 24, 4);
    CHECK(get(zip, at + 20, 4) == size);
    const uint32_t name_size = get(zip, at + 28, 2);
    const uint32_t extra = get(zip, at + 30, 2), comment = get(zip, at + 32, 2);
    const uint32_t mode = get(zip, at + 38, 4) >> 16;
    const uint32_t local = get(zip, at + 42, 4);
    const std::string name = zip.substr(at + 46, name_size);
    at += 46 + name_size + extra + comment;

    REQUIRE(get(zip, local, 4) == 0x04034b50);
    CHECK(get(zip, local + 14, 4) == crc);
    CHECK(get(zip, local + 22, 4) == size);
    CHECK(zip.substr(local + 30, get(zip, local + 26, 2)) == name);
    const size_t data = local + 30 + get(zip, local + 26, 2) + get(zip, local + 28, 2);
    const std::string content = zip.substr(data, size);
    CHECK(crc32(content) == crc);
    CHECK(out.emplace(name, ReadEntry{content, mode}).second);
  }
  return out;
}

}  // namespace

TEST_CASE("zip: CRC-32 of the standard check string", "[zip]") {
  CHECK(crc32("") == 0);
  CHECK(crc32("123456789") == 0xCBF43926u);
}

TEST_CASE("zip: entries read back with their bytes and modes", "[zip]") {
  std::string binary(300, '\0');
  for (size_t i = 0; i < binary.size(); ++i) binary[i] = static_cast<char>(i * 7);
  const std::vector<ZipEntry> entries{{"run_autograder", "#!/bin/sh\necho hi\n", true},
                                      {"exercises/river-bank.yaml", "id: river-bank\n", false},
                                      {"awb.deb", binary, false},
                                      {"empty", "", false}};
  const std::string zip = zip_archive(entries);
  // Stored: 30 + name + data per local entry, 46 + name per directory entry, 22 at the end.
  size_t expected = 22;
  for (const auto& e : entries) expected += 30 + 46 + 2 * e.name.size() + e.content.size();
  CHECK(zip.size() == expected);
  const auto read = read_zip(zip);
  REQUIRE(read.size() == entries.size());
  for (const auto& e : entries) {
    INFO(e.name);
    REQUIRE(read.count(e.name) == 1);
    CHECK(read.at(e.name).content == e.content);
    CHECK(read.at(e.name).mode == (e.executable ? 0100755u : 0100644u));
  }
  // The same files, the same bytes: no time of day in the archive.
  CHECK(zip_archive(entries) == zip);
  CHECK(read_zip(zip_archive({})).empty());
}

TEST_CASE("zip: names an extractor could put outside its folder are refused", "[zip]") {
  // Absolute, climbing out, empty parts, a folder, Windows separators, a NUL cutting it short.
  const std::vector<std::string> names{
      "", "/etc/passwd", "../x", "a/../../x", "a//b", "a/", "./a", "a\\b", std::string("a\0b", 3),
  };
  for (const auto& name : names) {
    INFO(name);
    CHECK(thrown_error_id([&] { zip_archive({{name, "x", false}}); }) == "io.write");
  }
  CHECK(thrown_error_id([] { zip_archive({{"a", "1", false}, {"a", "2", false}}); }) == "io.write");
}
