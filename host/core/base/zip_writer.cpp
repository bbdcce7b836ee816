// zip_writer.cpp: stored ZIP entries, their central directory and its end record (APPNOTE 6.3).
#include "core/base/zip_writer.hpp"

#include <array>
#include <limits>
#include <set>

#include "graders/model/error.hpp"

namespace awb::core {
namespace {

constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kEndOfCentral = 0x06054b50;
constexpr uint16_t kVersionNeeded = 10;                 // 1.0: stored entries only
constexpr uint16_t kVersionMadeBy = (3 << 8) | 20;      // host 3 (Unix): the mode is meaningful
constexpr uint16_t kUtf8Names = 1 << 11;                // general purpose flag bit 11
constexpr uint16_t kDosDate = (0 << 9) | (1 << 5) | 1;  // 1980-01-01, the earliest DOS date
constexpr uint16_t kDosTime = 0;
constexpr uint32_t kRegularFile = 0100000;  // S_IFREG, in the high half of the external attributes

std::array<uint32_t, 256> crc_table() {
  std::array<uint32_t, 256> table{};
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[n] = c;
  }
  return table;
}

void put16(std::string& out, uint16_t v) {
  out += static_cast<char>(v & 0xFF);
  out += static_cast<char>(v >> 8);
}

void put32(std::string& out, uint32_t v) {
  put16(out, static_cast<uint16_t>(v & 0xFFFF));
  put16(out, static_cast<uint16_t>(v >> 16));
}

// A name every extractor puts inside the folder it extracts into.
void check_name(const std::string& name, std::set<std::string>& seen) {
  const auto refuse = [&](const std::string& why) {
    throw Error("io.write", name, "cannot be a ZIP entry: " + why);
  };
  if (name.empty() || name.front() == '/' || name.back() == '/') refuse("not a relative file name");
  if (name.find('\\') != std::string::npos) refuse("holds a backslash");
  if (name.find('\0') != std::string::npos) refuse("holds a NUL byte");
  for (size_t start = 0; start <= name.size();) {
    const size_t end = std::min(name.find('/', start), name.size());
    const std::string part = name.substr(start, end - start);
    if (part.empty() || part == "." || part == "..") refuse("holds an empty, '.' or '..' part");
    start = end + 1;
  }
  if (name.size() > std::numeric_limits<uint16_t>::max()) refuse("too long");
  if (!seen.insert(name).second) refuse("named twice");
}

bool ascii(const std::string& s) {
  for (char c : s)
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  return true;
}

}  // namespace

uint32_t crc32(std::string_view bytes) {
  static const std::array<uint32_t, 256> table = crc_table();
  uint32_t c = 0xFFFFFFFFu;
  for (char b : bytes) c = table[(c ^ static_cast<unsigned char>(b)) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::string zip_archive(const std::vector<ZipEntry>& entries) {
  constexpr uint64_t kMax32 = std::numeric_limits<uint32_t>::max();
  if (entries.size() > std::numeric_limits<uint16_t>::max())
    throw Error("io.write", "zip", "more than 65535 entries would need ZIP64");
  std::set<std::string> seen;
  std::string out, central;
  for (const auto& e : entries) {
    check_name(e.name, seen);
    if (e.content.size() >= kMax32 || out.size() >= kMax32)
      throw Error("io.write", e.name, "an archive of 4 GiB or more would need ZIP64");
    const auto offset = static_cast<uint32_t>(out.size());
    const auto size = static_cast<uint32_t>(e.content.size());
    const uint32_t crc = crc32(e.content);
    const uint16_t flags = ascii(e.name) ? 0 : kUtf8Names;
    const auto name_size = static_cast<uint16_t>(e.name.size());

    put32(out, kLocalHeader);
    put16(out, kVersionNeeded);
    put16(out, flags);
    put16(out, 0);  // method: stored
    put16(out, kDosTime);
    put16(out, kDosDate);
    put32(out, crc);
    put32(out, size);  // compressed size: the same, stored
    put32(out, size);
    put16(out, name_size);
    put16(out, 0);  // no extra field
    out += e.name;
    out += e.content;

    put32(central, kCentralHeader);
    put16(central, kVersionMadeBy);
    put16(central, kVersionNeeded);
    put16(central, flags);
    put16(central, 0);
    put16(central, kDosTime);
    put16(central, kDosDate);
    put32(central, crc);
    put32(central, size);
    put32(central, size);
    put16(central, name_size);
    put16(central, 0);  // extra field
    put16(central, 0);  // comment
    put16(central, 0);  // disk number
    put16(central, 0);  // internal attributes
    put32(central, (kRegularFile | (e.executable ? 0755u : 0644u)) << 16);
    put32(central, offset);
    central += e.name;
  }
  if (out.size() + central.size() >= kMax32)
    throw Error("io.write", "zip", "an archive of 4 GiB or more would need ZIP64");
  const auto central_offset = static_cast<uint32_t>(out.size());
  const auto count = static_cast<uint16_t>(entries.size());
  out += central;
  put32(out, kEndOfCentral);
  put16(out, 0);  // this disk
  put16(out, 0);  // the disk the central directory starts on
  put16(out, count);
  put16(out, count);
  put32(out, static_cast<uint32_t>(central.size()));
  put32(out, central_offset);
  put16(out, 0);  // no comment
  return out;
}

}  // namespace awb::core
