// digest_cache.cpp: one line per file, tab-separated: device, inode, size, mtime and ctime in
// nanoseconds, the digest, then the absolute path (last, so that it may hold tabs).
#include "core/base/digest_cache.hpp"

#include <sys/stat.h>
#include <time.h>

#include <optional>
#include <sstream>

#include "core/base/atomic_file.hpp"
#include "core/base/bounded_read.hpp"
#include "core/base/sha256.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

constexpr const char* kHeader = "awb digest cache 1";

int64_t nanoseconds(const struct timespec& t) { return int64_t(t.tv_sec) * 1000000000 + t.tv_nsec; }

bool stat_entry(const std::filesystem::path& file, DigestCache::Entry& e) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;
  e.device = uint64_t(st.st_dev);
  e.inode = uint64_t(st.st_ino);
  e.size = uint64_t(st.st_size);
  e.mtime_ns = nanoseconds(st.st_mtim);
  e.ctime_ns = nanoseconds(st.st_ctim);
  return true;
}

bool same_file_state(const DigestCache::Entry& a, const DigestCache::Entry& b) {
  return a.device == b.device && a.inode == b.inode && a.size == b.size &&
         a.mtime_ns == b.mtime_ns && a.ctime_ns == b.ctime_ns;
}

constexpr std::uintmax_t kMaxCacheBytes = std::uintmax_t{256} << 20;

bool is_digest(const std::string& s) {
  return s.size() == 64 && s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

}  // namespace

DigestCache::DigestCache(const std::filesystem::path& file, std::chrono::nanoseconds settle)
    : settle_(settle) {
  // Only a cache: one that is not a regular file of a sane size (a FIFO must not hang the
  // batch) is not read, and is replaced by the next save.
  std::optional<std::string> text;
  try {
    text = read_bounded_file(file, kMaxCacheBytes, "the digest cache");
  } catch (const Error&) {
  }
  if (!text) return;
  std::istringstream in(*text);
  std::string line;
  if (!std::getline(in, line) || line != kHeader) return;
  while (std::getline(in, line)) {
    std::istringstream fields(line);
    Entry e;
    std::string path;
    fields >> e.device >> e.inode >> e.size >> e.mtime_ns >> e.ctime_ns >> e.sha256;
    if (!fields || fields.get() != '\t' || !std::getline(fields, path) || path.empty() ||
        !is_digest(e.sha256))
      continue;
    entries_[path] = e;
  }
}

std::string DigestCache::sha256(const std::filesystem::path& file) {
  const std::string key = std::filesystem::absolute(file).lexically_normal().string();
  Entry now;
  const bool statted = stat_entry(file, now);
  if (statted) {
    std::lock_guard lock(mutex_);
    const auto it = entries_.find(key);
    if (it != entries_.end() && same_file_state(it->second, now)) {
      it->second.used = true;
      return it->second.sha256;
    }
  }
  // Stat before hashing: a write during the hashing moves ctime past what is remembered, so the
  // next run hashes the file again.
  now.sha256 = sha256_file(file);
  ++hashed_;
  struct timespec clock {};
  ::clock_gettime(CLOCK_REALTIME, &clock);
  if (statted && nanoseconds(clock) - now.ctime_ns >= settle_.count()) {
    now.used = true;
    std::lock_guard lock(mutex_);
    entries_[key] = now;
  }
  return now.sha256;
}

void DigestCache::save(const std::filesystem::path& file) const {
  std::ostringstream out;
  out << kHeader << '\n';
  {
    std::lock_guard lock(mutex_);
    for (const auto& [path, e] : entries_)
      if (e.used && path.find('\n') == std::string::npos)
        out << e.device << '\t' << e.inode << '\t' << e.size << '\t' << e.mtime_ns << '\t'
            << e.ctime_ns << '\t' << e.sha256 << '\t' << path << '\n';
  }
  write_file_atomic(file, out.str());
}

}  // namespace awb::core
