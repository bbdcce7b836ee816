// table.cpp: the terminal report: one table per exercise, feedback under each failed check, one
// row for checks that failed identically.
#include <algorithm>
#include <cctype>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

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

// Checks that failed the same way (same status, summary, details and diagnosis) share one row:
// a starter whose every check stops at the same TODO reads that TODO once, not forty times.
struct Row {
  std::vector<const CheckResult*> checks;  // one, or a group that failed identically
  double points = 0, max_points = 0;
};

bool same_failure(const CheckResult& a, const CheckResult& b) {
  return a.status == b.status && has_feedback(a.status) && a.summary == b.summary &&
         a.details == b.details && a.diagnosis == b.diagnosis;
}

std::vector<Row> rows_of(const std::vector<const CheckResult*>& checks) {
  std::vector<Row> rows;
  for (const auto* c : checks) {
    auto same = std::find_if(rows.begin(), rows.end(),
                             [&](const Row& r) { return same_failure(*r.checks.front(), *c); });
    Row& row = same != rows.end() ? *same : rows.emplace_back();
    row.checks.push_back(c);
    row.points += c->points;
    row.max_points += c->max_points;
  }
  return rows;
}

// A failure already shown in full in an earlier exercise of the report: where.
using Shown = std::vector<std::pair<const CheckResult*, std::string>>;

void put_exercise(std::ostream& out, const ExerciseReport& e, const View& view, Shown& shown) {
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
        << clean_text(p.exercise_sha256.substr(0, 12), false)
        << (p.plugin_sha256_of.empty() ? ", plugin sha256 " : ", " + p.plugin_sha256_of + " ")
        << clean_text(p.plugin_sha256.substr(0, 12), false) << ", lockdown "
        << clean_text(p.lockdown, false) << '\n';
  }

  const std::vector<Row> rows = rows_of(shown_checks(e, view));
  auto row_id = [&](const Row& r) {
    return r.checks.size() == 1 ? id_cell(*r.checks.front(), view)
                                : std::to_string(r.checks.size()) + " checks";
  };
  auto row_points = [&](const Row& r) {
    return r.checks.size() == 1 ? points_cell(*r.checks.front())
                                : format_points(r.points) + "/" + format_points(r.max_points);
  };
  size_t status_w = 6, id_w = 5, points_w = 6;  // the header words
  for (const auto& r : rows) {
    status_w = std::max(status_w, status_label(r.checks.front()->status).size());
    id_w = std::max(id_w, row_id(r).size());
    points_w = std::max(points_w, row_points(r).size());
  }
  const std::string indent = "  ";
  // Feedback lines start under the check id, so the eye finds which check they explain.
  const std::string feedback_indent(indent.size() + status_w + 2 + 2, ' ');
  if (!rows.empty())
    out << indent << pad("STATUS", status_w) << "  " << pad("CHECK", id_w) << "  "
        << pad("POINTS", points_w) << "  SUMMARY\n";
  for (const auto& r : rows) {
    const CheckResult& c = *r.checks.front();
    const auto earlier = std::find_if(shown.begin(), shown.end(), [&](const auto& s) {
      return r.checks.size() > 1 && same_failure(*s.first, c);
    });
    out << indent << pad(status_label(c.status), status_w) << "  " << pad(row_id(r), id_w) << "  "
        << pad(row_points(r), points_w) << "  "
        << (earlier != shown.end() ? "the same as in " + earlier->second + " above"
                                   : clean_text(c.summary, false))
        << '\n';
    if (!has_feedback(c.status)) continue;
    if (r.checks.size() > 1) {
      std::string ids;
      for (const auto* m : r.checks) ids += (ids.empty() ? "" : ", ") + id_cell(*m, view);
      put_block(out, feedback_indent, "Checks: ", ids);
    }
    if (earlier != shown.end()) continue;
    put_block(out, feedback_indent, "", c.details);
    put_block(out, feedback_indent, "Diagnosis: ", c.diagnosis);
    if (r.checks.size() == 1) {
      put_block(out, feedback_indent, "Hint: ", c.hint);
      continue;
    }
    shown.emplace_back(&c, clean_text(e.exercise_id, false));
    // Each check's own hint is about the maths it judges: worth reading when it failed, noise
    // when an error or a timeout stopped it before it judged anything.
    if (c.status != Status::kFailed) continue;
    std::vector<std::string> hints;
    for (const auto* m : r.checks)
      if (std::find(hints.begin(), hints.end(), m->hint) == hints.end()) hints.push_back(m->hint);
    for (const auto& h : hints) put_block(out, feedback_indent, "Hint: ", h);
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
  Shown shown;
  for (const auto& e : report.exercises) {
    put_exercise(out, e, view, shown);
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
