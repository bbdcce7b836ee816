// digest_cache.hpp: files' SHA-256 remembered by what stat says of them, so that a second run
// over files that have not changed reads none of them.
#ifndef AWB_CORE_BASE_DIGEST_CACHE_HPP_
#define AWB_CORE_BASE_DIGEST_CACHE_HPP_

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <string>

namespace awb::core {

// A remembered digest stands while the file's device, inode, size, modification time and
// status-change time (ctime) are those it was hashed at, to the nanosecond. Every write, touch,
// rename over or chmod sets ctime to the present, and no user can set it back: a changed file
// is always hashed again. Timestamps move in clock ticks of a few milliseconds, so a file changed
// twice within one tick could keep its ctime: a file whose ctime is less than `settle` old is
// hashed but not remembered (git's "racily clean" rule). A cache file that is missing, damaged or
// from another machine costs only the hashing it would have saved.
class DigestCache {
 public:
  static constexpr std::chrono::nanoseconds kSettle = std::chrono::seconds(2);
  explicit DigestCache(std::chrono::nanoseconds settle = kSettle) : settle_(settle) {}
  // With the entries saved in `file`; none when it is missing or unreadable, and a damaged line
  // is skipped.
  explicit DigestCache(const std::filesystem::path& file,
                       std::chrono::nanoseconds settle = kSettle);
  DigestCache(const DigestCache&) = delete;
  DigestCache& operator=(const DigestCache&) = delete;

  // sha256_file(file), remembered. Safe to call from several threads. Throws as sha256_file.
  std::string sha256(const std::filesystem::path& file);

  // Writes the entries looked up since construction (so files no longer asked about drop out), with
  // write_file_atomic. Throws awb::Error("io.write").
  void save(const std::filesystem::path& file) const;

  // How many files this cache has read and hashed (the rest it answered from memory).
  int hashed() const { return hashed_; }

  struct Entry {
    uint64_t device = 0, inode = 0, size = 0;
    int64_t mtime_ns = 0, ctime_ns = 0;
    std::string sha256;
    bool used = false;
  };

 private:
  std::chrono::nanoseconds settle_;
  mutable std::mutex mutex_;
  std::map<std::string, Entry> entries_;  // by absolute path
  std::atomic<int> hashed_{0};
};

}  // namespace awb::core

#endif  // AWB_CORE_BASE_DIGEST_CACHE_HPP_
