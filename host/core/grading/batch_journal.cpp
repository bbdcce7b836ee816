// batch_journal.cpp: JSON of the report model, checksummed journal lines, and the append-only
// journal file (one write() + fsync() per line, torn tails cut off on resume).
#include "core/grading/batch_journal.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <set>

#include "core/base/bounded_read.hpp"
#include "core/base/sha256.hpp"
#include "core/grading/batch_results.hpp"
#include "graders/model/error.hpp"
#include "graders/report/check_json.hpp"

namespace awb::core {
namespace {

using Json = nlohmann::ordered_json;
namespace fs = std::filesystem;

// Text from a plugin may not be valid UTF-8: it is replaced, never a reason to throw.
std::string dump(const Json& j) { return j.dump(-1, ' ', false, Json::error_handler_t::replace); }

[[noreturn]] void bad_record(const std::string& what) { throw Error("batch.journal_record", what); }

const Json& field(const Json& j, const char* name) {
  if (!j.is_object()) bad_record(std::string("expected an object holding '") + name + "'");
  const auto it = j.find(name);
  if (it == j.end()) bad_record(std::string("missing field '") + name + "'");
  return *it;
}

std::string get_string(const Json& j, const char* name) {
  const Json& v = field(j, name);
  if (!v.is_string()) bad_record(std::string("field '") + name + "' is not a string");
  return v.get<std::string>();
}

// JSON has no NaN: nlohmann writes null for it, read back as NaN.
double get_number(const Json& j, const char* name) {
  const Json& v = field(j, name);
  if (v.is_null()) return std::numeric_limits<double>::quiet_NaN();
  if (!v.is_number()) bad_record(std::string("field '") + name + "' is not a number");
  return v.get<double>();
}

template <class E>
E get_enum(const Json& j, const char* name) {
  const std::string s = get_string(j, name);
  if (const auto v = awb::parse<E>(s)) return *v;
  bad_record(std::string("field '") + name + "' has unknown value '" + s + "'");
}

std::string io_why() { return std::strerror(errno); }

void fsync_dir(const fs::path& file) {
  const fs::path dir = file.has_parent_path() ? file.parent_path() : fs::path(".");
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    ::fsync(dfd);  // best effort: makes the new file's name durable
    ::close(dfd);
  }
}

Error journal_in_use(int fd, const fs::path& file) {
  const long pid = flock_holder(fd);
  return Error("batch.journal_locked", file.string(),
               "in use by " +
                   (pid > 0 ? "pid " + std::to_string(pid) : std::string("another process")) +
                   ": another awb grade --batch is writing these results");
}

int lock_or_throw(int fd, const fs::path& file) {
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    const bool busy = errno == EWOULDBLOCK;
    const std::string why = io_why();
    if (busy) {
      Error e = journal_in_use(fd, file);
      ::close(fd);
      throw e;
    }
    ::close(fd);
    throw Error("io.write", file.string(), "flock: " + why);
  }
  return fd;
}

}  // namespace

// ---- JSON of the report model ------------------------------------------------------------

// The JSON report's writer: one key order for both. Journals written before it had name before
// kind; records are read by key, so they read the same.
Json to_json(const grade::CheckResult& c) { return grade::check_json(c); }

Json to_json(const grade::ExerciseReport& e) {
  Json j;
  j["exercise_id"] = e.exercise_id;
  j["title"] = e.title;
  j["provenance"] = grade::provenance_json(e.provenance);
  j["score"] = e.score;
  j["max_score"] = e.max_score;
  j["not_gradable"] = e.not_gradable;
  j["checks"] = Json::array();
  for (const auto& c : e.checks) j["checks"].push_back(to_json(c));
  return j;
}

Json to_json(const JournalKey& k) {
  Json j;
  j["submission"] = k.submission;
  j["subject"] = k.subject;
  j["exercise_id"] = k.exercise_id;
  j["exercise_sha256"] = k.exercise_sha256;
  j["plugin_sha256"] = k.plugin_sha256;
  j["awb_version"] = k.awb_version;
  j["options"] = k.options;
  return j;
}

grade::CheckResult check_result_from_json(const Json& j) {
  grade::CheckResult c;
  c.id = get_string(j, "id");
  c.name = get_string(j, "name");
  c.kind = get_enum<grade::CheckKind>(j, "kind");
  c.status = get_enum<grade::Status>(j, "status");
  c.points = get_number(j, "points");
  c.max_points = get_number(j, "max_points");
  c.summary = get_string(j, "summary");
  c.details = get_string(j, "details");
  c.diagnosis = get_string(j, "diagnosis");
  c.hint = get_string(j, "hint");
  c.visibility = get_enum<grade::Visibility>(j, "visibility");
  return c;
}

