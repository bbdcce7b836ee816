// batch_publish.cpp: staging folder + manifest + one rename of the `current` link; cleanup of
// whatever an interrupted publish left behind.
#include "core/grading/batch_publish.hpp"

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <functional>
#include <optional>
#include <set>

#include "core/base/atomic_file.hpp"
#include "core/base/bounded_read.hpp"
#include "core/base/sha256.hpp"
#include "core/grading/batch_fault.hpp"
#include "core/grading/batch_results.hpp"
#include "core/grading/batch_shard.hpp"
#include "graders/model/error.hpp"
#include "graders/report/formats.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;

constexpr const char* kCurrent = "current";
constexpr const char* kManifest = "MANIFEST.sha256";
constexpr uintmax_t kManifestMaxBytes = uintmax_t{256} << 20;
constexpr const char* kGenerationPrefix = "reports.";
constexpr const char* kStagingPrefix = ".staging.";
constexpr const char* kTempLinkSuffix = ".link";  // ".<name>.link": a link about to be renamed
constexpr const char* kOldSuffix = ".old";        // ".<name>.old": a pre-generations folder
// The reports as earlier versions of awb wrote them, straight into RESULTS: history, so a new
// format never joins it.
const std::set<std::string> kFlatReports = {"grades.csv", "junit.xml", "roster.csv"};

// The top-level names a set may hold: each format's batch file (the folder of a per-submission
// format's files), the roster and a shard's manifest.
std::vector<std::string> set_entries() {
  std::vector<std::string> names{std::string(kRosterFile), std::string(kRosterMetaFile),
                                 std::string(kShardFile)};
  for (const auto& f : grade::report_formats())
    if (!f.batch_file.empty()) names.emplace_back(f.batch_file.substr(0, f.batch_file.find('/')));
  return names;
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.rfind(prefix, 0) == 0;
}

// N of "reports.N" or ".staging.N", or -1.
long generation_number(const std::string& name, const std::string& prefix) {
  if (!starts_with(name, prefix) || name.size() == prefix.size()) return -1;
  const std::string digits = name.substr(prefix.size());
  if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) ||
      digits.size() > 12)
    return -1;
  return std::stol(digits);
}

// A temp file write_file_atomic left: ".<name>.XXXXXX".
bool atomic_temp_of(const std::string& entry, const std::string& name) {
  return starts_with(entry, "." + name + ".") && entry.size() == name.size() + 8;
}

std::string system_why() { return std::strerror(errno); }

// A name of a MANIFEST.sha256 line, unescaped as sha256sum reads it; "" for a line that is not
// one or a name that leaves the set (absolute, "..").
std::string manifest_name(const std::string& line) {
  const bool escaped = !line.empty() && line.front() == '\\';
  const size_t at = line.find("  ");
  if (at == std::string::npos) return "";
  std::string name;
  const std::string raw = line.substr(at + 2);
  for (size_t i = 0; i < raw.size(); ++i) {
    if (escaped && raw[i] == '\\' && i + 1 < raw.size()) {
      name += raw[i + 1] == 'n' ? '\n' : raw[i + 1];
      ++i;
    } else {
      name += raw[i];
    }
  }
  const fs::path p(name);
  if (name.empty() || p.is_absolute()) return "";
  for (const auto& part : p)
    if (part == "..") return "";
  return name;
}

// A generation awb published: the files its MANIFEST.sha256 lists, the manifest, then the
// folders they leave empty. A file awb did not write there (or a folder without a manifest,
// which awb never published) stays, and keeps its folder.
void remove_generation(const fs::path& dir) {
  std::optional<std::string> text;
  try {
    text = read_bounded_file(dir / kManifest, kManifestMaxBytes, "a report set's manifest");
  } catch (const Error&) {
    return;  // not a set awb published (or unreadable): left alone
  }
  if (!text) return;
  std::set<fs::path, std::greater<>> folders;  // deepest first
  std::error_code ec;
  size_t pos = 0;
  while (pos < text->size()) {
    const size_t eol = std::min(text->find('\n', pos), text->size());
    const std::string name = manifest_name(text->substr(pos, eol - pos));
    pos = eol + 1;
    if (name.empty()) continue;
    const fs::path file = dir / name;
    if (fs::is_directory(fs::symlink_status(file, ec))) continue;  // awb lists files only
    fs::remove(file, ec);
    for (fs::path up = file.parent_path(); up != dir && up.has_relative_path();
         up = up.parent_path())
      folders.insert(up);
  }
  fs::remove(dir / kManifest, ec);
  for (const auto& f : folders) fs::remove(f, ec);  // only when empty
  fs::remove(dir, ec);                              // only when empty
}

