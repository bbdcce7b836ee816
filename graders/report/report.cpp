// report.cpp: report totals and the helpers every writer shares (views, numbers, safe text).
#include "graders/report/report.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

#include "graders/report/format.hpp"

namespace awb::grade {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

// Decodes the UTF-8 sequence at s[i] and moves i past it. An invalid sequence (a stray
// continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short) yields U+FFFD
// and consumes one byte, so decoding always makes progress.
char32_t next_code_point(std::string_view s, size_t& i) {
  const auto b0 = static_cast<unsigned char>(s[i]);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int len = 0;
  char32_t cp = 0, min = 0;
  if ((b0 & 0xE0) == 0xC0)
    len = 2, cp = b0 & 0x1F, min = 0x80;
  else if ((b0 & 0xF0) == 0xE0)
    len = 3, cp = b0 & 0x0F, min = 0x800;
  else if ((b0 & 0xF8) == 0xF0)
    len = 4, cp = b0 & 0x07, min = 0x10000;
  if (len == 0 || i + len > s.size()) {
    ++i;
    return kReplacement;
  }
  for (int k = 1; k < len; ++k) {
    const auto b = static_cast<unsigned char>(s[i + k]);
    if ((b & 0xC0) != 0x80) {
      ++i;
      return kReplacement;
    }
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
    ++i;
    return kReplacement;
  }
  i += len;
  return cp;
}

void append_utf8(std::string& out, char32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// C0 controls, DEL and the C1 range (U+0080..U+009F holds the 8-bit CSI a terminal obeys).
bool is_control(char32_t cp) { return cp < 0x20 || (cp >= 0x7F && cp <= 0x9F); }

// XML 1.0 section 2.2: the characters a document may contain.
bool xml_allowed(char32_t cp) {
  return cp == 0x9 || cp == 0xA || cp == 0xD || (cp >= 0x20 && cp <= 0xD7FF) ||
         (cp >= 0xE000 && cp <= 0xFFFD) || (cp >= 0x10000 && cp <= 0x10FFFF);
}

}  // namespace

double GradeReport::score() const {
  double s = 0;
  for (const auto& e : exercises) s += e.score;
  return s;
}

double GradeReport::max_score() const {
  double s = 0;
  for (const auto& e : exercises) s += e.max_score;
  return s;
}

std::vector<const CheckResult*> shown_checks(const ExerciseReport& exercise, const View& view) {
  std::vector<const CheckResult*> out;
  for (const auto& c : exercise.checks)
    if (view.shows(c.visibility)) out.push_back(&c);
  return out;
}

ShownTotals shown_totals(const ExerciseReport& exercise, const View& view) {
  ShownTotals t;
  for (const auto& c : exercise.checks)
    if (!view.shows(c.visibility)) ++t.hidden;
  if (t.hidden == 0) {
    t.score = exercise.score;
    t.max_score = exercise.max_score;
    return t;
  }
  for (const auto* c : shown_checks(exercise, view)) {
    if (!counts(*c)) continue;
    t.score += c->points;
    t.max_score += c->max_points;
  }
  return t;
}

ShownTotals shown_totals(const GradeReport& report, const View& view) {
  ShownTotals t;
  for (const auto& e : report.exercises) {
    const ShownTotals et = shown_totals(e, view);
    t.score += et.score;
    t.max_score += et.max_score;
    t.hidden += et.hidden;
  }
  return t;
}

std::string_view status_lead(Status status) {
  switch (status) {
    case Status::kPassed:
    case Status::kFailed:
      return "";
    case Status::kError:
      return "Error: ";
    case Status::kTimeout:
      return "Timed out: ";
    case Status::kNotRun:
      return "Not run (does not count): ";
  }
  return "";
}

std::string check_feedback(const CheckResult& c) {
  std::string out;
  if (c.status == Status::kPassed || c.status == Status::kNotRun) return out;
  if (!c.details.empty()) out += "\n\n" + c.details;
  if (!c.diagnosis.empty()) out += "\n\nDiagnosis: " + c.diagnosis;
  if (!c.hint.empty()) out += "\nHint: " + c.hint;
  return out;
}

std::string grade_summary(const GradeReport& report, const View& view) {
  std::string out = "awb graded " + report.subject;
  if (!report.exercises.empty() && !report.exercises.front().provenance.awb_version.empty())
    out += " (awb " + report.exercises.front().provenance.awb_version + ")";
  out += ".\n";
  for (const auto& e : report.exercises) {
    out += e.exercise_id + ": ";
    if (!e.not_gradable.empty()) {
      out += "not gradable: " + e.not_gradable + "\n";
      continue;
    }
    const ShownTotals t = shown_totals(e, view);
    out += format_points(t.score) + "/" + format_points(t.max_score);
    if (t.hidden > 0) out += " in the tests shown";
    out += "\n";
  }
  return out;
}

std::string format_points(double v) {
  if (!std::isfinite(v)) return "?";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", v);
  std::string s = buf;
  while (s.back() == '0') s.pop_back();
  if (s.back() == '.') s.pop_back();
  return s == "-0" ? "0" : s;
}

std::string csv_quoted(std::string_view s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"') out += '"';
    out += c;
  }
  return out + "\"";
}

std::string csv_field(std::string_view s) {
  return s.find_first_of(",\"\r\n") == std::string_view::npos ? std::string(s) : csv_quoted(s);
}

std::string format_number(double v) {
  if (!std::isfinite(v)) return "";
  // Rounding first keeps sums such as 0.1 + 0.2 from printing as 0.30000000000000004.
  double r = std::round(v * 1e6) / 1e6;
  if (r == 0) r = 0;  // no "-0"
  char buf[64];
  const auto res = std::to_chars(buf, buf + sizeof buf, r);
  return std::string(buf, res.ptr);
}

std::string clean_text(std::string_view s, bool keep_newlines) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const char32_t cp = next_code_point(s, i);
    if (cp == '\n')
      out += keep_newlines ? '\n' : ' ';
    else if (cp == '\t')
      out += ' ';
    else if (!is_control(cp))
      append_utf8(out, cp);
  }
  return out;
}

std::string valid_utf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) append_utf8(out, next_code_point(s, i));
  return out;
}

bool has_control(std::string_view s) {
  for (size_t i = 0; i < s.size();)
    if (is_control(next_code_point(s, i))) return true;
  return false;
}

std::string terminal_text(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size();) {
    const char32_t cp = next_code_point(s, i);
    if (!is_control(cp)) {
      append_utf8(out, cp);
      continue;
    }
    char buf[16];
    std::snprintf(buf, sizeof buf, cp < 0x100 ? "\\x%02x" : "\\u%04x", static_cast<unsigned>(cp));
    out += buf;
  }
  return out;
}

std::string xml_escape(std::string_view s, bool attribute) {
  std::string out;
  out.reserve(s.size() + s.size() / 8);
  for (size_t i = 0; i < s.size();) {
    const char32_t cp = next_code_point(s, i);
    if (!xml_allowed(cp)) continue;
    switch (cp) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&apos;";
        break;
      // A parser normalises a literal CR (and, in attributes, tab and LF) away.
      case '\r':
        out += "&#13;";
        break;
      case '\n':
        out += attribute ? "&#10;" : "\n";
        break;
      case '\t':
        out += attribute ? "&#9;" : "\t";
        break;
      default:
        append_utf8(out, cp);
    }
  }
  return out;
}

}  // namespace awb::grade