grade::ExerciseReport exercise_report_from_json(const Json& j) {
  grade::ExerciseReport e;
  e.exercise_id = get_string(j, "exercise_id");
  e.title = get_string(j, "title");
  const Json& p = field(j, "provenance");
  e.provenance.awb_version = get_string(p, "awb_version");
  e.provenance.exercise_sha256 = get_string(p, "exercise_sha256");
  e.provenance.plugin_sha256 = get_string(p, "plugin_sha256");
  e.provenance.lockdown = get_string(p, "lockdown");
  if (p.contains("plugin_sha256_of"))
    e.provenance.plugin_sha256_of = get_string(p, "plugin_sha256_of");
  e.score = get_number(j, "score");
  e.max_score = get_number(j, "max_score");
  e.not_gradable = get_string(j, "not_gradable");
  const Json& checks = field(j, "checks");
  if (!checks.is_array()) bad_record("field 'checks' is not an array");
  for (const auto& c : checks) e.checks.push_back(check_result_from_json(c));
  return e;
}

JournalKey journal_key_from_json(const Json& j) {
  JournalKey k;
  k.submission = get_string(j, "submission");
  k.subject = get_string(j, "subject");
  k.exercise_id = get_string(j, "exercise_id");
  k.exercise_sha256 = get_string(j, "exercise_sha256");
  k.plugin_sha256 = get_string(j, "plugin_sha256");
  k.awb_version = get_string(j, "awb_version");
  k.options = get_string(j, "options");
  return k;
}

// ---- lines -------------------------------------------------------------------------------

std::string journal_line(const JournalRecord& r) {
  Json j;
  j["key"] = to_json(r.key);
  j["plugin_file"] = r.plugin_file;
  if (!r.note.empty()) j["note"] = r.note;
  if (r.submitted_at != 0) j["submitted_at"] = r.submitted_at;
  if (!r.folder_sha256.empty()) j["folder_sha256"] = r.folder_sha256;
  if (r.subjects != 0) j["subjects"] = r.subjects;
  j["report"] = to_json(r.report);
  j["seconds"] = r.seconds;
  j["finished_at"] = r.finished_at;
  // The checksum covers the canonical text the reader will rebuild: the compact dump, with
  // invalid UTF-8 already replaced (the reader sees the replaced text).
  j["checksum"] = sha256_hex(dump(j));
  return dump(j) + "\n";
}

std::optional<JournalRecord> parse_journal_line(std::string_view line, std::string* why) {
  auto fail = [&](std::string reason) -> std::optional<JournalRecord> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  Json j = Json::parse(line.begin(), line.end(), nullptr, false);
  if (j.is_discarded()) return fail("not valid JSON");
  if (!j.is_object()) return fail("not a JSON object");
  const auto it = j.find("checksum");
  if (it == j.end() || !it->is_string()) return fail("no checksum");
  const std::string checksum = it->get<std::string>();
  j.erase("checksum");
  if (sha256_hex(dump(j)) != checksum) return fail("checksum mismatch");
  try {
    JournalRecord r;
    r.key = journal_key_from_json(field(j, "key"));
    r.plugin_file = get_string(j, "plugin_file");
    if (j.contains("note")) r.note = get_string(j, "note");
    if (j.contains("submitted_at"))
      r.submitted_at = static_cast<int64_t>(get_number(j, "submitted_at"));
    if (j.contains("folder_sha256")) r.folder_sha256 = get_string(j, "folder_sha256");
    if (j.contains("subjects")) r.subjects = static_cast<int>(get_number(j, "subjects"));
    r.report = exercise_report_from_json(field(j, "report"));
    r.seconds = get_number(j, "seconds");
    r.finished_at = get_string(j, "finished_at");
    return r;
  } catch (const Error& e) {
    return fail(e.message());
  }
}

JournalContents read_journal(const fs::path& file) {
  JournalContents out;
  const std::optional<std::string> read = read_bounded_file(file, kJournalMaxBytes, "the journal");
  if (!read) return out;
  const std::string& text = *read;

  std::set<JournalKey> seen;
  size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    ++line_no;
    const size_t eol = text.find('\n', pos);
    if (eol == std::string::npos) {
      // A line without its newline was cut short by a kill: the rest of the file is dropped.
      out.torn_tail = true;
      out.warnings.push_back("line " + std::to_string(line_no) +
                             ": cut short (an interrupted run); dropped");
      break;
    }
    std::string why;
    auto record = parse_journal_line(std::string_view(text).substr(pos, eol - pos), &why);
    const bool last = eol + 1 == text.size();
    pos = eol + 1;
    if (!record) {
      if (last) out.torn_tail = true;
      out.warnings.push_back("line " + std::to_string(line_no) + ": " + why +
                             (last ? "; dropped" : "; ignored (its result is graded again)"));
      continue;
    }
    out.good_bytes = pos;
    if (!seen.insert(record->key).second) {
      out.warnings.push_back("line " + std::to_string(line_no) +
                             ": repeats an earlier key; ignored");
      continue;
    }
    out.records.push_back(std::move(*record));
  }
  // Corrupt lines after the last good one are cut off with the tail.
  if (out.good_bytes < text.size()) out.torn_tail = true;
  return out;
}

