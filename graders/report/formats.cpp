// formats.cpp: the registry of report formats, and the writers of report.hpp seen through the
// one signature every format has.
#include "graders/report/formats.hpp"

#include <algorithm>
#include <array>

namespace awb::grade {

// A format written in a file of its own declares its writer here, outside the anonymous
// namespace, and takes one line in kFormats.

namespace {

// One table per subject, one after the other.
std::string table(std::span<const GradeReport> reports, const View& view, const FormatOptions&) {
  std::string out;
  for (const auto& r : reports) out += write_table(r, view);
  return out;
}

// One subject: its document; several: a JSON array of their documents.
std::string json(std::span<const GradeReport> reports, const View& view, const FormatOptions&) {
  if (reports.size() == 1) return write_json(reports.front(), view);
  std::string out = "[\n";
  for (size_t i = 0; i < reports.size(); ++i)
    out += (i ? ",\n" : "") + write_json(reports[i], view);
  return out + "]\n";
}

std::string junit(std::span<const GradeReport> reports, const View& view, const FormatOptions&) {
  return write_junit(std::vector<GradeReport>(reports.begin(), reports.end()), view);
}

// One subject only (multi_subject is false): the registry's users refuse several before this.
std::string gradescope(std::span<const GradeReport> reports, const View& view,
                       const FormatOptions& options) {
  if (reports.empty()) return {};
  return write_gradescope(reports.front(), view, options.leaderboard, options.late_kept);
}

// One subject only, as for Gradescope.
std::string prairielearn(std::span<const GradeReport> reports, const View& view,
                         const FormatOptions&) {
  if (reports.empty()) return {};
  return write_prairielearn(reports.front(), view);
}

std::string csv(std::span<const GradeReport> reports, const View& view, const FormatOptions&) {
  return write_csv(std::vector<GradeReport>(reports.begin(), reports.end()), view);
}

// name, multi_subject, document, honours_view, plain_text, batch_file, write[, gradebook]
constexpr std::array kFormats{
    ReportFormat{"table", true, "", true, true, "", table},
    ReportFormat{"json", true, "", true, false, "", json},
    ReportFormat{"junit", true, "", true, false, "junit.xml", junit},
    ReportFormat{"gradescope", false, "a Gradescope results.json", false, false,
                 "gradescope/*.json", gradescope},
    ReportFormat{"csv", true, "", true, false, "grades.csv", csv, true},
    ReportFormat{"prairielearn", false, "a PrairieLearn results.json", true, false,
                 "prairielearn/*.json", prairielearn},
};

}  // namespace

std::span<const ReportFormat> report_formats() { return kFormats; }

const ReportFormat* find_report_format(std::string_view name) {
  const auto it = std::find_if(kFormats.begin(), kFormats.end(),
                               [&](const ReportFormat& f) { return f.name == name; });
  return it == kFormats.end() ? nullptr : &*it;
}

std::vector<std::string> report_format_names() {
  std::vector<std::string> out;
  for (const auto& f : kFormats) out.emplace_back(f.name);
  return out;
}

std::string batch_file_for(const ReportFormat& format, std::string_view submission) {
  std::string path(format.batch_file);
  if (const auto star = path.find('*'); star != std::string::npos)
    path.replace(star, 1, submission);
  return path;
}

}  // namespace awb::grade
