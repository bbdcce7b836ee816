// batch.cpp: worker threads take submissions one at a time; each result is journaled before
// the next starts; the reports are then rebuilt from the journal alone.
#include "core/grading/batch.hpp"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <ctime>
#include <exception>
#include <map>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <thread>

#include "core/base/digest_cache.hpp"
#include "core/base/sha256.hpp"
#include "core/base/version.hpp"
#include "core/builds/source_build.hpp"
#include "core/builds/source_tree.hpp"
#include "core/grading/batch_publish.hpp"
#include "core/grading/batch_results.hpp"
#include "core/grading/lint.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/subjects.hpp"
#include "graders/model/error.hpp"
#include "graders/model/text.hpp"
#include "graders/report/format.hpp"
#include "graders/report/formats.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

constexpr const char* kJournalName = "journal.jsonl";

std::string utc_now() {
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

std::string number_text(double v) {
  char buf[32];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(v);
}

// Every option that can change a result, each named as `--name` is spelt without its dashes
// (options_difference() names the option from it). Options left at their defaults are left out,
// so the key of a default run reads as it always did.
std::string options_text(const BatchOptions& b) {
  const GradeOptions& o = b.grading;
  std::string text =
      std::string("scalar=") + to_string(o.scalar) + ";strictness=" + std::to_string(o.strictness);
  // An edited assignment (other points, requirements, variant) grades everything again.
  if (b.assignment) text += ";assignment=" + b.assignment->sha256;
  for (const std::string& p : b.variant_params) text += ";param=" + p;
  // Limits decide whether a slow or hungry submission passes; the isolation decides whether it
  // runs at all (and what its provenance says).
  if (o.limits.cpu_seconds) text += ";cpu_limit=" + number_text(*o.limits.cpu_seconds);
  if (o.limits.wall_seconds) text += ";wall_limit=" + number_text(*o.limits.wall_seconds);
  if (o.limits.memory_mb) text += ";memory_limit=" + std::to_string(*o.limits.memory_mb);
  const SessionOptions defaults;
  if (o.session.runner.limits.output_limit != defaults.runner.limits.output_limit)
    text += ";output_limit=" + std::to_string(o.session.runner.limits.output_limit >> 10);
  if (o.trust_all) text += ";trusted=yes";
  if (!o.trust_all && o.session.runner.level != defaults.runner.level)
    text += std::string(";isolation=") + runner::to_string(o.session.runner.level);
  if (!o.trust_all && o.session.minimum != defaults.minimum)
    text += std::string(";min_isolation=") + runner::to_string(o.session.minimum);
  // A source submission's build limits decide whether it builds (the jobs only how fast).
  const BuildLimits build;
  if (b.build.wall_seconds != build.wall_seconds)
    text += ";build_wall_limit=" + number_text(b.build.wall_seconds);
  if (b.build.cpu_seconds != build.cpu_seconds)
    text += ";build_cpu_limit=" + number_text(b.build.cpu_seconds);
  if (b.build.memory_mb != build.memory_mb)
    text += ";build_memory_limit=" + std::to_string(b.build.memory_mb);
  if (b.build.disk_mb != build.disk_mb)
    text += ";build_disk_limit=" + std::to_string(b.build.disk_mb);
  if (b.build.output_kb != build.output_kb)
    text += ";build_output_limit=" + std::to_string(b.build.output_kb);
  return text;
}

// Messages name files by their path on this machine; reports name them inside the submission,
// so they read the same wherever the batch ran.
std::string relative_text(std::string text, const fs::path& folder, const std::string& name) {
  // The canonical form first: the given one may be a relative tail of it.
  std::error_code ec;
  const std::string canonical = fs::weakly_canonical(fs::absolute(folder), ec).string();
  for (const std::string& prefix : {canonical, folder.string()}) {
    if (prefix.empty()) continue;
    for (size_t at = text.find(prefix); at != std::string::npos;
         at = text.find(prefix, at + name.size()))
      text.replace(at, prefix.size(), name);
  }
  return text;
}

std::string failure_text(const LoadFailure& f, const fs::path& folder, const std::string& name) {
  std::string s = f.path.filename().string() + ": " + to_string(f.stage) + ": " + f.message;
  if (!f.system_error.empty()) s += " (" + f.system_error + ")";
  return relative_text(s, folder, name);
}

// A submission's *.so files: each one's sha256 by file name, and the digest of their names and
// contents, which stands for "the plugin" in the key of a submission that has none and tells a
// resume whether the files are those it graded. Each file is hashed once per run.
struct FolderFiles {
  std::string digest;
  std::map<std::string, std::string> sha256;  // readable files only
};

FolderFiles folder_files(const fs::path& folder, DigestCache& digests) {
  FolderFiles out;
  std::vector<fs::path> files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(folder, ec))
    if (entry.path().extension() == ".so") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::string listing;
  for (const auto& f : files) {
    listing += f.filename().string() + '\t';
    try {
      const std::string sha = digests.sha256(f);
      out.sha256[f.filename().string()] = sha;
      listing += sha;
    } catch (const Error&) {
      listing += "unreadable";
    }
    listing += '\n';
  }
  out.digest = sha256_hex(listing);
  return out;
}

