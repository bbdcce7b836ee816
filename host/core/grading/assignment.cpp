// assignment.cpp: reading assignment files, and the rules that make every submission's maximum
// the same: which checks count, their points, which variant is graded, how late it is.
#include "core/grading/assignment.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <new>

#include "core/base/install_paths.hpp"
#include "core/base/sha256.hpp"
#include "core/exercises/yaml_reader.hpp"
#include "core/plugins/capabilities.hpp"
#include "graders/report/format.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTopKeys = {"awb-assignment", "id",         "title",     "variant",
                                           "requires",       "trainable",  "exercises", "due",
                                           "late",           "leaderboard"};
const std::vector<std::string> kLeaderboardColumns = {"score", "percent", "exercises_passed"};
constexpr int64_t kMaxExercises = 256;

// The checks of `ex` the assignment requires, with their points scaled to `points` (when set).
AssignedExercise assign(const Exercise& ex, const Assignment& a, std::optional<double> points) {
  AssignedExercise out{ex, 0, 0, {}};
  out.exercise.checks.clear();
  double own = 0;
  for (const auto& c : ex.checks) {
    const CheckNeeds needs = check_needs(ex, c, a.scalar);
    const bool required =
        (needs.capabilities & ~a.requires_capabilities) == 0 && (!needs.backward || a.trainable);
    if (!required) {
      ++out.left_out;
      continue;
    }
    out.exercise.checks.push_back(c);
    own += c.points;
  }
  out.points = own;
  if (points && own > 0) {
    for (auto& c : out.exercise.checks) c.points *= *points / own;
    out.points = *points;
  }
  return out;
}

// Every capability the checks of `exercises` run with, and whether any needs a backward pass.
CheckNeeds everything_needed(const std::vector<const Exercise*>& exercises, Scalar scalar) {
  CheckNeeds all;
  for (const Exercise* ex : exercises)
    for (const auto& c : ex->checks) {
      const CheckNeeds n = check_needs(*ex, c, scalar);
      all.capabilities |= n.capabilities;
      all.backward = all.backward || n.backward;
    }
  return all;
}

uint64_t capability_list(YamlReader& rd, const YAML::Node& n, const std::string& path) {
  uint64_t caps = 0;
  const auto list = rd.strings(n, path, 16);
  if (!list) return 0;
  for (size_t i = 0; i < list->size(); ++i)
    if (auto w = rd.word(n[i], path + "[" + std::to_string(i) + "]", capability_spellings()))
      caps |= capability_bit(*w);
  return caps;
}

}  // namespace

CheckNeeds check_needs(const Exercise& exercise, const grade::CheckSpec& check, Scalar scalar) {
  const RunInput in = exercise.input_for(check);
  CheckNeeds n;
  // A check with its own scalar key is graded in that type whatever the grading's is.
  n.capabilities = check.scalar.value_or(scalar) == Scalar::kF64 ? AWB_CAP_F64 : AWB_CAP_F32;
  for (const auto& l : in.layers) {
    if (l.w_q) n.capabilities |= AWB_CAP_QKV;
    if (l.w_o) n.capabilities |= AWB_CAP_OUTPUT_PROJ;
  }
  if (in.params.heads > 1) n.capabilities |= AWB_CAP_MULTI_HEAD;
  if (in.params.causal) n.capabilities |= AWB_CAP_CAUSAL;
  const grade::CheckDef* def = grade::Registry::instance().find(check.kind, check.name);
  n.backward = def && def->needs_backward;
  return n;
}

double Assignment::max_points() const {
  double sum = 0;
  for (const auto& e : exercises) sum += e.points;
  return sum;
}

std::vector<const Exercise*> Assignment::exercise_list() const {
  std::vector<const Exercise*> out;
  for (const auto& e : exercises) out.push_back(&e.exercise);
  return out;
}

std::optional<std::time_t> parse_utc_time(const std::string& text) {
  std::tm tm{};
  int y = 0, mo = 0, d = 0, h = 23, mi = 59, s = 59;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%4d-%2d-%2dT%2d:%2d:%2dZ%c", &y, &mo, &d, &h, &mi, &s, &tail) ==
          6 &&
      text.back() == 'Z') {
  } else if (text.size() == 10 &&
             std::sscanf(text.c_str(), "%4d-%2d-%2d%c", &y, &mo, &d, &tail) == 3) {
    h = 23, mi = 59, s = 59;
  } else {
    return std::nullopt;
  }
  if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || s > 60) return std::nullopt;
  tm.tm_year = y - 1900;
  tm.tm_mon = mo - 1;
  tm.tm_mday = d;
  tm.tm_hour = h;
  tm.tm_min = mi;
  tm.tm_sec = s;
  const std::time_t t = ::timegm(&tm);
  if (tm.tm_mday != d) return std::nullopt;  // 31 February rolled over
  return t;
}

