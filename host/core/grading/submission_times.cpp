// submission_times.cpp: the submission-time and extension CSVs read strictly, Gradescope's
// metadata, and the rule that picks each submission's time and due date.
#include "core/grading/submission_times.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/base/did_you_mean.hpp"
#include "core/base/regular_file.hpp"
#include "core/base/sha256.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;

constexpr int kMaxExtraDays = 365;

// A class's CSV is a few hundred KiB; Gradescope's metadata a few KiB.
constexpr size_t kMaxTimesBytes = size_t(16) << 20;

// A regular file only, within the cap: a FIFO given as --submitted-at would block the batch.
std::string read_bytes(const fs::path& file) {
  try {
    return read_regular_file(file, kMaxTimesBytes, "times");
  } catch (const Error& e) {
    throw Error("times.format", e.location(), e.message());
  }
}

struct Row {
  int line = 0;  // where the record starts
  std::vector<std::string> fields;
};

// RFC 4180 records (CRLF or LF), a UTF-8 byte order mark dropped, blank lines skipped.
std::vector<Row> csv_rows(const std::string& text, const fs::path& file) {
  std::vector<Row> rows;
  size_t i = text.rfind("\xEF\xBB\xBF", 0) == 0 ? 3 : 0;
  int line = 1;
  while (i < text.size()) {
    Row row{line, {}};
    std::string field;
    bool quoted = false, was_quoted = false;
    for (; i < text.size(); ++i) {
      const char c = text[i];
      if (quoted) {
        if (c == '"' && i + 1 < text.size() && text[i + 1] == '"') {
          field += '"';
          ++i;
        } else if (c == '"') {
          quoted = false;
        } else {
          if (c == '\n') ++line;
          field += c;
        }
      } else if (c == '"' && field.empty() && !was_quoted) {
        quoted = was_quoted = true;
      } else if (c == ',') {
        row.fields.push_back(std::move(field));
        field.clear();
        was_quoted = false;
      } else if (c == '\n' || c == '\r') {
        if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
        ++i;
        break;
      } else {
        field += c;
      }
    }
    if (quoted)
      throw Error("times.format", file.string() + ":" + std::to_string(row.line),
                  "a quoted field is not closed");
    row.fields.push_back(std::move(field));
    ++line;
    const bool blank =
        row.fields.size() == 1 && row.fields.front().find_first_not_of(" \t") == std::string::npos;
    if (!blank) rows.push_back(std::move(row));
  }
  return rows;
}

std::string trimmed(const std::string& s) {
  const size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  return s.substr(a, s.find_last_not_of(" \t") - a + 1);
}

std::string at_line(const fs::path& file, int line) {
  return file.string() + ":" + std::to_string(line);
}

// The rows after the header `submission,<column>`, each a known submission given once.
template <typename Value, typename Parse>
std::map<std::string, Value> read_table(const fs::path& file, const std::string& column,
                                        const std::set<std::string>& submissions, Parse parse) {
  const std::vector<Row> rows = csv_rows(read_bytes(file), file);
  const std::string header = "submission," + column;
  if (rows.empty() || rows.front().fields.size() != 2 ||
      trimmed(rows.front().fields[0]) != "submission" || trimmed(rows.front().fields[1]) != column)
    throw Error("times.format", at_line(file, rows.empty() ? 1 : rows.front().line),
                "the first line must be the header '" + header + "'");
  std::map<std::string, Value> out;
  std::map<std::string, int> first_line;
  const std::vector<std::string> names(submissions.begin(), submissions.end());
  for (size_t r = 1; r < rows.size(); ++r) {
    const Row& row = rows[r];
    const std::string where = at_line(file, row.line);
    if (row.fields.size() != 2)
      throw Error(
          "times.format", where,
          "a row has 2 fields (" + header + "), this one has " + std::to_string(row.fields.size()));
    // The name exactly as the folder has it: only the spaces a spreadsheet adds are dropped.
    const std::string name = trimmed(row.fields[0]);
    if (!submissions.count(name))
      throw Error("times.unknown_submission", where,
                  "no submission folder is named '" + name + "'" + did_you_mean_note(name, names));
    if (const auto [it, fresh] = first_line.emplace(name, row.line); !fresh)
      throw Error("times.duplicate", where,
                  "'" + name + "' already has a row (line " + std::to_string(it->second) + ")");
    out.emplace(name, parse(trimmed(row.fields[1]), where));
  }
  return out;
}

std::time_t utc_time(const std::string& text, const std::string& where) {
  // The CSVs carry UTC, as an assignment's due does: a zone other than Z is refused rather than
  // guessed at.
  const auto t = parse_utc_time(text);
  if (!t || text.size() == 10)
    throw Error("times.bad_time", where,
                "'" + text + "' is not a UTC time like 2026-12-15T23:59:00Z");
  return *t;
}