bool exercise_passed(const grade::ExerciseReport& e) {
  return e.not_gradable.empty() && e.max_score > 0 && e.score >= e.max_score - 1e-9;
}

// One thing to grade in a submission: a variant, or a file that gave no plugin.
struct Target {
  std::string name;
  std::string plugin_file;
  VariantRef variant;        // unset for a failure
  std::string not_gradable;  // set for a failure (or when the variant cannot be set up)
  std::string plugin_sha;
};

struct Shared {
  const BatchOptions& options;
  Journal& journal;
  const std::map<JournalKey, const JournalRecord*>& done;
  const std::function<void(const BatchProgress&)>& progress;
  Clock::time_point start;
  std::string options_text;
  DigestCache& digests;  // the submissions' files, remembered across runs (thread-safe)

  std::mutex mutex;  // guards what follows
  std::set<JournalKey> expected;
  // Each submission's note as its tree is now: what the reports say, whatever note the journal's
  // reused results were first written with (files added or removed since change it).
  std::map<std::string, std::string> notes;
  BatchSummary summary;
  int finished = 0;
  std::exception_ptr error;
  std::atomic<bool> stop{false};

  bool cancelled() const {
    return stop.load() || (options.cancel != nullptr && options.cancel->load());
  }
};

// The journal's records of a submission when they are every result this run would give it,
// graded from the same *.so files (`digest`): every subject loading them gave, on every
// exercise, under this awb version and these options. Nothing otherwise (then the submission is
// loaded, and whatever is missing graded). Loading is what a finished batch's resume would
// spend its time on: a runner per plugin, just to learn its variants.
std::optional<std::vector<const JournalRecord*>> journaled_whole(const Shared& s,
                                                                 const std::string& name,
                                                                 const std::string& digest) {
  std::map<std::string, std::string> exercise_sha;
  for (const Exercise* ex : s.options.exercises) exercise_sha[ex->id] = ex->sha256;
  std::vector<const JournalRecord*> mine;
  std::map<std::string, size_t> per_subject;
  JournalKey first;
  first.submission = name;
  for (auto it = s.done.lower_bound(first); it != s.done.end() && it->first.submission == name;
       ++it) {
    const JournalKey& k = it->first;
    const auto ex = exercise_sha.find(k.exercise_id);
    if (k.awb_version != AWB_VERSION || k.options != s.options_text || ex == exercise_sha.end() ||
        ex->second != k.exercise_sha256)
      continue;  // a stale result: not part of this run
    const JournalRecord& r = *it->second;
    if (r.folder_sha256 != digest || r.subjects <= 0) return std::nullopt;
    if (!mine.empty() && r.subjects != mine.front()->subjects) return std::nullopt;
    mine.push_back(&r);
    ++per_subject[k.subject];
  }
  if (mine.empty() || static_cast<int>(per_subject.size()) != mine.front()->subjects)
    return std::nullopt;
  for (const auto& [subject, n] : per_subject)
    if (n != exercise_sha.size()) return std::nullopt;
  return mine;
}

