// csv.cpp: the batch gradebook: one row per subject, one column per exercise, then the totals.
//
// RFC 4180: fields separated by commas, records ended by CRLF, a field holding a comma, quote,
// CR or LF enclosed in double quotes with its quotes doubled. The order is fixed (rows by
// subject, columns by exercise id) so a batch gives the same bytes however it was run.
#include <algorithm>
#include <set>
#include <string>
#include <string_view>

#include "report/format.hpp"
#include "report/report.hpp"

namespace awb::grade {
namespace {

constexpr std::string_view kEol = "\r\n";

// A name a student chose (a submission folder) is written where a spreadsheet may run it as a
// formula; a leading quote keeps "=HYPERLINK(...)" plain text (OWASP "CSV injection").
std::string text_field(std::string_view s) {
  std::string t = clean_text(s, true);
  if (!t.empty() && std::string_view("=+-@").find(t.front()) != std::string_view::npos)
    t.insert(t.begin(), '\'');
  return csv_field(t);
}

const ExerciseReport* find_exercise(const GradeReport& r, const std::string& id) {
  for (const auto& e : r.exercises)
    if (e.exercise_id == id) return &e;
  return nullptr;
}

}  // namespace

std::string write_csv(const std::vector<GradeReport>& reports) {
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
                 ? format_number(e->score)
                 : csv_quoted(clean_text("not gradable: " + e->not_gradable, true));
    }
    out += "," + format_number(r->score()) + "," + format_number(r->max_score());
    out += kEol;
  }
  return out;
}

}  // namespace awb::grade
