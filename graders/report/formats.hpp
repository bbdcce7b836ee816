// formats.hpp: every report format in one registry: the CLI's --format choices and writer, the
// GUI's export list and a batch's report files are all read from it.
//
// A new format is a file holding its writer (a function of the ReportWriter signature, listed in
// graders/CMakeLists.txt), its declaration and one line in the table in formats.cpp; nothing
// that lists formats names one.
#ifndef AWB_GRADERS_REPORT_FORMATS_HPP_
#define AWB_GRADERS_REPORT_FORMATS_HPP_

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "graders/report/report.hpp"

namespace awb::grade {

// What a writer may need besides the reports and the view.
struct FormatOptions {
  std::vector<std::string> leaderboard;  // Gradescope leaderboard columns (an assignment's)
  double late_kept = 1.0;                // the share a late policy keeps of the submission's
};

using ReportWriter = std::string (*)(std::span<const GradeReport> reports, const View& view,
                                     const FormatOptions& options);

struct ReportFormat {
  std::string_view name;  // as --format and the export list spell it
  // One document holds any number of subjects. Otherwise it holds exactly one, and `document`
  // says what it is in the message refusing several ("a Gradescope results.json").
  bool multi_subject;
  std::string_view document;
  // The view decides what the document shows. Otherwise the reader's platform does (Gradescope
  // applies each test's visibility itself), and student and instructor get the same bytes.
  bool honours_view;
  // Read by people as it is: the CLI may add its notes below (a graded file that is a copy of a
  // shipped one).
  bool plain_text;
  // What a batch writes into its report set, relative to the set: one file for the whole class
  // ("grades.csv"), or one per submission where the path holds a '*' ("gradescope/*.json": the
  // submission's name replaces it). Empty: a batch writes none.
  std::string_view batch_file;
  ReportWriter write;
  // A gradebook (grades.csv): a batch writes it with the instructor's totals whatever the view,
  // as it writes the roster; the view shapes only what students read.
  bool gradebook = false;
};

// Every format; the first is the default (the terminal table).
std::span<const ReportFormat> report_formats();
// The format named `name` exactly, or nullptr.
const ReportFormat* find_report_format(std::string_view name);
// The names, in the registry's order.
std::vector<std::string> report_format_names();

// A batch file of one submission: `batch_file` with '*' replaced by `submission`.
std::string batch_file_for(const ReportFormat& format, std::string_view submission);
inline bool per_submission(const ReportFormat& format) {
  return format.batch_file.find('*') != std::string_view::npos;
}

}  // namespace awb::grade

#endif  // AWB_GRADERS_REPORT_FORMATS_HPP_