// Adds a finished submission to the summary and reports its progress; `s.mutex` is held.
void count_submission(Shared& s, const std::string& name, int subjects, bool not_gradable,
                      int passed, int results, int reused, std::string note) {
  ++s.finished;
  ++s.summary.submissions;
  s.summary.subjects += subjects;
  s.summary.reused += reused;
  s.summary.graded += results - reused;
  if (not_gradable) ++s.summary.not_gradable;
  if (!s.progress) return;
  BatchProgress p;
  p.done = s.finished;
  p.total = -1;  // filled by the caller's wrapper
  p.not_gradable = s.summary.not_gradable;
  p.submission = name;
  p.exercises_passed = passed;
  p.exercises_total = results;
  p.note = std::move(note);
  p.reused = reused;
  p.elapsed_seconds = std::chrono::duration<double>(Clock::now() - s.start).count();
  s.progress(p);
}

// Counts a submission taken whole from the journal, as grade_submission counts a graded one.
void reuse_submission(Shared& s, const std::string& name,
                      const std::vector<const JournalRecord*>& records) {
  int passed = 0;
  for (const JournalRecord* r : records)
    if (exercise_passed(r->report)) ++passed;
  const bool not_gradable = records.front()->subjects == 1 && records.front()->plugin_file.empty();
  std::lock_guard lock(s.mutex);
  for (const JournalRecord* r : records) s.expected.insert(r->key);
  s.notes[name] = records.front()->note;  // the same files as then: the same note
  const int n = static_cast<int>(records.size());
  count_submission(s, name, records.front()->subjects, not_gradable, passed, n, n,
                   not_gradable ? "not gradable: " + records.front()->report.not_gradable
                                : records.front()->note);
}

// The journal's marks that grading `name` started (at `process`, where a submission can kill
// awb): how many earlier runs began it and never finished.
constexpr const char* kStartMark = "#started-";

int journaled_starts(const Shared& s, const std::string& name) {
  int starts = 0;
  JournalKey first;
  first.submission = name;
  for (auto it = s.done.lower_bound(first); it != s.done.end() && it->first.submission == name;
       ++it)
    if (it->first.exercise_id.rfind(kStartMark, 0) == 0 && it->first.options == s.options_text &&
        it->first.awb_version == AWB_VERSION)
      ++starts;
  return starts;
}

void mark_start(Shared& s, const std::string& name, const std::string& digest, int number) {
  JournalRecord mark;
  mark.key = {name,        name,          kStartMark + std::to_string(number), "", digest,
              AWB_VERSION, s.options_text};
  mark.report.exercise_id = mark.key.exercise_id;
  mark.report.not_gradable = "grading started";
  mark.folder_sha256 = digest;
  mark.finished_at = utc_now();
  s.journal.append(mark);  // never part of a report: run_batch keeps only the results it expects
}

// Below `limited` a submission runs with the grader's rights and can kill awb, and a resume
// would grade it, and die, again. Each start is journaled first; one that two earlier runs
// began and never finished is not graded a third time. Returns why it is not graded, or "".
std::string journal_start(Shared& s, const std::string& name, const std::string& digest) {
  if (!s.options.journal_starts) return {};
  const int starts = journaled_starts(s, name);
  if (starts >= 2)
    return "awb itself was stopped twice while grading this submission (at isolation "
           "process a submission can kill awb): it is not graded again; grade it at "
           "--min-isolation limited or above";
  mark_start(s, name, digest, starts + 1);
  return {};
}

Catalog load_submission(const Shared& s, const fs::path& folder) {
  LoadPolicy policy;
  policy.runner = session_options_for(s.options.exercises, s.options.grading).runner;
  policy.trust_all = s.options.grading.trust_all;
  policy.regular_files_only = true;
  return load_catalog({folder}, policy);
}

