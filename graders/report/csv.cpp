// csv.cpp: the batch gradebook (one row per subject, one column per exercise, then the totals)
// and the roster a course imports (one row per submission, numbers only).
//
// RFC 4180: fields separated by commas, records ended by CRLF, a field holding a comma, quote,
// CR or LF enclosed in double quotes with its quotes doubled. The order is fixed (rows by
// subject, columns by exercise id) so a batch gives the same bytes however it was run.
#include <algorithm>
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

}  // namespace

std::string write_csv(const std::vector<GradeReport>& reports, const View& view) {
  std::set<std::string> ids;  // the union, sorted
  for (const auto& r : reports)
    for (const auto& e : r.exercises) ids.insert(e.exercise_id);

  std::vector<const GradeReport*> rows;
  for (const auto& r : reports) rows.push_back(&r);
  std::stable_sort(rows.begin(), rows.end(), [](const GradeReport* a, const GradeReport* b) {
    return a->subject < b->subject;
  });

  std::string out = "subject";
  for (const auto& id : ids) out += "," + text_field(id);
  out += ",total,max";
  out += kEol;
  for (const auto* r : rows) {
    out += text_field(r->subject);
    for (const auto& id : ids) {
      out += ',';
      const ExerciseReport* e = find_exercise(*r, id);
      if (e == nullptr) continue;  // not graded on this exercise: an empty cell
      // A reason is text in a column of numbers: always quoted, so no reader takes it for one.
      out += e->not_gradable.empty()
                 ? format_number(shown_totals(*e, view).score)
                 : csv_quoted(clean_text("not gradable: " + e->not_gradable, true));
    }
    const ShownTotals t = shown_totals(*r, view);
    out += "," + format_number(t.score) + "," + format_number(t.max_score);
    out += kEol;
  }
  return out;
}

std::string write_roster(const std::vector<RosterRow>& rows,
                         const std::vector<std::string>& exercise_ids, double max_points,
                         const View& view) {
  std::string out = "submission";
  for (const auto& id : exercise_ids) out += "," + text_field(id);
  out += ",total,max,late_days,final,status,comment";
  out += kEol;
  for (const auto& row : rows) {
    out += text_field(row.submission);
    double total = 0;
    for (const auto& id : exercise_ids) {
      // Numbers only: an exercise that could not be graded scores 0 (the status says why).
      const ExerciseReport* e = row.report ? find_exercise(*row.report, id) : nullptr;
      const double v = e && e->not_gradable.empty() ? shown_totals(*e, view).score : 0.0;
      total += v;
      out += "," + format_number(v);
    }
    out += "," + format_number(total) + "," + format_number(max_points) + "," +
           std::to_string(row.late_days) + "," + format_number(total * row.kept) + "," +
           text_field(row.status) + "," + text_field(row.comment);
    out += kEol;
  }
  return out;
}

}  // namespace awb::grade