std::string format_utc_time(std::time_t t) {
  std::tm tm{};
  ::gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

Lateness lateness(const Assignment& a, std::time_t submitted) {
  return lateness(a, submitted, a.due);
}

Lateness lateness(const Assignment& a, std::time_t submitted, std::optional<std::time_t> due) {
  Lateness out;
  if (!due || submitted <= *due) return out;
  const double seconds = std::difftime(submitted, *due);
  out.days = static_cast<int>(std::ceil(seconds / 86400.0));
  if (a.late.none()) return out;
  if (out.days > a.late.max_days) {
    out.kept = 0;
  } else {
    out.kept = std::max(0.0, 1.0 - a.late.percent_per_day * out.days / 100.0);
  }
  return out;
}

VariantChoice choose_variant(const Assignment& a, const std::vector<VariantRef>& found) {
  VariantChoice out;
  auto name = [](const VariantRef& v) { return v.plugin->id + ":" + v.variant->id; };
  auto pick = [&](const VariantRef& v) { out.chosen = v; };
  if (!a.variant_id.empty()) {
    for (const auto& v : found)
      if (v.variant->id == a.variant_id || name(v) == a.variant_id) {
        pick(v);
        break;
      }
  } else if (a.variant_capabilities != 0) {
    for (const auto& v : found)
      if ((v.variant->capabilities & a.variant_capabilities) == a.variant_capabilities) {
        pick(v);
        break;
      }
  }
  if (!out.chosen && !found.empty()) {
    pick(found.front());
    if (!a.variant_id.empty())
      out.note = "no variant '" + a.variant_id + "'; graded " + name(found.front());
    else if (a.variant_capabilities != 0)
      out.note = "no variant declares " + describe_capabilities(a.variant_capabilities) +
                 "; graded " + name(found.front());
  }
  for (const auto& v : found)
    if (!out.chosen || v.plugin != out.chosen->plugin || v.variant != out.chosen->variant)
      out.others.push_back(name(v));
  return out;
}

namespace {

// The exercises an assignment lists: by id from the loaded set, or by file relative to it.
struct Listed {
  std::vector<std::pair<const Exercise*, std::optional<double>>> picked;  // with their points
  std::vector<Exercise> from_files;  // the exercises read from files; `picked` points into it
  std::map<const Exercise*, std::string> file_entries;  // of those: the `file:` as written
};

// One entry's `points:`, or nothing (an error said) when it is not in (0, kMaxPoints].
std::optional<double> entry_points(YamlReader& rd, const YAML::Node& n, const std::string& p) {
  std::optional<double> points = rd.number(n, p + ".points");
  if (points && !(*points > 0)) {
    rd.error(n, p + ".points", rd.id("value"), "must be > 0");
    points.reset();
  } else if (points && *points > kMaxPoints) {
    rd.error(n, p + ".points", rd.id("value"),
             "must be at most " + grade::format_points(kMaxPoints));
    points.reset();
  }
  return points;
}

// The `exercises:` list read; errors of the exercise files go to `errors`.
void read_exercise_list(YamlReader& rd, const YAML::Node& list, const fs::path& file,
                        const std::vector<Exercise>& available, Listed& out,
                        std::vector<Error>& errors) {
  if (!list.IsSequence() || list.size() == 0 || static_cast<int64_t>(list.size()) > kMaxExercises) {
    rd.error(list, "exercises", rd.id("type"), "must be a list of 1 to 256 exercises");
    return;
  }
  out.from_files.reserve(kMaxExercises);  // no reallocation: `picked` points into it
  std::vector<std::string> ids;
  for (const auto& e : available) ids.push_back(e.id);
  std::map<std::string, int> seen;
  for (size_t i = 0; i < list.size(); ++i) {
    const YAML::Node n = list[i];
    const std::string p = "exercises[" + std::to_string(i) + "]";
    std::optional<double> points;
    const Exercise* ex = nullptr;
    // yaml-cpp's operator= on a Node assigns content; reset() rebinds it.
    std::optional<YAML::Node> id_node, file_node;
    if (n.IsScalar()) {
      id_node.emplace().reset(n);
    } else if (rd.check_keys(n, p, {"id", "file", "points"})) {
      if (n["id"] && n["file"]) rd.error(n, p, rd.id("value"), "give id or file, not both");
      // `idd:` is reported as the typo it is, not as a missing id.
      if (!n["id"] && !n["file"] && !rd.misspelt(p, "id") && !rd.misspelt(p, "file"))
        rd.error(n, p, rd.id("missing_key"), "needs id or file");
      if (n["id"]) id_node.emplace().reset(n["id"]);
      if (n["file"]) file_node.emplace().reset(n["file"]);
      if (n["points"]) points = entry_points(rd, n["points"], p);
    } else {
      continue;
    }
    if (id_node) {
      const auto id = rd.string(*id_node, p);
      if (!id) continue;
      const auto it = std::find_if(available.begin(), available.end(),
                                   [&](const Exercise& e) { return e.id == *id; });
      if (it == available.end()) {
        const std::string guess = did_you_mean(*id, ids);
        rd.error(*id_node, p, rd.id("unknown_exercise"),
                 "no exercise '" + *id + "' among those loaded" +
                     (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)"));
        continue;
      }
      ex = &*it;
    } else if (file_node) {
      const auto f = rd.string(*file_node, p + ".file");
      if (!f) continue;
      ExerciseLoad l =
          load_exercise_file(fs::path(*f).is_absolute() ? fs::path(*f) : file.parent_path() / *f);
      for (const auto& e : l.errors) errors.push_back(e);
      if (!l.exercise) continue;
      out.from_files.push_back(std::move(*l.exercise));
      ex = &out.from_files.back();
      out.file_entries[ex] = *f;
    }
    if (ex == nullptr) continue;
    if (!seen.emplace(ex->id, int(i)).second) {
      rd.error(n, p, rd.id("duplicate_id"), "exercise '" + ex->id + "' is listed twice");
      continue;
    }
    out.picked.emplace_back(ex, points);
  }
}

// `requires:` and `trainable:`: by default everything the exercises need, so every check counts.
void read_requirements(YamlReader& rd, const YAML::Node& root, const Listed& listed,
                       Assignment& a) {
  std::vector<const Exercise*> exercises;
  for (const auto& [ex, pts] : listed.picked) exercises.push_back(ex);
  const CheckNeeds all = everything_needed(exercises, Scalar::kF64);
  a.requires_capabilities = all.capabilities;
  a.trainable = all.backward;
  if (root["requires"]) {
    a.requires_capabilities = capability_list(rd, root["requires"], "requires");
    // Checks are graded in f64 unless the assignment asks for f32 alone.
    if (!(a.requires_capabilities & AWB_CAP_F64) && (a.requires_capabilities & AWB_CAP_F32))
      a.scalar = Scalar::kF32;
  }
  if (root["trainable"])
    if (auto b = rd.boolean(root["trainable"], "trainable")) a.trainable = *b;
  if (!(a.requires_capabilities & (AWB_CAP_F64 | AWB_CAP_F32)) && root["requires"])
    rd.error(root["requires"], "requires", rd.id("value"),
             "must name a scalar type (f64 or f32): checks are graded in one");
}

// `due:` and `late:`.
void read_deadline(YamlReader& rd, const YAML::Node& root, Assignment& a) {
  if (root["due"]) {
    if (auto s = rd.string(root["due"], "due")) {
      a.due = parse_utc_time(*s);
      if (!a.due)
        rd.error(root["due"], "due", rd.id("value"),
                 "'" + *s + "' is not a UTC time like 2026-12-15T23:59:00Z (or 2026-12-15)");
    }
  }
  const auto l = root["late"];
  if (!l) return;
  if (l.IsScalar()) {
    rd.word(l, "late", {"none"});
  } else if (rd.check_keys(l, "late", {"percent_per_day", "max_days"})) {
    if (auto v = rd.require(l, "late", "percent_per_day"))
      if (auto n = rd.number(*v, "late.percent_per_day")) {
        if (*n > 0 && *n <= 100)
          a.late.percent_per_day = *n;
        else
          rd.error(*v, "late.percent_per_day", rd.id("value"), "must be in (0, 100]");
      }
    if (auto v = rd.require(l, "late", "max_days"))
      if (auto n = rd.integer(*v, "late.max_days", 0, 365)) a.late.max_days = int(*n);
  }
  if (!a.late.none() && !a.due) rd.error(l, "late", rd.id("value"), "a late policy needs due");
}

AssignmentLoad load_assignment_text(YamlReader& rd, const fs::path& file, const std::string& text,
                                    const std::vector<Exercise>& available) {
  AssignmentLoad out;
  auto finish = [&](std::optional<Assignment> a) {
    out.errors.insert(out.errors.end(), rd.errors().begin(), rd.errors().end());
    if (out.errors.empty()) out.assignment = std::move(a);
    return std::move(out);
  };
  const auto root_opt = rd.parse(text);
  if (!root_opt) return finish(std::nullopt);
  const YAML::Node root = *root_opt;
  if (!rd.check_keys(root, "", kTopKeys)) return finish(std::nullopt);

  Assignment a;
  a.file = file;
  a.sha256 = sha256_hex(text);
  if (auto v = rd.require(root, "", "awb-assignment"))
    rd.integer(*v, "awb-assignment", 1, 1);  // format version 1 is the only one
  if (auto v = rd.require(root, "", "id"))
    if (auto s = rd.string(*v, "id")) a.id = *s;
  if (auto v = rd.require(root, "", "title"))
    if (auto s = rd.string(*v, "title")) a.title = *s;
  if (const auto v = root["variant"]; v && rd.check_keys(v, "variant", {"id", "capabilities"})) {
    if (v["id"] && v["capabilities"])
      rd.error(v, "variant", rd.id("value"), "give either id or capabilities, not both");
    if (v["id"])
      if (auto s = rd.string(v["id"], "variant.id")) a.variant_id = *s;
    if (v["capabilities"])
      a.variant_capabilities = capability_list(rd, v["capabilities"], "variant.capabilities");
  }
  Listed listed;
  if (auto list = rd.require(root, "", "exercises"))
    read_exercise_list(rd, *list, file, available, listed, out.errors);
  read_requirements(rd, root, listed, a);
  read_deadline(rd, root, a);
  if (root["leaderboard"]) {
    if (auto list = rd.strings(root["leaderboard"], "leaderboard", 8))
      for (size_t i = 0; i < list->size(); ++i)
        if (auto w = rd.word(root["leaderboard"][i], "leaderboard[" + std::to_string(i) + "]",
                             kLeaderboardColumns))
          a.leaderboard.push_back(*w);
  }

  for (const auto& [ex, pts] : listed.picked) {
    a.exercises.push_back(assign(*ex, a, pts));
    if (const auto it = listed.file_entries.find(ex); it != listed.file_entries.end())
      a.exercises.back().file_entry = it->second;
    if (a.exercises.back().exercise.checks.empty())
      rd.error(root["exercises"], "exercises", rd.id("value"),
               "the assignment requires none of the checks of '" + ex->id +
                   "' (its requirements leave every check out)");
  }
  if (a.max_points() > kMaxPoints)
    rd.error(root["exercises"], "exercises", rd.id("value"),
             "the exercises' points add up to " + grade::format_points(a.max_points()) +
                 "; at most " + grade::format_points(kMaxPoints) + " are allowed");
  return finish(std::move(a));
}

}  // namespace

AssignmentLoad load_assignment(const fs::path& file, const std::vector<Exercise>& available) {
  AssignmentLoad out;
  const auto text = read_yaml_file(file, "assignment", out.errors);
  if (!text) return out;
  return parse_guarded<AssignmentLoad>(file.string(), "assignment", [&](YamlReader& rd) {
    return load_assignment_text(rd, file, *text, available);
  });
}

GradeOptions under_assignment(const Assignment& assignment, const VariantDesc* variant,
                              GradeOptions options) {
  options.every_check_counts = true;
  options.scalar = assignment.scalar;
  if (variant != nullptr) options.subject_capabilities = variant->capabilities;
  return options;
}

std::filesystem::path bundled_assignment_dir() {
  return shipped_path(AWB_SOURCE_EXERCISE_DIR "/assignments", "share/awb/exercises/assignments");
}

std::filesystem::path find_assignment(const std::string& spec) {
  std::error_code ec;
  if (fs::exists(spec, ec)) return spec;
  const auto bundled = bundled_assignment_dir() / (spec + ".yaml");
  if (fs::exists(bundled, ec)) return bundled;
  throw Error("assignment.not_found", spec,
              "no such file, and no bundled assignment of that name (see " +
                  bundled_assignment_dir().string() + ")");
}

}  // namespace awb::core