// A submission as its subjects are graded: what every journal record of it carries.
struct Submission {
  std::string name;
  fs::path folder;  // its plugin files: the submission's folder, or its build's
  FolderFiles files;
  std::string note;  // about the submission, kept in its journal records
  int64_t submitted_at = 0;
  int subjects = 0;
};

// What a submission's catalog gives to grade, and what its progress line says.
struct Subjects {
  std::vector<Target> targets;
  std::vector<std::string> notes;  // about the submission, kept in its journal records
  std::string note;
  bool not_gradable = false;
};

// The assignment names one variant; what else the submission holds is said, not graded.
void add_assigned_variant(const Assignment& assignment, const Catalog& catalog,
                          const Submission& sub, Subjects& out) {
  std::vector<VariantRef> found;
  for (const auto& p : catalog.plugins)
    for (const auto& v : p.variants) found.push_back({&p, &v});
  const VariantChoice choice = choose_variant(assignment, found);
  if (choice.chosen)
    out.targets.push_back(
        {sub.name, choice.chosen->plugin->path.filename().string(), *choice.chosen, {}, {}});
  if (!choice.note.empty()) out.notes.push_back(choice.note);
  if (!choice.others.empty()) out.notes.push_back("not graded: " + join(choice.others, ", "));
  if (choice.chosen)
    for (const auto& f : catalog.failures)
      out.notes.push_back("did not load: " + failure_text(f, sub.folder, sub.name));
}

void add_every_variant(const Catalog& catalog, const Submission& sub, Subjects& out) {
  for (const auto& p : catalog.plugins)
    for (const auto& v : p.variants)
      out.targets.push_back(
          {sub.name + "/" + p.id + ":" + v.id, p.path.filename().string(), {&p, &v}, {}, {}});
}

// Nothing loadable: one subject, the submission, not gradable with every reason.
void add_not_gradable(const Catalog& catalog, const Submission& sub, const std::string& unloadable,
                      Subjects& out) {
  out.not_gradable = true;
  std::string reason = unloadable;
  for (const auto& f : catalog.failures)
    reason += (reason.empty() ? "" : "; ") + failure_text(f, sub.folder, sub.name);
  if (reason.empty())
    reason = catalog.plugins.empty() ? "discover: no plugin file (*.so) in the submission"
                                     : "descriptor: the plugin declares no variant";
  out.targets.push_back({sub.name, "", {}, reason, sub.files.digest});
  out.note = "not gradable: " + reason.substr(0, reason.find('\n'));  // a build's errors follow
}

// Files beside loadable plugins that did not load are listed too, never dropped silently.
void add_failed_files(const Catalog& catalog, const Submission& sub, Subjects& out) {
  for (const auto& f : catalog.failures) {
    const std::string text = failure_text(f, sub.folder, sub.name);
    const auto known = sub.files.sha256.find(f.path.filename().string());
    const std::string sha =
        known != sub.files.sha256.end() ? known->second : sha256_hex("unreadable");
    out.targets.push_back(
        {sub.name + "/" + f.path.filename().string(), f.path.filename().string(), {}, text, sha});
    out.note += (out.note.empty() ? "did not load: " : "; ") + text;
  }
  if (out.targets.size() == 1) out.targets.front().name = sub.name;
}

Subjects submission_subjects(const Shared& s, const Catalog& catalog, const Submission& sub,
                             const std::string& unloadable) {
  Subjects out;
  const Assignment* assignment = s.options.assignment;
  if (assignment != nullptr)
    add_assigned_variant(*assignment, catalog, sub, out);
  else
    add_every_variant(catalog, sub, out);
  if (out.targets.empty())
    add_not_gradable(catalog, sub, unloadable, out);
  else if (assignment == nullptr)
    add_failed_files(catalog, sub, out);
  else if (!out.notes.empty())
    out.note = join(out.notes, "; ");
  return out;
}

