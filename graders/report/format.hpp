// format.hpp: helpers the report writers share: what a view shows, numbers, and safe text.
#ifndef AWB_GRADERS_REPORT_FORMAT_HPP_
#define AWB_GRADERS_REPORT_FORMAT_HPP_

#include <cmath>
#include <string>
#include <string_view>
#include <vector>

#include "graders/report/report.hpp"

namespace awb::grade {

// Whether a check counts towards the maximum: not-run checks do not.
inline bool counts(const CheckResult& c) { return c.status != Status::kNotRun; }

// The checks of an exercise a view shows, in their order.
std::vector<const CheckResult*> shown_checks(const ExerciseReport& exercise, const View& view);

// An exercise's totals as a view sees them. With nothing hidden these are the exercise's own
// score and max_score; otherwise they are summed over the shown checks, so a student's total
// never reveals the points of checks they cannot see.
struct ShownTotals {
  double score = 0;
  double max_score = 0;
  int hidden = 0;  // checks the view leaves out
};
ShownTotals shown_totals(const ExerciseReport& exercise, const View& view);
ShownTotals shown_totals(const GradeReport& report, const View& view);

// What a check's status is, for platforms that know only passed and failed: the words that lead
// its text ("Error: ", "Timed out: ", "Not run (does not count): "); empty when passed or failed.
std::string_view status_lead(Status status);
// The feedback under a check that did not pass, as it follows the summary: the details and the
// diagnosis each after a blank line, the hint on the line after. Empty for a passed or not-run
// check (there is nothing to fix).
std::string check_feedback(const CheckResult& c);
// What a subject scored, for people: "awb graded SUBJECT (awb VERSION).", then one line per
// exercise with the points the view shows ("river-bank: 9/12", "... in the tests shown" when
// the view hides some) or why it is not gradable. The view decides, so a hidden check shows
// neither its name nor its points nor its share of a total.
std::string grade_summary(const GradeReport& report, const View& view);

// A number a JSON format can carry: NaN and infinities (a score gone wrong) become 0.
inline double finite(double v) { return std::isfinite(v) ? v : 0.0; }

// Points for people: at most two decimals, trailing zeros dropped ("2", "0.5", "0.33").
std::string format_points(double v);
// Points for machines (CSV): rounded to 1e-6, then the shortest text that reads back the same.
std::string format_number(double v);

// Text from plugins and submissions is untrusted. These keep valid UTF-8 (an invalid byte
// becomes U+FFFD) and drop control characters, so nothing can drive the reader's terminal or
// break the file format.
std::string clean_text(std::string_view s, bool keep_newlines);
// The text itself, only invalid UTF-8 replaced by U+FFFD (a name kept exactly where the format
// can carry it), and whether it holds a control character.
std::string valid_utf8(std::string_view s);
bool has_control(std::string_view s);
// For a terminal line: every control character (escape sequences, newlines, OSC titles) shown
// as a visible \xNN, so a name can neither drive the terminal nor hide or forge lines; invalid
// UTF-8 becomes U+FFFD.
std::string terminal_text(std::string_view s);
// CSV fields (RFC 4180): `csv_quoted` always encloses the text in double quotes, doubling the
// quotes in it; `csv_field` does so only when the text holds a comma, a quote, CR or LF.
std::string csv_quoted(std::string_view s);
std::string csv_field(std::string_view s);
// Escapes & < > " ' and drops characters XML 1.0 forbids. In attributes, tab and newlines
// become character references so that a parser reads them back unchanged.
std::string xml_escape(std::string_view s, bool attribute);

}  // namespace awb::grade

#endif  // AWB_GRADERS_REPORT_FORMAT_HPP_