[[noreturn]] void fail_step(const fs::path& path, const std::string& step) {
  throw Error("io.write", path.string(), step + ": " + system_why());
}

void remove_entry(const fs::path& path) {
  std::error_code ec;
  fs::remove_all(path, ec);  // best effort: what stays is removed by the next run
  report_step_done();
}

void stage_file(const fs::path& path, const std::string& content) {
  std::error_code ec;
  fs::create_directories(path.parent_path(), ec);
  if (ec) throw Error("io.write", path.parent_path().string(), ec.message());
  if (report_step_fails(ReportStep::kAllocates)) fail_step(path, "write");
  write_file_atomic(path, content);
  report_step_done();
}

void rename_step(const fs::path& from, const fs::path& to) {
  if (report_step_fails(ReportStep::kAllocates) || ::rename(from.c_str(), to.c_str()) != 0)
    fail_step(to, "rename from " + from.filename().string());
  report_step_done();
}

void symlink_step(const std::string& target, const fs::path& link) {
  std::error_code ec;
  fs::remove(link, ec);
  if (report_step_fails(ReportStep::kAllocates) || ::symlink(target.c_str(), link.c_str()) != 0)
    fail_step(link, "symlink to " + target);
  report_step_done();
}

// RESULTS/<name> becomes the relative link current/<name> (already is: nothing to do). A
// pre-generations folder of that name is moved aside first (a link cannot be renamed over a
// folder) and removed with the leftovers.
void link_familiar(const fs::path& results, const std::string& name) {
  const fs::path path = results / name;
  const std::string target = std::string(kCurrent) + "/" + name;
  std::error_code ec;
  if (fs::is_symlink(path, ec) && fs::read_symlink(path, ec).string() == target) return;
  const fs::path temp = results / ("." + name + kTempLinkSuffix);
  symlink_step(target, temp);
  if (fs::is_directory(fs::symlink_status(path, ec)))
    rename_step(path, results / ("." + name + kOldSuffix));
  rename_step(temp, path);
}

long next_generation(const fs::path& results) {
  long newest = 0;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(results, ec)) {
    const std::string n = e.path().filename().string();
    newest = std::max(
        {newest, generation_number(n, kGenerationPrefix), generation_number(n, kStagingPrefix)});
  }
  return newest + 1;
}