// The subject's plugin file's sha256, from the folder's hashes when it is one of them; a file
// that cannot be read makes the subject not gradable.
void hash_plugin(Shared& s, Target& subj, const Submission& sub) {
  if (subj.variant.plugin == nullptr) return;
  try {
    const auto known = sub.files.sha256.find(subj.variant.plugin->path.filename().string());
    subj.plugin_sha = known != sub.files.sha256.end() ? known->second
                                                      : s.digests.sha256(subj.variant.plugin->path);
  } catch (const Error& e) {
    subj.not_gradable = relative_text(e.what(), sub.folder, sub.name);
    subj.plugin_sha = sha256_hex("unreadable");
  }
}

// Under an assignment every check counts, in its scalar type, for what the variant declares.
GradeOptions subject_grading(const Shared& s, const Target& subj) {
  if (s.options.assignment == nullptr) return s.options.grading;
  return under_assignment(*s.options.assignment, subj.variant.variant, s.options.grading);
}

struct Tally {
  int passed = 0, total = 0, reused = 0;
};

// The key of the subject's result on `ex`, now expected in this run's reports.
JournalKey expect_result(Shared& s, const Submission& sub, const Target& subj, const Exercise& ex) {
  JournalKey key{sub.name,        subj.name,   ex.id,         ex.sha256,
                 subj.plugin_sha, AWB_VERSION, s.options_text};
  std::lock_guard lock(s.mutex);
  s.expected.insert(key);
  return key;
}

// The subject's result on `ex`: graded on `instance`, or not gradable when there is none.
void grade_result(JournalRecord& record, const JournalKey& key, const Exercise& ex,
                  VariantSubject* instance, const Target& subj, const Submission& sub,
                  const GradeOptions& grading, Clock::time_point t0) {
  record.key = key;
  record.plugin_file = subj.plugin_file;
  record.note = sub.note;
  record.submitted_at = sub.submitted_at;
  record.folder_sha256 = sub.files.digest;
  record.subjects = sub.subjects;
  if (instance) apply_exercise_limits(instance->session(), ex, grading);
  record.report = instance ? grade_exercise(ex, *instance, grading)
                           : not_gradable_report(ex, subj.not_gradable);
  record.report.provenance = {
      AWB_VERSION, ex.sha256, subj.plugin_sha,
      instance ? runner::to_string(instance->session().isolation()) : "not started",
      // No plugin file to name: the sha256 is the folder's digest (folder_files), said so.
      subj.plugin_file.empty() ? "folder digest" : ""};
  record.seconds = std::chrono::duration<double>(Clock::now() - t0).count();
  record.finished_at = utc_now();
}

// Grades one subject on every exercise, reusing the journal's results; false when the batch
// was cancelled meanwhile (then nothing more of the submission is journaled or counted).
bool grade_subject(Shared& s, Target& subj, const Submission& sub, Tally& tally) {
  // One session per subject for all its exercises: a fresh runner for each submission.
  std::unique_ptr<VariantSubject> instance;  // set up only when something needs grading
  bool tried = false;
  hash_plugin(s, subj, sub);
  const GradeOptions grading = subject_grading(s, subj);
  // The last record waits for the session's end, which may void it (a forged frame).
  std::optional<JournalRecord> pending;
  auto commit = [&](JournalRecord& record) {
    s.journal.append(record);  // written and fsync'd before the next result starts
    if (exercise_passed(record.report)) ++tally.passed;
  };
  for (const Exercise* ex : s.options.exercises) {
    if (s.cancelled()) return false;
    const JournalKey key = expect_result(s, sub, subj, *ex);
    ++tally.total;
    if (const auto it = s.done.find(key); it != s.done.end()) {
      ++tally.reused;
      if (exercise_passed(it->second->report)) ++tally.passed;
      continue;
    }
    const auto t0 = Clock::now();
    if (!tried && subj.not_gradable.empty()) {
      tried = true;
      try {
        instance = std::make_unique<VariantSubject>(
            subj.variant, session_options_for(s.options.exercises, grading));
      } catch (const Error& e) {
        subj.not_gradable = relative_text(e.what(), sub.folder, sub.name);
      }
    }
    if (pending) commit(*pending);
    grade_result(pending.emplace(), key, *ex, instance.get(), subj, sub, grading, t0);
  }
  if (instance) {
    try {
      instance->session().finish();
    } catch (const Error& e) {
      if (pending) void_report(pending->report, e.message());
    }
  }
  if (pending) commit(*pending);
  return true;
}

