// export_folder.cpp: staging folder + marker + renameat2(RENAME_EXCHANGE) (export_folder.hpp).
#include "core/base/export_folder.hpp"

#include <fcntl.h>
#include <stdio.h>  // renameat2 (glibc 2.28 and later)
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include "core/base/atomic_file.hpp"
#include "core/base/regular_file.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace fs = std::filesystem;

namespace {

// Whether `dir` exists and may be replaced (an empty folder or an earlier export); false when it
// is absent. Throws export.usage for anything else.
bool replaceable(const fs::path& dir) {
  struct stat st {};
  if (::lstat(dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return false;
    throw Error("io.write", dir.string(), std::string("lstat: ") + std::strerror(errno));
  }
  if (!S_ISDIR(st.st_mode))
    throw Error("export.usage", dir.string(),
                kind_of(st.st_mode) + ", not a folder: --export writes a folder of its own");
  std::error_code ec;
  if (fs::is_regular_file(fs::symlink_status(dir / kExportMarker, ec))) return true;
  if (fs::is_empty(dir, ec) && !ec) return true;
  throw Error("export.usage", dir.string(),
              "holds files that are not an earlier awb export (it has no " +
                  std::string(kExportMarker) +
                  "); awb replaces only its own exports: give an empty or a new folder");
}

void remove_all_quietly(const fs::path& p) {
  std::error_code ec;
  fs::remove_all(p, ec);
}

}  // namespace

void publish_folder(const fs::path& where, const std::string& what,
                    const std::function<void(const fs::path& staging)>& fill) {
  const fs::path dir = where.filename().empty() ? where.parent_path() : where;  // "out/" is "out"
  const bool exists = replaceable(dir);
  const fs::path parent = dir.has_parent_path() ? dir.parent_path() : ".";
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec) throw Error("io.write", parent.string(), ec.message());
  std::string tmpl = (parent / ("." + dir.filename().string() + ".staging-XXXXXX")).string();
  if (!::mkdtemp(tmpl.data()))
    throw Error("io.write", dir.string(), std::string("mkdtemp: ") + std::strerror(errno));
  const fs::path staging = tmpl;
  try {
    fill(staging);
    write_file_atomic(staging / kExportMarker, what + "\n");
    ::chmod(staging.c_str(), 0755);  // mkdtemp makes it private; an export is for reading
    fsync_folder(staging);
  } catch (...) {
    remove_all_quietly(staging);
    throw;
  }
  auto fail = [&](const char* step) {
    const std::string why = std::strerror(errno);
    remove_all_quietly(staging);
    throw Error("io.write", dir.string(), std::string(step) + ": " + why);
  };
  if (!exists) {
    if (::rename(staging.c_str(), dir.c_str()) != 0) fail("rename");
  } else {
    // One exchange: at every moment `dir` is the old export or the new one.
    if (::renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) == 0) {
      remove_all_quietly(staging);  // now the old export
    } else if (errno == EINVAL || errno == ENOSYS) {
      // A file system without the exchange: the old export aside, then the new one in its place
      // (for a moment there is none, but never a mix of the two).
      const fs::path old = staging.string() + ".old";
      if (::rename(dir.c_str(), old.c_str()) != 0) fail("rename");
      if (::rename(staging.c_str(), dir.c_str()) != 0) {
        const std::string why = std::strerror(errno);
        ::rename(old.c_str(), dir.c_str());  // the old export back
        remove_all_quietly(staging);
        throw Error("io.write", dir.string(), "rename: " + why);
      }
      remove_all_quietly(old);
    } else {
      fail("renameat2");
    }
  }
  fsync_folder(parent);
}

}  // namespace awb::core