std::string sha256sum_name(const std::string& name, bool& escaped) {
  std::string out;
  escaped = false;
  for (char c : name) {
    if (c == '\\' || c == '\n') {
      escaped = true;
      out += c == '\\' ? "\\\\" : "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace

std::string report_manifest(std::vector<ReportFile> files) {
  std::sort(files.begin(), files.end(),
            [](const ReportFile& a, const ReportFile& b) { return a.name < b.name; });
  std::string out;
  for (const auto& f : files) {
    bool escaped = false;
    const std::string name = sha256sum_name(f.name, escaped);
    out += (escaped ? "\\" : "") + sha256_hex(f.content) + "  " + name + "\n";
  }
  return out;
}

std::string current_generation(const fs::path& results) {
  std::error_code ec;
  const fs::path target = fs::read_symlink(results / kCurrent, ec);
  if (ec) return "";
  const std::string name = target.filename().string();
  return generation_number(name, kGenerationPrefix) >= 0 ? name : "";
}

void clean_results(const fs::path& results) {
  const std::string current = current_generation(results);
  const std::vector<std::string> entries = set_entries();
  std::error_code ec;
  std::vector<fs::path> leftovers, generations;
  for (const auto& e : fs::directory_iterator(results, ec)) {
    const std::string n = e.path().filename().string();
    if (generation_number(n, kGenerationPrefix) >= 0 && n != current) {
      generations.push_back(e.path());
      continue;
    }
    bool leftover = generation_number(n, kStagingPrefix) >= 0 ||
                    starts_with(n, std::string(".") + kCurrent + ".") ||
                    atomic_temp_of(n, kDigestCacheFile);
    for (const std::string& name : entries)
      leftover = leftover || n == "." + name + kTempLinkSuffix || n == "." + name + kOldSuffix ||
                 (kFlatReports.count(name) && atomic_temp_of(n, name));
    if (leftover) leftovers.push_back(e.path());
  }
  // A pre-generations gradescope/ folder: the temp files an interrupted write left in it.
  const fs::path flat = results / "gradescope";
  if (!fs::is_symlink(flat, ec) && fs::is_directory(flat, ec))
    for (const auto& e : fs::directory_iterator(flat, ec)) {
      const std::string n = e.path().filename().string();
      if (starts_with(n, ".") && n.size() > 12 && n.compare(n.size() - 12, 6, ".json.") == 0)
        leftovers.push_back(e.path());
    }
  for (const auto& p : leftovers) fs::remove_all(p, ec);
  for (const auto& p : generations) remove_generation(p);
  if (!leftovers.empty() || !generations.empty()) fsync_folder(results);
}

namespace {

// Where a report of `files` would go, a file or folder that is not a link into current/ is the
// user's: refused (batch.out_not_awb), never replaced.
void refuse_users_files(const fs::path& results, const std::vector<ReportFile>& files) {
  for (const auto& f : files) {
    const fs::path path = results / f.name.substr(0, f.name.find('/'));
    std::error_code ec;
    const auto st = fs::symlink_status(path, ec);
    if (fs::exists(st) && !fs::is_symlink(st))
      throw Error("batch.out_not_awb", path.string(),
                  "awb did not write this (its reports are links into current/), so it does not "
                  "replace it: move it away and run again with --resume");
  }
}

// Removes what the new set `files` makes stale: a familiar link into current/ for something the
// set lacks (roster.csv of an earlier run with an assignment), or such a report as earlier
// versions wrote it, flat (only where the folder is theirs).
void remove_stale_reports(const fs::path& results, const std::vector<ReportFile>& files,
                          bool flat_is_ours) {
  auto in_set = [&](const std::string& name) {
    return std::any_of(files.begin(), files.end(), [&](const ReportFile& f) {
      return f.name == name || starts_with(f.name, name + "/");
    });
  };
  std::vector<fs::path> stale;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(results, ec)) {
    const std::string name = e.path().filename().string();
    if (in_set(name)) continue;
    const bool link = e.is_symlink(ec) && starts_with(fs::read_symlink(e.path(), ec).string(),
                                                      std::string(kCurrent) + "/");
    const bool flat = flat_is_ours && !e.is_symlink(ec) && kFlatReports.count(name) > 0;
    if (link || flat) stale.push_back(e.path());
  }
  for (const auto& p : stale) remove_entry(p);
}

}  // namespace

void publish_report_set(const fs::path& results, std::vector<ReportFile> files) {
  clean_results(results);
  // A report in the flat layout is awb's only where the folder was adopted from an earlier awb;
  // elsewhere a file (or folder) at a familiar path is the user's, and nothing replaces it.
  const bool flat_is_ours = results_adopted(results);
  if (!flat_is_ours) refuse_users_files(results, files);
  const std::string previous = current_generation(results);
  const long g = next_generation(results);
  const std::string generation = kGenerationPrefix + std::to_string(g);
  const fs::path staging = results / (kStagingPrefix + std::to_string(g));
  const fs::path temp_current = results / ("." + std::string(kCurrent) + "." + std::to_string(g));
  std::sort(files.begin(), files.end(),
            [](const ReportFile& a, const ReportFile& b) { return a.name < b.name; });
  files.push_back({kManifest, report_manifest(files)});

  bool is_current = false;
  try {
    for (const auto& f : files) stage_file(staging / f.name, f.content);
    fsync_folder(staging);
    rename_step(staging, results / generation);
    fsync_folder(results);

    // The familiar paths, each a link into current/. Where no report is there yet, the link
    // goes in before the swap: it leads nowhere until `current` does, so readers see every
    // report appear in the one step. Reports in the flat layout of earlier versions can only be
    // replaced after it.
    std::set<std::string> top;
    for (const auto& f : files)
      if (f.name != kManifest) top.insert(f.name.substr(0, f.name.find('/')));
    for (const auto& name : top) {
      std::error_code ec;
      const auto st = fs::symlink_status(results / name, ec);
      if (!fs::exists(st) || fs::is_symlink(st)) link_familiar(results, name);
    }
    symlink_step(generation, temp_current);
    rename_step(temp_current, results / kCurrent);
    is_current = true;
    fsync_folder(results);
    for (const auto& name : top) link_familiar(results, name);
    fsync_folder(results);
  } catch (const Error& e) {
    std::error_code ec;
    fs::remove_all(staging, ec);
    fs::remove(temp_current, ec);
    if (!is_current) fs::remove_all(results / generation, ec);
    const std::string left =
        is_current ? "the new reports are current (" + (results / kCurrent).string() + " -> " +
                         generation + "), but not every familiar link points into them"
        : previous.empty()
            ? "no reports were published: " + results.string() + " holds none yet"
            : results.string() + " still holds the previous reports (" + previous + "), intact";
    throw Error("io.write", e.location(), e.message() + "; " + left);
  }

  // Past the swap nothing can fail the run: what is not removed now is removed next time.
  remove_stale_reports(results, files, flat_is_ours);
  if (!previous.empty() && previous != generation) {
    remove_generation(results / previous);
    report_step_done();
  }
  clean_results(results);
}

}  // namespace awb::core