// A source submission's build (cached in the results' build cache): its plugins' folder, or
// why there is none. What is the grader's fault fails the batch (exit 1) and journals nothing of
// the submission, so a resume builds and grades it: a build awb cannot store (io.write: the
// cache's disk is full) or a sandbox that cannot start (build.sandbox_failed: its folder could
// not be made, awb-builder could not lock down). What is the submission's (sources over the
// limit) makes it not gradable.
struct Built {
  fs::path plugins;
  std::string failure;
  std::string digest;  // stands for the files when nothing was built
};

Built build_submission(const Shared& s, const fs::path& folder) {
  Built b;
  try {
    const fs::path cache =
        s.options.build_cache.empty() ? s.options.results / "builds" : s.options.build_cache;
    const BuildOutcome out = build_source(folder, cache, s.options.build);
    if (out.built) {
      b.plugins = out.plugins;
    } else {
      b.failure = build_failure_text(out);
      b.digest = sha256_hex("build " + out.key + "\n" + b.failure);
    }
  } catch (const Error& e) {
    // awb's own disk or sandbox: a fault of the batch, not the student's.
    if (e.id() == "io.write" || e.id() == "build.sandbox_failed")
      throw Error(e.id(), e.location(),
                  e.message() + "; " + folder.filename().string() + " was not graded: " +
                      (e.id() == "io.write" ? "free the space" : "mend the build sandbox") +
                      " and run again with --resume");
    b.failure = "not built: " + relative_text(e.message(), folder, folder.filename().string());
    b.digest = sha256_hex(b.failure + "\n" + utc_now() + std::to_string(::getpid()));
  }
  return b;
}

void grade_submission(Shared& s, const fs::path& folder) {
  Submission sub;
  sub.name = folder.filename().string();
  sub.folder = folder;
  std::string unloadable;  // why nothing of it is loaded
  if (links_into_bundled(folder)) {
    unloadable = kBundledLinkRefusal;
    sub.files.digest = sha256_hex(unloadable);
  } else if (is_source_tree(folder)) {
    const Built built = build_submission(s, folder);
    unloadable = built.failure;
    if (built.failure.empty())
      sub.folder = built.plugins;  // its messages then name files inside the submission too
    else
      sub.files.digest = built.digest;
  }
  if (unloadable.empty()) sub.files = folder_files(sub.folder, s.digests);
  if (const auto whole = journaled_whole(s, sub.name, sub.files.digest)) {
    reuse_submission(s, sub.name, *whole);
    return;
  }
  if (unloadable.empty()) unloadable = journal_start(s, sub.name, sub.files.digest);
  const Catalog catalog = unloadable.empty() ? load_submission(s, sub.folder) : Catalog{};
  Subjects subjects = submission_subjects(s, catalog, sub, unloadable);
  sub.note = join(subjects.notes, "; ");
  sub.submitted_at = s.options.assignment != nullptr ? newest_mtime(folder) : 0;
  sub.subjects = static_cast<int>(subjects.targets.size());

  {
    std::lock_guard lock(s.mutex);
    s.notes[sub.name] = sub.note;
  }
  Tally tally;
  for (auto& subj : subjects.targets)
    if (!grade_subject(s, subj, sub, tally)) return;

  std::lock_guard lock(s.mutex);
  count_submission(s, sub.name, sub.subjects, subjects.not_gradable, tally.passed, tally.total,
                   tally.reused, subjects.note);
}

}  // namespace

