// batch_reports.cpp: a batch's report set, rebuilt from the journal alone.
#include "core/grading/batch_reports.hpp"

#include <algorithm>
#include <iterator>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/base/version.hpp"
#include "core/grading/lint.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/error.hpp"
#include "graders/model/text.hpp"
#include "graders/report/format.hpp"
#include "graders/report/formats.hpp"

namespace awb::core {

namespace fs = std::filesystem;

BatchReports build_batch_reports(std::vector<JournalRecord> records) {
  std::sort(records.begin(), records.end(), [](const JournalRecord& a, const JournalRecord& b) {
    return std::tie(a.key.submission, a.key.subject, a.key.exercise_id) <
           std::tie(b.key.submission, b.key.subject, b.key.exercise_id);
  });
  BatchReports out;
  for (auto& r : records) {
    if (out.subjects.empty() || out.subjects.back().subject != r.key.subject) {
      grade::GradeReport g;
      g.subject = r.key.subject;
      g.plugin_path = r.plugin_file.empty() ? "" : r.key.submission + "/" + r.plugin_file;
      g.execution_seconds = 0;  // timing lives in the journal only
      out.subjects.push_back(std::move(g));
    }
    if (out.submissions.empty() || out.submissions.back().first != r.key.submission)
      out.submissions.push_back({r.key.submission, {}});
    out.subjects.back().exercises.push_back(r.report);
  }
  // A submission's Gradescope report holds all its subjects; with several, each exercise is
  // named after its subject so the tests stay apart.
  for (auto& [name, report] : out.submissions) {
    report.subject = name;
    report.execution_seconds = 0;
    std::vector<const grade::GradeReport*> mine;
    for (const auto& g : out.subjects)
      if (g.subject == name || g.subject.rfind(name + "/", 0) == 0) mine.push_back(&g);
    for (const auto* g : mine) {
      const std::string label = mine.size() > 1 ? g->subject.substr(name.size() + 1) + "/" : "";
      for (auto e : g->exercises) {
        e.exercise_id = label + e.exercise_id;
        report.exercises.push_back(std::move(e));
      }
    }
  }
  return out;
}

std::map<std::string, std::string> shipped_plugin_hashes(const std::set<uintmax_t>& sizes,
                                                         DigestCache& digests) {
  std::map<std::string, std::string> out;
  const std::pair<fs::path, const char*> dirs[] = {{bundled_plugin_dir(), "bundled plugin "},
                                                   {bundled_mutant_dir(), "shipped mutant "}};
  for (const auto& [dir, what] : dirs) {
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
      if (e.path().extension() != ".so" || !e.is_regular_file(ec)) continue;
      // A byte copy has the copied file's size: the shipped plugins are tens of MB each, so
      // only those of a size worth comparing are hashed.
      if (!sizes.count(e.file_size(ec))) continue;
      try {
        out.emplace(digests.sha256(e.path()), what + e.path().filename().string());
      } catch (const Error&) {
        // an unreadable shipped file is simply not compared
      }
    }
  }
  return out;
}

std::vector<grade::RosterRow> roster_rows(const BatchReports& reports,
                                          const std::vector<JournalRecord>& records,
                                          const Assignment& assignment,
                                          const std::map<std::string, std::string>& known,
                                          const TimeInputs& times,
                                          const std::map<std::string, int64_t>& mtimes) {
  // Per submission: its note, graded file's sha256; and who else handed in that file.
  struct Facts {
    std::string note, sha, file;
  };
  std::map<std::string, Facts> facts;
  std::map<std::string, std::vector<std::string>> by_sha;
  for (const auto& r : records) {
    Facts& f = facts[r.key.submission];
    f.note = r.note;
    if (r.plugin_file.empty() || !f.sha.empty()) continue;
    f.sha = r.key.plugin_sha256;
    f.file = r.plugin_file;
    by_sha[f.sha].push_back(r.key.submission);
  }
  std::vector<grade::RosterRow> rows;
  for (const auto& [name, report] : reports.submissions) {
    grade::RosterRow row;
    row.submission = name;
    row.report = &report;
    const Facts& f = facts[name];
    std::vector<std::string> comment;
    const bool gradable = std::any_of(report.exercises.begin(), report.exercises.end(),
                                      [](const auto& e) { return e.not_gradable.empty(); });
    row.status = gradable ? "graded" : "not gradable";
    if (!gradable && !report.exercises.empty())
      comment.push_back("not gradable: " + report.exercises.front().not_gradable);
    if (!f.note.empty()) comment.push_back(f.note);
    if (!f.sha.empty()) {
      if (const auto it = known.find(f.sha); it != known.end())
        comment.push_back(f.file + " is identical to the " + it->second);
      std::vector<std::string> twins;
      for (const auto& other : by_sha[f.sha])
        if (other != name) twins.push_back(other);
      // By name, not in the records' order: that is the order results reached the journal
      // (which differs between runs with -j) or the order of the shards given to a merge.
      std::sort(twins.begin(), twins.end());
      if (!twins.empty())
        comment.push_back(f.file + " is identical to the file graded for " + join(twins, ", "));
    }
    const auto mtime = mtimes.find(name);
    const SubmittedTime when =
        submission_time(times, name, mtime == mtimes.end() ? 0 : mtime->second);
    if (when.source != TimeSource::kNone) {
      row.submitted_at = format_utc_time(when.at);
      row.time_source = to_string(when.source);
    }
    // Nothing graded, nothing to take off: a submission that could not be graded is not late.
    if (gradable && when.source != TimeSource::kNone) {
      const Lateness late = lateness(assignment, when.at, due_for(assignment, times, name));
      row.late_days = late.days;
      row.kept = late.kept;
      if (late.days > 0)
        comment.push_back(
            "late " + std::to_string(late.days) + (late.days == 1 ? " day" : " days") +
            (assignment.late.none()
                 ? ""
                 : " (" + grade::format_points(100.0 * (1.0 - late.kept)) + " % off)"));
    }
    if (const auto due = due_for(assignment, times, name); due && times.extensions.count(name))
      comment.push_back("due date extended to " + format_utc_time(*due));
    row.comment = join(comment, "; ");
    rows.push_back(std::move(row));
  }
  return rows;
}

