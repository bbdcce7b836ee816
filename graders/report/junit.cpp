// junit.cpp: JUnit XML for CI servers: one testsuite per (subject, exercise), a testcase per check.
#include <sstream>
#include <string>

#include "graders/report/format.hpp"
#include "graders/report/report.hpp"

namespace awb::grade {
namespace {

// Counts as the JUnit attributes name them. Error and timeout are "errors" (the check could
// not judge), a failed check is a "failure", a not-run check is "skipped".
struct Counts {
  int tests = 0, failures = 0, errors = 0, skipped = 0;
  void add(const Counts& o) {
    tests += o.tests, failures += o.failures, errors += o.errors, skipped += o.skipped;
  }
};

std::string attr(std::string_view s) { return xml_escape(s, true); }
std::string text(std::string_view s) { return xml_escape(s, false); }

std::string counts_attrs(const Counts& c) {
  return " tests=\"" + std::to_string(c.tests) + "\" failures=\"" + std::to_string(c.failures) +
         "\" errors=\"" + std::to_string(c.errors) + "\" skipped=\"" + std::to_string(c.skipped) +
         "\"";
}

// The body of a <failure> or <error>: what the student needs to act on it.
std::string feedback(const CheckResult& c) {
  std::string body = "Points: " + format_points(c.points) + "/" + format_points(c.max_points);
  if (!c.details.empty()) body += "\n" + c.details;
  if (!c.diagnosis.empty()) body += "\nDiagnosis: " + c.diagnosis;
  if (!c.hint.empty()) body += "\nHint: " + c.hint;
  return body;
}

Counts suite_counts(const ExerciseReport& e, const std::vector<const CheckResult*>& checks) {
  Counts n;
  if (!e.not_gradable.empty()) {
    n.tests = n.errors = 1;
    return n;
  }
  for (const auto* c : checks) {
    ++n.tests;
    if (c->status == Status::kFailed)
      ++n.failures;
    else if (c->status == Status::kError || c->status == Status::kTimeout)
      ++n.errors;
    else if (c->status == Status::kNotRun)
      ++n.skipped;
  }
  return n;
}

void put_property(std::ostream& out, const char* name, std::string_view value) {
  out << "      <property name=\"" << name << "\" value=\"" << attr(value) << "\"/>\n";
}

Counts put_suite(std::ostream& out, const GradeReport& r, const ExerciseReport& e,
                 const View& view) {
  const auto checks = shown_checks(e, view);
  const Counts n = suite_counts(e, checks);
  const ShownTotals t = shown_totals(e, view);
  const std::string classname = r.subject + "." + e.exercise_id;
  out << "  <testsuite name=\"" << attr(r.subject + "/" + e.exercise_id) << "\"" << counts_attrs(n)
      << ">\n";
  out << "    <properties>\n";
  put_property(out, "title", e.title);
  put_property(out, "awb_version", e.provenance.awb_version);
  put_property(out, "exercise_sha256", e.provenance.exercise_sha256);
  put_property(out, "plugin_sha256", e.provenance.plugin_sha256);
  if (!e.provenance.plugin_sha256_of.empty())
    put_property(out, "plugin_sha256_of", e.provenance.plugin_sha256_of);
  put_property(out, "lockdown", e.provenance.lockdown);
  put_property(out, "score", format_points(t.score));
  put_property(out, "max_score", format_points(t.max_score));
  put_property(out, "hidden_checks", std::to_string(t.hidden));
  out << "    </properties>\n";

  // A CI server shows an exercise that could not be graded as one erroring test, so it is
  // noticed instead of reading as an empty, green suite.
  if (!e.not_gradable.empty()) {
    out << "    <testcase name=\"not_gradable\" classname=\"" << attr(classname) << "\">\n"
        << "      <error type=\"not_gradable\" message=\"" << attr(e.not_gradable) << "\"/>\n"
        << "    </testcase>\n";
  }
  for (const auto* c : checks) {
    out << "    <testcase name=\"" << attr(c->id) << "\" classname=\"" << attr(classname) << "\"";
    switch (c->status) {
      case Status::kPassed:
        out << "/>\n";
        continue;
      case Status::kFailed:
        out << ">\n      <failure type=\"failed\" message=\"" << attr(c->summary) << "\">"
            << text(feedback(*c)) << "</failure>\n";
        break;
      case Status::kError:
      case Status::kTimeout:
        out << ">\n      <error type=\"" << to_string(c->status) << "\" message=\""
            << attr(c->summary) << "\">" << text(feedback(*c)) << "</error>\n";
        break;
      case Status::kNotRun:
        out << ">\n      <skipped message=\"" << attr(c->summary) << "\"/>\n";
        break;
    }
    out << "    </testcase>\n";
  }
  out << "  </testsuite>\n";
  return n;
}

}  // namespace

std::string write_junit(const std::vector<GradeReport>& reports, const View& view) {
  // The suites are written first so that the root element can carry the totals.
  std::ostringstream suites;
  Counts total;
  double seconds = 0;
  for (const auto& r : reports) {
    seconds += r.execution_seconds;
    for (const auto& e : r.exercises) total.add(put_suite(suites, r, e, view));
  }
  std::ostringstream out;
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
      << "<testsuites name=\"awb\"" << counts_attrs(total) << " time=\"" << format_number(seconds)
      << "\">\n"
      << suites.str() << "</testsuites>\n";
  return out.str();
}

}  // namespace awb::grade
