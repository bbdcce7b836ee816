// table.cpp: the terminal report: one table per exercise, feedback under each failed check.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>

#include "graders/report/format.hpp"
#include "graders/report/report.hpp"

namespace awb::grade {
namespace {

std::string status_label(Status s) {
  std::string label = to_string(s);
  for (char& c : label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return label;
}

std::string pad(std::string s, size_t width) {
  if (s.size() < width) s.append(width - s.size(), ' ');
  return s;
}

// The check id as the table shows it; the instructor also sees who else may see the check.
std::string id_cell(const CheckResult& c, const View& view) {
  std::string id = clean_text(c.id, false);
  if (view.instructor && c.visibility != Visibility::kVisible)
    id += std::string(" [") + to_string(c.visibility) + "]";
  return id;
}

std::string points_cell(const CheckResult& c) {
  if (!counts(c)) return "-";
  return format_points(c.points) + "/" + format_points(c.max_points);
}

// Multi-line feedback, each line indented under the check it belongs to.
void put_block(std::ostream& out, const std::string& indent, const std::string& label,
               const std::string& text) {
  if (text.empty()) return;
  std::istringstream lines(clean_text(text, true));
  std::string line;
  bool first = true;
  while (std::getline(lines, line)) {
    out << indent;
    if (!label.empty()) out << (first ? label : std::string(label.size(), ' '));
    out << line << '\n';
    first = false;
  }
}

bool has_feedback(Status s) {
  return s == Status::kFailed || s == Status::kError || s == Status::kTimeout;
}

void put_exercise(std::ostream& out, const ExerciseReport& e, const View& view) {
  std::string heading = clean_text(e.exercise_id, false);
  if (!e.title.empty()) heading += " (" + clean_text(e.title, false) + ")";
  if (!e.not_gradable.empty()) {
    out << heading << ": not gradable: " << clean_text(e.not_gradable, false) << "\n\n";
    return;
  }
  out << heading << '\n';
  if (view.instructor) {
    const Provenance& p = e.provenance;
    out << "  awb " << clean_text(p.awb_version, false) << ", exercise sha256 "
        << clean_text(p.exercise_sha256.substr(0, 12), false) << ", plugin sha256 "
        << clean_text(p.plugin_sha256.substr(0, 12), false) << ", lockdown "
        << clean_text(p.lockdown, false) << '\n';
  }

  const auto checks = shown_checks(e, view);
  size_t status_w = 6, id_w = 5, points_w = 6;  // the header words
  for (const auto* c : checks) {
    status_w = std::max(status_w, status_label(c->status).size());
    id_w = std::max(id_w, id_cell(*c, view).size());
    points_w = std::max(points_w, points_cell(*c).size());
  }
  const std::string indent = "  ";
  // Feedback lines start under the check id, so the eye finds which check they explain.
  const std::string feedback_indent(indent.size() + status_w + 2 + 2, ' ');
  if (!checks.empty())
    out << indent << pad("STATUS", status_w) << "  " << pad("CHECK", id_w) << "  "
        << pad("POINTS", points_w) << "  SUMMARY\n";
  for (const auto* c : checks) {
    out << indent << pad(status_label(c->status), status_w) << "  " << pad(id_cell(*c, view), id_w)
        << "  " << pad(points_cell(*c), points_w) << "  " << clean_text(c->summary, false) << '\n';
    if (!has_feedback(c->status)) continue;
    put_block(out, feedback_indent, "", c->details);
    put_block(out, feedback_indent, "Diagnosis: ", c->diagnosis);
    put_block(out, feedback_indent, "Hint: ", c->hint);
  }
  const ShownTotals t = shown_totals(e, view);
  if (t.hidden > 0) out << indent << t.hidden << " hidden check(s) not shown\n";
  out << indent << "Score: " << format_points(t.score) << "/" << format_points(t.max_score)
      << "\n\n";
}

}  // namespace

std::string write_table(const GradeReport& report, const View& view) {
  std::ostringstream out;
  out << "Subject: " << clean_text(report.subject, false);
  if (!report.plugin_path.empty()) out << " (" << clean_text(report.plugin_path, false) << ")";
  out << "\n\n";
  if (!report.not_for_variant.empty()) {
    out << "Not for this variant (not graded, not counted):\n";
    for (const auto& [id, why] : report.not_for_variant)
      out << "  " << clean_text(id, false) << ": " << clean_text(why, false) << '\n';
    out << '\n';
  }
  int not_gradable = 0;
  for (const auto& e : report.exercises) {
    put_exercise(out, e, view);
    if (!e.not_gradable.empty()) ++not_gradable;
  }
  const ShownTotals t = shown_totals(report, view);
  out << "Total: " << format_points(t.score) << "/" << format_points(t.max_score) << " over "
      << report.exercises.size() << " exercise(s)";
  if (not_gradable > 0) out << ", " << not_gradable << " not gradable";
  out << '\n';
  return out.str();
}

}  // namespace awb::grade