std::string roster_meta(const Assignment& assignment, const grade::View& view,
                        const TimeInputs& times) {
  nlohmann::ordered_json j;
  j["assignment"] = {
      {"id", assignment.id}, {"title", assignment.title}, {"sha256", assignment.sha256}};
  j["roster_view"] = "instructor";  // every check counts in the gradebook
  j["reports_view"] = {{"view", view.instructor ? "instructor" : "student"},
                       {"after_due", view.after_due}};
  j["due"] = assignment.due ? format_utc_time(*assignment.due) : "";
  j["late"] = {{"percent_per_day", assignment.late.percent_per_day},
               {"max_days", assignment.late.max_days}};
  j["times"] = {{"submitted_at_sha256", times.submitted_at_sha256},
                {"extensions_sha256", times.extensions_sha256},
                {"extensions", times.extensions.size()},
                {"metadata", times.metadata.has_value()}};
  j["awb_version"] = AWB_VERSION;
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::vector<ReportFile> batch_report_files(const BatchReports& reports, const grade::View& view,
                                           const Assignment* assignment,
                                           const std::vector<grade::RosterRow>& roster,
                                           const TimeInputs& times) {
  std::vector<ReportFile> files;
  grade::FormatOptions options;
  if (assignment) options.leaderboard = assignment->leaderboard;
  std::map<std::string, double> kept;
  for (const auto& row : roster) kept[row.submission] = row.kept;
  const grade::View instructor{true, true};
  // Every format that has a batch file: one for the class (every subject), or one per submission.
  for (const auto& format : grade::report_formats()) {
    if (format.batch_file.empty()) continue;
    const grade::View& shown = format.gradebook ? instructor : view;
    if (!grade::per_submission(format)) {
      files.push_back(
          {std::string(format.batch_file), format.write(reports.subjects, shown, options)});
      continue;
    }
    for (const auto& [name, report] : reports.submissions) {
      grade::FormatOptions mine = options;
      if (const auto it = kept.find(name); it != kept.end()) mine.late_kept = it->second;
      files.push_back(
          {grade::batch_file_for(format, name), format.write({&report, 1}, shown, mine)});
    }
  }
  if (assignment == nullptr) return files;
  std::vector<std::string> ids;
  double max_points = 0;
  for (const auto& e : assignment->exercises) {
    ids.push_back(e.exercise.id);
    for (const auto& c : e.exercise.checks) max_points += c.points;
  }
  files.push_back({std::string(kRosterFile), grade::write_roster(roster, ids, max_points)});
  files.push_back({std::string(kRosterMetaFile), roster_meta(*assignment, view, times)});
  return files;
}

void write_batch_reports(const BatchReports& reports, const fs::path& results,
                         const grade::View& view, const Assignment* assignment,
                         const std::vector<grade::RosterRow>& roster, std::vector<ReportFile> extra,
                         const TimeInputs& times) {
  std::vector<ReportFile> files = batch_report_files(reports, view, assignment, roster, times);
  std::move(extra.begin(), extra.end(), std::back_inserter(files));
  publish_report_set(results, std::move(files));
}

}  // namespace awb::core