JournalContents read_idle_journal(const fs::path& file) {
  const int fd = open_bounded(file, O_RDONLY, kJournalMaxBytes, "the journal");
  if (fd < 0) {
    if (errno == ENOENT) return {};
    throw Error("io.read", file.string(), "cannot open the journal: " + io_why());
  }
  if (::flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
    Error e = journal_in_use(fd, file);
    ::close(fd);
    throw e;
  }
  try {
    JournalContents contents = read_journal(file);
    ::close(fd);  // also releases the lock
    return contents;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

// ---- the file ----------------------------------------------------------------------------

Journal::Journal(fs::path path, int fd) : path_(std::move(path)), fd_(fd) {}

Journal::Journal(Journal&& other) noexcept : path_(std::move(other.path_)), fd_(other.fd_) {
  other.fd_ = -1;
}

Journal::~Journal() {
  if (fd_ >= 0) ::close(fd_);  // also releases the lock
}

Journal Journal::create(const fs::path& file) {
  const int fd =
      open_bounded(file, O_WRONLY | O_APPEND | O_CREAT | O_EXCL, kJournalMaxBytes, "the journal");
  if (fd < 0) {
    if (errno == EEXIST) {
      // A journal another run is still writing is "in use", not "from an earlier run".
      const int probe = open_bounded(file, O_RDONLY, kJournalMaxBytes, "the journal");
      if (probe >= 0) {
        if (::flock(probe, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK) {
          Error e = journal_in_use(probe, file);
          ::close(probe);
          throw e;
        }
        ::close(probe);
      }
      throw Error("batch.journal_exists", file.string(),
                  "a journal from an earlier run is here: pass --resume to continue it, or "
                  "remove it to start again");
    }
    throw Error("io.write", file.string(), "cannot create the journal: " + io_why());
  }
  lock_or_throw(fd, file);
  fsync_dir(file);
  return Journal(file, fd);
}

Journal Journal::resume(const fs::path& file, JournalContents& contents) {
  const int fd = open_bounded(file, O_RDWR | O_APPEND | O_CREAT, kJournalMaxBytes, "the journal");
  if (fd < 0) throw Error("io.write", file.string(), "cannot open the journal: " + io_why());
  lock_or_throw(fd, file);
  Journal journal(file, fd);  // closes fd if anything below throws
  fsync_dir(file);
  contents = read_journal(file);
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw Error("io.read", file.string(), "fstat: " + io_why());
  if (static_cast<uintmax_t>(st.st_size) > contents.good_bytes) {
    if (::ftruncate(fd, static_cast<off_t>(contents.good_bytes)) != 0 || ::fsync(fd) != 0)
      throw Error("io.write", file.string(), "cannot cut the torn last line off: " + io_why());
  }
  return journal;
}

void Journal::append(const JournalRecord& record) {
  const std::string line = journal_line(record);
  {
    // Lines never interleave: one write() of the whole line, one writer at a time.
    std::lock_guard lock(mutex_);
    struct stat st {};
    if (::fstat(fd_, &st) != 0) throw Error("io.write", path_.string(), "fstat: " + io_why());
    ssize_t n = ::write(fd_, line.data(), line.size());
    if (n < 0 && errno == EINTR) n = ::write(fd_, line.data(), line.size());  // nothing written
    if (n != static_cast<ssize_t>(line.size())) {
      const std::string why = n < 0 ? io_why() : "short write (disk full?)";
      // Leave no partial line behind for the next append to follow.
      if (::ftruncate(fd_, st.st_size) == 0) ::fsync(fd_);
      throw Error("io.write", path_.string(), "cannot append to the journal: " + why);
    }
  }
  // Outside the lock: workers flushing at the same time share the disk's wait instead of
  // queueing for it. The caller's next result still starts only once its line is durable.
  if (::fsync(fd_) != 0)
    throw Error("io.write", path_.string(), "cannot fsync the journal: " + io_why());
}

}  // namespace awb::core