std::vector<fs::path> list_submissions(const fs::path& folder) {
  std::vector<fs::path> out;
  std::error_code ec;
  fs::directory_iterator it(folder, ec);
  if (ec) throw Error("io.read", folder.string(), "cannot list the submissions: " + ec.message());
  for (const auto& entry : it) {
    const std::string n = entry.path().filename().string();
    if (n.empty() || n.front() == '.') continue;
    if (entry.is_directory(ec)) out.push_back(entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

// Results inside the submissions would be graded as a student by the next run (or resume).
void check_results_outside_submissions(const BatchOptions& options) {
  std::error_code ec;
  const fs::path subs_c = fs::weakly_canonical(fs::absolute(options.submissions), ec);
  const fs::path results_c = fs::weakly_canonical(fs::absolute(options.results), ec);
  const auto [end, _] =
      std::mismatch(subs_c.begin(), subs_c.end(), results_c.begin(), results_c.end());
  if (end == subs_c.end())
    throw Error("batch.usage", options.results.string(),
                "the results folder (--out) must not be the submissions folder (--batch) or "
                "inside it");
}

// Grades every submission on `jobs` threads; the first exception stops the others and is
// rethrown here.
void grade_in_parallel(Shared& shared, const std::vector<fs::path>& submissions, int jobs) {
  std::atomic<size_t> next{0};
  auto worker = [&] {
    for (;;) {
      if (shared.cancelled()) return;
      const size_t i = next++;
      if (i >= submissions.size()) return;
      try {
        grade_submission(shared, submissions[i]);
      } catch (...) {
        std::lock_guard lock(shared.mutex);
        if (!shared.error) shared.error = std::current_exception();
        shared.stop = true;
        return;
      }
    }
  };
  std::vector<std::thread> threads;
  for (int j = 1; j < jobs; ++j) threads.emplace_back(worker);
  worker();
  for (auto& t : threads) t.join();
}

// The reports come from the journal alone: what this run graded and what it found there.
std::vector<JournalRecord> records_of_this_run(const fs::path& journal_path, const Shared& shared) {
  JournalContents final_contents = read_journal(journal_path);
  std::vector<JournalRecord> records;
  for (auto& r : final_contents.records)
    if (shared.expected.count(r.key)) {
      // Only the check results come from the journal; the notes are this run's.
      const auto note = shared.notes.find(r.key.submission);
      r.note = note == shared.notes.end() ? std::string() : note->second;
      records.push_back(std::move(r));
    }
  if (records.size() != shared.expected.size())
    throw Error("io.read", journal_path.string(),
                "the journal lacks " + std::to_string(shared.expected.size() - records.size()) +
                    " result(s) this run graded");
  return records;
}

// The class roster under an assignment (empty without one), and in `shipped` the digests of
// the bundled plugins, against which the graded files are compared.
std::vector<grade::RosterRow> class_roster(const BatchOptions& options, const BatchReports& reports,
                                           const std::vector<JournalRecord>& records,
                                           const std::vector<fs::path>& submissions,
                                           DigestCache& digests, const TimeInputs& times,
                                           std::map<std::string, std::string>& shipped) {
  if (!options.assignment) return {};
  std::error_code ec;
  std::set<uintmax_t> graded_sizes;
  for (const auto& r : records)
    if (!r.plugin_file.empty())
      graded_sizes.insert(
          fs::file_size(options.submissions / r.key.submission / r.plugin_file, ec));
  shipped = shipped_plugin_hashes(graded_sizes, digests);
  // The files' times as they are now, not as the journal saw them: a resume publishes what the
  // folder and the time inputs given to it say.
  std::map<std::string, int64_t> mtimes;
  for (const auto& folder : submissions) mtimes[folder.filename().string()] = newest_mtime(folder);
  return roster_rows(reports, records, *options.assignment, shipped, times, mtimes);
}

// The submission times given with the batch, checked against the whole class (`everyone`).
TimeInputs class_times(const BatchOptions& options, const std::vector<fs::path>& everyone) {
  if (!options.times.empty() && options.assignment == nullptr)
    throw Error("batch.usage", "",
                "--submitted-at, --extensions and --submission-metadata need --assignment (its due "
                "date and late policy)");
  std::set<std::string> class_names;
  for (const auto& s : everyone) class_names.insert(s.filename().string());
  return read_time_inputs(options.times, class_names);
}

// Publishes the reports of a finished run, from the journal alone (with a shard's manifest).
void publish_batch(const BatchOptions& options, const Shared& shared,
                   const std::vector<fs::path>& everyone, const std::vector<fs::path>& submissions,
                   DigestCache& digests, const TimeInputs& times) {
  const fs::path journal_path = options.results / kJournalName;
  const std::vector<JournalRecord> records = records_of_this_run(journal_path, shared);
  const BatchReports reports = build_batch_reports(records);
  std::map<std::string, std::string> shipped;
  const std::vector<grade::RosterRow> roster =
      class_roster(options, reports, records, submissions, digests, times, shipped);
  std::vector<ReportFile> manifest;
  if (options.shard) {
    ShardManifest m =
        make_shard_manifest(*options.shard, shared.options_text, options.exercises,
                            options.assignment, everyone, submissions, records, shipped);
    m.submitted_at_sha256 = times.submitted_at_sha256;
    m.extensions_sha256 = times.extensions_sha256;
    manifest.push_back({std::string(kShardFile), manifest_text(m)});
  }
  try {
    write_batch_reports(reports, options.results, options.view, options.assignment, roster,
                        std::move(manifest), times);
  } catch (const Error& e) {
    throw Error(e.id(), e.location(),
                e.message() +
                    ". The journal holds every result: run again with --resume to "
                    "publish the reports (nothing is graded again)");
  }
}

}  // namespace

BatchSummary run_batch(const BatchOptions& options,
                       const std::function<void(const BatchProgress&)>& progress) {
  check_results_outside_submissions(options);
  // Held to the end: no other batch or merge works in these results meanwhile.
  const ResultsFolder claimed = ResultsFolder::claim(options.results, ResultsKind::kBatch);
  const auto everyone = list_submissions(options.submissions);
  const auto submissions = options.shard ? shard_submissions(everyone, *options.shard) : everyone;
  // The times are checked against the whole class before anything is graded: a typo in a name
  // fails now, not after an hour of grading.
  const TimeInputs times = class_times(options, everyone);

  const fs::path journal_path = options.results / kJournalName;
  JournalContents contents;
  Journal journal =
      options.resume ? Journal::resume(journal_path, contents) : Journal::create(journal_path);
  std::map<JournalKey, const JournalRecord*> done;
  for (const auto& r : contents.records) done.emplace(r.key, &r);
  // Holding the journal's lock, no other run is publishing here: what an interrupted one left
  // (a staging folder, temp links and files) can go now.
  clean_results(options.results);

  const int total = static_cast<int>(submissions.size());
  std::function<void(const BatchProgress&)> report_progress;
  if (progress)
    report_progress = [&](const BatchProgress& p) {
      BatchProgress q = p;
      q.total = total;
      if (q.done > 0) q.eta_seconds = q.elapsed_seconds / q.done * (total - q.done);
      progress(q);
    };

  // A resume (or a second run into the same folder) reads again only the files that changed.
  const fs::path digests_path = options.results / kDigestCacheFile;
  DigestCache digests(digests_path);
  Shared shared{options,      journal,
                done,         report_progress,
                Clock::now(), options_text(options),
                digests,      {},
                {},           {},
                {},           0,
                nullptr,      {}};
  shared.summary.journal_warnings = contents.warnings;

  grade_in_parallel(shared, submissions, std::clamp(options.jobs, 1, std::max(1, total)));
  try {
    digests.save(digests_path);
  } catch (const Error&) {
    // only a cache: the next run hashes the files again
  }
  if (shared.error) std::rethrow_exception(shared.error);
  BatchSummary summary = shared.summary;
  if (options.cancel != nullptr && options.cancel->load()) {
    summary.cancelled = true;
    return summary;  // no reports from a partial run; resume it to finish
  }

  publish_batch(options, shared, everyone, submissions, digests, times);
  return summary;
}

}  // namespace awb::core
