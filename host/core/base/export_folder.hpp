// export_folder.hpp: a folder of results written whole, so that it never holds two runs: the files
// go into a staging folder beside it, which then takes its place in one rename.
#ifndef AWB_CORE_BASE_EXPORT_FOLDER_HPP_
#define AWB_CORE_BASE_EXPORT_FOLDER_HPP_

#include <filesystem>
#include <functional>
#include <string>

namespace awb::core {

// The file that marks a folder as one publish_folder wrote ("awb compare export").
inline constexpr const char* kExportMarker = ".awb-export";

// Calls `fill(staging)` to write every file of the export into a fresh folder beside `dir`, writes
// the marker (holding `what`, e.g. "awb compare export"), then puts the staging folder in `dir`'s
// place: a rename when `dir` is absent, an atomic exchange when it is an empty folder or an
// earlier export (it holds the marker), after which the old content is removed. Readers see the
// old export or the new, never a mix. Anything else at `dir` (a folder with files of its own, a
// file, a link) throws awb::Error("export.usage") before anything is written. When `fill` throws,
// the staging folder is removed and `dir` is untouched. I/O failures throw Error("io.write").
void publish_folder(const std::filesystem::path& dir, const std::string& what,
                    const std::function<void(const std::filesystem::path& staging)>& fill);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_EXPORT_FOLDER_HPP_
