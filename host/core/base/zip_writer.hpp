// zip_writer.hpp: a ZIP archive of a few files, stored as they are (no compression), for
// autograder bundles.
//
// Format: PKWARE's APPNOTE.TXT (6.3), sections 4.3.7 (local file header), 4.3.12 (central
// directory header) and 4.3.16 (end of central directory record). Entries are stored (method
// 0): what goes into a bundle is small text or already compressed (a .deb), and `unzip`, Python's
// zipfile and every platform's extractor read stored entries. Each entry carries its Unix mode
// (an executable script stays executable) and one fixed time, so the same files give the same
// bytes. No ZIP64: an archive or entry of 4 GiB or more, or more than 65,535 entries, is refused.
#ifndef AWB_CORE_BASE_ZIP_WRITER_HPP_
#define AWB_CORE_BASE_ZIP_WRITER_HPP_

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace awb::core {

struct ZipEntry {
  std::string name;     // relative, '/'-separated ("exercises/journey.yaml"), UTF-8
  std::string content;  // the bytes
  bool executable = false;
};

// The archive's bytes. Throws awb::Error("io.write") when an entry's name is empty, absolute,
// holds a ".." component or a backslash, appears twice, or the archive would need ZIP64.
std::string zip_archive(const std::vector<ZipEntry>& entries);

// The CRC-32 ZIP uses (ISO 3309, reflected polynomial 0xEDB88320).
uint32_t crc32(std::string_view bytes);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_ZIP_WRITER_HPP_
