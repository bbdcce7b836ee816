// csv.cpp: the batch gradebook (one row per subject, one column per exercise, then the totals)
// and the roster a course imports (one row per submission, numbers only). Both hold numbers in
// their score columns, one maximum per row, and comments on one line (capped: the full text is
// in the submission's own reports).
//
// RFC 4180: fields separated by commas, records ended by CRLF, a field holding a comma, quote,
// CR or LF enclosed in double quotes with its quotes doubled. The order is fixed (rows by
// subject, columns by exercise id) so a batch gives the same bytes however it was run.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "graders/report/format.hpp"
#include "graders/report/report.hpp"

namespace awb::grade {
namespace {

constexpr std::string_view kEol = "\r\n";

// A name a student chose (a submission folder) is kept exactly, so two folders that differ
// only in a control character stay two rows: such a field is always quoted (RFC 4180 carries any
// character inside quotes). It is written where a spreadsheet may run it as a formula, so a
// leading quote keeps "=HYPERLINK(...)" plain text (OWASP "CSV injection").
std::string text_field(std::string_view s) {
  std::string t = valid_utf8(s);
  if (!t.empty() && std::string_view("=+-@").find(t.front()) != std::string_view::npos)
    t.insert(t.begin(), '\'');
  return has_control(t) ? csv_quoted(t) : csv_field(t);
}

const ExerciseReport* find_exercise(const GradeReport& r, const std::string& id) {
  for (const auto& e : r.exercises)
    if (e.exercise_id == id) return &e;
  return nullptr;
}

// "graded" when any exercise of the row was graded, else "not gradable" (as the roster says).
bool any_gradable(const GradeReport& r) {
  return std::any_of(r.exercises.begin(), r.exercises.end(),
                     [](const ExerciseReport& e) { return e.not_gradable.empty(); });
}

// Why the exercises of a row were not graded, each distinct reason once.
std::string not_gradable_reasons(const GradeReport& r) {
  std::vector<std::string> reasons;
  for (const auto& e : r.exercises)
    if (!e.not_gradable.empty() &&
        std::find(reasons.begin(), reasons.end(), e.not_gradable) == reasons.end())
      reasons.push_back(e.not_gradable);
  std::string out;
  for (const auto& why : reasons) out += (out.empty() ? "not gradable: " : "; ") + why;
  return out;
}

}  // namespace

std::string one_line_comment(std::string_view text, size_t cap) {
  std::string out;
  size_t at = 0;
  while (at <= text.size()) {
    size_t end = text.find_first_of("\r\n", at);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(at, end - at);
    const size_t a = line.find_first_not_of(" \t");
    if (a != std::string_view::npos) {
      line = line.substr(a, line.find_last_not_of(" \t") - a + 1);
      out += (out.empty() ? "" : " / ") + std::string(line);
    }
    at = end + 1;
  }
  out = clean_text(out, false);
  if (out.size() <= cap) return out;
  size_t cut = cap;
  while (cut > 0 && (static_cast<unsigned char>(out[cut]) & 0xC0) == 0x80) --cut;  // whole chars
  return out.substr(0, cut) + " [...]";
}

std::string write_csv(const std::vector<GradeReport>& reports, const View& view) {
  std::set<std::string> ids;  // the union, sorted
  for (const auto& r : reports)
    for (const auto& e : r.exercises) ids.insert(e.exercise_id);

  std::vector<const GradeReport*> rows;
  for (const auto& r : reports) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [](const GradeReport* a, const GradeReport* b) {
    return a->subject < b->subject;
  });
  // A not-gradable exercise holds no checks, so the view cannot leave its hidden points out of
  // its maximum: it takes the maximum the view shows for that exercise where it was graded.
  std::map<std::string, double> graded_max;
  for (const auto* r : rows)
    for (const auto& e : r->exercises)
      if (e.not_gradable.empty()) {
        const double m = shown_totals(e, view).max_score;
        const auto [it, fresh] = graded_max.emplace(e.exercise_id, m);
        if (!fresh) it->second = std::max(it->second, m);
      }

  std::string out = "subject";
  for (const auto& id : ids) out += "," + text_field(id);
  out += ",total,max,status,comment";
  out += kEol;
  for (const auto* r : rows) {
    out += text_field(r->subject);
    double total = 0, max = 0;
    for (const auto& id : ids) {
      out += ',';
      const ExerciseReport* e = find_exercise(*r, id);
      if (e == nullptr) continue;  // not graded on this exercise: an empty cell
      // Numbers only: an exercise that could not be graded scores 0 (status and comment say why).
      const ShownTotals t = shown_totals(*e, view);
      const double score = e->not_gradable.empty() ? t.score : 0.0;
      const auto known = graded_max.find(id);
      max += e->not_gradable.empty() || known == graded_max.end() ? t.max_score : known->second;
      total += score;
      out += format_number(score);
    }
    out += "," + format_number(total) + "," + format_number(max) + "," +
           (any_gradable(*r) || r->exercises.empty() ? "graded" : "not gradable") + "," +
           text_field(one_line_comment(not_gradable_reasons(*r)));
    out += kEol;
  }
  return out;
}

std::string write_roster(const std::vector<RosterRow>& rows,
                         const std::vector<std::string>& exercise_ids, double max_points) {
  // The gradebook counts every check, whoever the other reports are written for.
  const View instructor{true, true};
  std::string out = "submission";
  for (const auto& id : exercise_ids) out += "," + text_field(id);
  out += ",total,max,late_days,final,status,comment,submitted_at,time_source";
  out += kEol;
  for (const auto& row : rows) {
    out += text_field(row.submission);
    double total = 0;
    for (const auto& id : exercise_ids) {
      // Numbers only: an exercise that could not be graded scores 0 (the status says why).
      const ExerciseReport* e = row.report ? find_exercise(*row.report, id) : nullptr;
      const double v = e && e->not_gradable.empty() ? shown_totals(*e, instructor).score : 0.0;
      total += v;
      out += "," + format_number(v);
    }
    out += "," + format_number(total) + "," + format_number(max_points) + "," +
           std::to_string(row.late_days) + "," + format_number(total * row.kept) + "," +
           text_field(row.status) + "," + text_field(one_line_comment(row.comment)) + "," +
           text_field(row.submitted_at) + "," + text_field(row.time_source);
    out += kEol;
  }
  return out;
}

}  // namespace awb::grade
