// batch_results.cpp: the ownership marker of a results folder, and its lock.
#include "core/grading/batch_results.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>

#include "core/base/atomic_file.hpp"
#include "core/base/bounded_read.hpp"
#include "core/base/version.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;

constexpr const char* kMagic = "awb-results 1";
constexpr uintmax_t kMarkerMaxBytes = 4096;

const char* kind_name(ResultsKind kind) { return kind == ResultsKind::kBatch ? "batch" : "merge"; }

// Whether `folder` holds a marker file (a results folder of awb's, e.g. a shard's).
bool has_marker(const fs::path& folder) {
  std::error_code ec;
  return fs::is_regular_file(fs::symlink_status(folder / kResultsMarker, ec));
}

// A folder an earlier awb wrote (before the marker): its journal, or a `current` link to one of
// its report sets.
bool earlier_awb_results(const fs::path& folder) {
  std::error_code ec;
  if (fs::is_regular_file(fs::symlink_status(folder / "journal.jsonl", ec))) return true;
  if (!fs::is_symlink(fs::symlink_status(folder / "current", ec))) return false;
  return fs::read_symlink(folder / "current", ec).string().rfind("reports.", 0) == 0;
}

// Empty, or holding only awb's results folders (shards a merge writes beside).
bool empty_for_results(const fs::path& folder) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(folder, ec)) {
    if (e.is_symlink(ec) || !e.is_directory(ec) || !has_marker(e.path())) return false;
  }
  return !ec;
}

constexpr const char* kAdoptedLine = "adopted earlier awb\n";

std::string marker_text(ResultsKind kind, bool adopted) {
  return std::string(kMagic) + "\nkind " + kind_name(kind) + "\ncreated_by awb " + AWB_VERSION +
         "\n" + (adopted ? kAdoptedLine : "");
}

[[noreturn]] void not_awbs(const fs::path& folder, const std::string& why) {
  throw Error("batch.out_not_awb", folder.string(),
              "--out names an existing folder that awb did not create (" + why +
                  "): awb writes its results only into a new or empty folder or one of its own; "
                  "give another --out");
}

}  // namespace

long flock_holder(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return 0;
  std::ifstream locks("/proc/locks");
  std::string line;
  const std::string inode = ":" + std::to_string(st.st_ino) + " ";
  while (std::getline(locks, line)) {
    std::istringstream in(line);
    std::string n, type, mode, access, dev;
    long pid = 0;
    if (!(in >> n >> type >> mode >> access >> pid >> dev)) continue;
    // Lines read "1: FLOCK  ADVISORY  WRITE <pid> <major>:<minor>:<inode> 0 EOF".
    if (type == "FLOCK" && (dev + " ").size() > inode.size() &&
        (dev + " ").compare((dev + " ").size() - inode.size(), inode.size(), inode) == 0)
      return pid;
  }
  return 0;
}

ResultsFolder ResultsFolder::claim(const fs::path& folder, ResultsKind kind) {
  std::error_code ec;
  const bool existed = fs::exists(fs::symlink_status(folder, ec));
  if (!existed) {
    fs::create_directories(folder, ec);
    if (ec) throw Error("io.write", folder.string(), ec.message());
  } else if (!fs::is_directory(folder, ec)) {
    throw Error("batch.usage", folder.string(), "--out names a file, not a folder");
  }
  const fs::path marker = folder / kResultsMarker;
  // A marker that is not a small regular file (a FIFO, a link) is not one awb wrote.
  auto open_marker = [&](int flags) {
    try {
      return open_bounded(marker, flags, kMarkerMaxBytes, "the results marker");
    } catch (const Error& e) {
      not_awbs(folder, e.message());
    }
  };
  int fd = open_marker(O_RDWR);
  bool adopted = false;
  if (fd < 0 && errno == ENOENT) {
    adopted = !empty_for_results(folder);
    if (adopted && !earlier_awb_results(folder))
      not_awbs(folder, "it holds files and no " + std::string(kResultsMarker));
    fd = open_marker(O_RDWR | O_CREAT);
  }
  if (fd < 0)
    not_awbs(folder, std::string(kResultsMarker) + " cannot be opened: " + std::strerror(errno));
  ResultsFolder held(fd);  // closes fd if anything below throws
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    if (errno != EWOULDBLOCK)
      throw Error("io.write", marker.string(), std::string("flock: ") + std::strerror(errno));
    const long pid = flock_holder(fd);
    throw Error("batch.results_locked", folder.string(),
                "in use by " + (pid > 0 ? "pid " + std::to_string(pid) : "another process") +
                    ": another awb grade --batch or grade merge is writing these results; "
                    "wait for it to finish");
  }
  char buf[kMarkerMaxBytes];
  const ssize_t n = ::pread(fd, buf, sizeof buf, 0);
  const std::string text = n > 0 ? std::string(buf, static_cast<size_t>(n)) : "";
  if (text.empty()) {
    // New (or a claim killed before it wrote): the marker is written under the lock.
    const std::string mine = marker_text(kind, adopted);
    if (::pwrite(fd, mine.data(), mine.size(), 0) != static_cast<ssize_t>(mine.size()) ||
        ::fsync(fd) != 0)
      throw Error("io.write", marker.string(),
                  std::string("cannot write the marker: ") + std::strerror(errno));
    fsync_folder(folder);
    return held;
  }
  if (text.rfind(std::string(kMagic) + "\n", 0) != 0)
    not_awbs(folder, std::string(kResultsMarker) + " is not awb's marker");
  const std::string theirs = text.find("\nkind merge\n") != std::string::npos ? "merge" : "batch";
  if (theirs != kind_name(kind))
    throw Error("batch.usage", folder.string(),
                theirs == "merge"
                    ? "holds merged reports (awb grade merge): grade the batch into another folder"
                    : "holds a batch's results: the merged reports would replace that batch's "
                      "own; merge into another folder");
  return held;
}

bool results_adopted(const fs::path& folder) {
  try {
    const auto text = read_bounded_file(folder / kResultsMarker, kMarkerMaxBytes, "the marker");
    return text && text->find(std::string("\n") + kAdoptedLine) != std::string::npos;
  } catch (const Error&) {
    return false;
  }
}

ResultsFolder::ResultsFolder(ResultsFolder&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }

ResultsFolder::~ResultsFolder() {
  if (fd_ >= 0) ::close(fd_);  // also releases the lock
}

}  // namespace awb::core