Extension extension(const std::string& text, const std::string& where) {
  Extension e;
  if (!text.empty() &&
      std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    const long days = text.size() > 4 ? kMaxExtraDays + 1 : std::stol(text);
    if (days < 1 || days > kMaxExtraDays)
      throw Error("times.bad_time", where,
                  "an extension of " + text + " days: give 1 to " + std::to_string(kMaxExtraDays));
    e.extra_days = static_cast<int>(days);
    return e;
  }
  e.due = parse_utc_time(text);
  if (!e.due)
    throw Error("times.bad_time", where,
                "'" + text +
                    "' is neither a UTC due date like 2026-12-18T23:59:00Z (or 2026-12-18) nor a "
                    "whole number of extra days");
  return e;
}

// Gradescope's submission_metadata.json: `created_at`, the submission's time with its zone.
std::time_t metadata_time(const fs::path& file) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(read_bytes(file));
  } catch (const nlohmann::json::exception& e) {
    throw Error("times.format", file.string(), std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("created_at") || !j["created_at"].is_string())
    throw Error("times.format", file.string(),
                "no created_at (the submission's time, as Gradescope's submission_metadata.json "
                "gives it)");
  const std::string text = j["created_at"].get<std::string>();
  const auto t = parse_iso8601_time(text);
  if (!t)
    throw Error("times.bad_time", file.string(),
                "created_at '" + text + "' is not an ISO 8601 time with its zone");
  return *t;
}

}  // namespace

const char* to_string(TimeSource source) {
  switch (source) {
    case TimeSource::kSubmittedAt:
      return "submitted-at";
    case TimeSource::kMetadata:
      return "metadata";
    case TimeSource::kFileMtime:
      return "file-mtime";
    case TimeSource::kNone:
      return "";
  }
  return "";
}

std::optional<std::time_t> parse_iso8601_time(const std::string& text) {
  // YYYY-MM-DDTHH:MM:SS, then [.fraction], then Z or +hh:mm / -hh:mm.
  if (text.size() < 20 || text[10] != 'T') return std::nullopt;
  size_t i = 19;
  if (i < text.size() && text[i] == '.') {
    ++i;
    const size_t digits = i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    if (i == digits) return std::nullopt;
  }
  long offset = 0;
  const std::string zone = text.substr(i);
  if (zone != "Z") {
    int hh = 0, mm = 0;
    char tail = 0;
    if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' ||
        std::sscanf(zone.c_str() + 1, "%2d:%2d%c", &hh, &mm, &tail) != 2 || hh > 23 || mm > 59)
      return std::nullopt;
    offset = (zone[0] == '-' ? -1 : 1) * (hh * 3600L + mm * 60L);
  }
  const auto local = parse_utc_time(text.substr(0, 19) + "Z");
  if (!local) return std::nullopt;
  return *local - offset;
}

TimeInputs read_time_inputs(const TimeFiles& files, const std::set<std::string>& submissions) {
  TimeInputs in;
  if (!files.submitted_at.empty()) {
    in.submitted_at =
        read_table<std::time_t>(files.submitted_at, "submitted_at", submissions, utc_time);
    in.submitted_at_sha256 = sha256_hex(read_bytes(files.submitted_at));
  }
  if (!files.extensions.empty()) {
    in.extensions = read_table<Extension>(files.extensions, "extension", submissions, extension);
    in.extensions_sha256 = sha256_hex(read_bytes(files.extensions));
  }
  if (!files.metadata.empty()) {
    if (submissions.size() != 1)
      throw Error("times.format", files.metadata.string(),
                  "a submission's metadata gives one time: the batch holds " +
                      std::to_string(submissions.size()) +
                      " submissions (give their times with --submitted-at)");
    in.metadata = metadata_time(files.metadata);
  }
  return in;
}

SubmittedTime submission_time(const TimeInputs& inputs, const std::string& submission,
                              int64_t mtime) {
  if (const auto it = inputs.submitted_at.find(submission); it != inputs.submitted_at.end())
    return {it->second, TimeSource::kSubmittedAt};
  if (inputs.metadata) return {*inputs.metadata, TimeSource::kMetadata};
  if (mtime > 0) return {static_cast<std::time_t>(mtime), TimeSource::kFileMtime};
  return {};
}

std::optional<std::time_t> due_for(const Assignment& assignment, const TimeInputs& inputs,
                                   const std::string& submission) {
  const auto it = inputs.extensions.find(submission);
  if (it == inputs.extensions.end()) return assignment.due;
  if (it->second.due) return it->second.due;
  if (!assignment.due) return std::nullopt;
  return *assignment.due + static_cast<std::time_t>(it->second.extra_days) * 86400;
}

int64_t newest_mtime(const fs::path& folder) {
  int64_t newest = 0;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(folder, fs::directory_options::none, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec) || it->is_symlink(ec)) continue;
    struct stat st {};
    if (::lstat(it->path().c_str(), &st) == 0) newest = std::max<int64_t>(newest, st.st_mtime);
  }
  return newest;
}

}  // namespace awb::core
