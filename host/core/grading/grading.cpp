// grading.cpp: groups checks by (case, parameters) so each group runs the subject once.
#include "core/grading/grading.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <memory>

#include "core/base/sha256.hpp"
#include "core/base/version.hpp"
#include "core/grading/assignment.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/reference_forward.hpp"
#include "core/plugins/subjects.hpp"

namespace awb::core {
namespace {

std::string group_key(const grade::CheckSpec& c) {
  const auto& o = c.parameters;
  std::string key = std::to_string(c.case_index) + "|";
  key += o.sharpness ? std::to_string(*o.sharpness) : "-";
  key += "|" + (o.heads ? std::to_string(*o.heads) : std::string("-"));
  key += "|" + (o.causal ? std::to_string(*o.causal) : std::string("-"));
  key += "|" + (o.scale ? std::to_string(static_cast<int>(*o.scale)) : std::string("-"));
  key += "|" + (o.kv_heads ? std::to_string(*o.kv_heads) : std::string("-"));
  return key;
}

// A check the assignment requires that the subject could not run: a failure worth 0 of its
// points, saying what the variant lacks (or why it could not run).
void fail_required(grade::CheckResult& r, const Exercise& exercise, const grade::CheckSpec& check,
                   const GradeOptions& options) {
  const CheckNeeds needs = check_needs(exercise, check, options.scalar);
  const uint64_t missing = needs.capabilities & ~options.subject_capabilities;
  std::string why;
  if (missing != 0)
    why = "the assignment requires " + describe_capabilities(missing) +
          "; your variant does not declare " +
          (capability_names(missing).size() > 1 ? "them" : "it");
  else
    why = "the assignment requires this check, and it could not run: " +
          (r.summary.rfind("cannot run: ", 0) == 0 ? r.summary.substr(12) : r.summary);
  r.status = grade::Status::kFailed;
  r.points = 0;
  r.max_points = check.points;
  r.summary = why;
  r.details.clear();
  r.diagnosis.clear();
  r.hint.clear();  // the check's hint is about its maths, which never ran
}

}  // namespace

grade::ExerciseReport grade_exercise(const Exercise& exercise, Subject& subject,
                                     const GradeOptions& options) {
  ReferenceSubject reference(exercise.reference_capabilities);
  std::map<std::string, std::unique_ptr<grade::CheckContext>> contexts;
  grade::ExerciseReport out;
  out.exercise_id = exercise.id;
  out.title = exercise.title;
  out.provenance.exercise_sha256 = exercise.sha256;
  for (const auto& check : exercise.checks) {
    auto& ctx = contexts[group_key(check)];
    if (!ctx)
      ctx = std::make_unique<grade::CheckContext>(subject, reference, exercise.input_for(check),
                                                  options.scalar, options.strictness);
    grade::CheckResult r = grade::evaluate(check, *ctx);
    if (options.every_check_counts && r.status == grade::Status::kNotRun)
      fail_required(r, exercise, check, options);
    if (r.status != grade::Status::kNotRun) out.max_score += r.max_points;
    out.score += r.points;
    out.checks.push_back(std::move(r));
  }
  return out;
}

grade::ExerciseReport not_gradable_report(const Exercise& exercise, const std::string& reason) {
  grade::ExerciseReport r;
  r.exercise_id = exercise.id;
  r.title = exercise.title;
  r.not_gradable = reason;
  r.max_score = exercise.max_points();
  return r;
}

SessionOptions session_options_for(const std::vector<const Exercise*>& exercises,
                                   const GradeOptions& options) {
  SessionOptions so = options.session;
  int64_t memory = 0;
  for (const Exercise* ex : exercises) memory = std::max(memory, ex->limits.memory_mb);
  if (memory > 0) so.runner.limits.memory_mb = memory;
  if (options.limits.memory_mb) so.runner.limits.memory_mb = *options.limits.memory_mb;
  if (!exercises.empty()) {
    so.runner.limits.cpu_seconds =
        options.limits.cpu_seconds.value_or(exercises[0]->limits.cpu_seconds);
    so.runner.limits.wall_seconds =
        options.limits.wall_seconds.value_or(exercises[0]->limits.wall_seconds);
  }
  return so;
}

void apply_exercise_limits(VariantSession& session, const Exercise& exercise,
                           const GradeOptions& options) {
  session.set_limits(options.limits.cpu_seconds.value_or(exercise.limits.cpu_seconds),
                     options.limits.wall_seconds.value_or(exercise.limits.wall_seconds));
}

void void_report(grade::ExerciseReport& report, const std::string& reason) {
  report.score = 0;
  for (auto& c : report.checks) {
    if (c.status == grade::Status::kNotRun) continue;
    c.status = grade::Status::kError;
    c.points = 0;
    c.summary = reason;
    c.details.clear();
    c.diagnosis.clear();
  }
}

std::optional<std::string> not_for_variant(const Exercise& exercise, const VariantDesc& variant,
                                           Scalar scalar) {
  const Family theirs = declared_family(variant.params);
  const Family ours = family_of(exercise.kind);
  if (ours != theirs) {
    if (ours == Family::kSoftmax)
      return std::string("a softmax exercise; the variant computes ") + to_string(theirs) +
             " attention (it declares " + to_string(theirs) + "'s parameters)";
    std::string names;
    for (const auto& d : reference_params(ours).decls)
      names += (names.empty() ? "'" : ", '") + d.name + "'";
    return std::string("a ") + to_string(ours) + " exercise; the variant does not declare its " +
           "parameter " + names;
  }
  return fit_reason(exercise.input_for(grade::CheckSpec{}), variant.capabilities, scalar);
}

grade::GradeReport grade_variant(const VariantRef& variant,
                                 const std::vector<const Exercise*>& exercises,
                                 const GradeOptions& options) {
  const auto start = std::chrono::steady_clock::now();
  grade::GradeReport report;
  report.subject = variant.plugin->id + ":" + variant.variant->id;
  report.plugin_path = variant.plugin->path.string();
  std::string plugin_sha;
  std::unique_ptr<VariantSubject> subject;
  std::string failure;
  try {
    if (options.hash_plugin) plugin_sha = sha256_file(variant.plugin->path);
    subject = std::make_unique<VariantSubject>(variant, session_options_for(exercises, options));
  } catch (const Error& e) {
    failure = e.what();
  }
  const std::string level =
      subject ? runner::to_string(subject->session().isolation()) : "not started";
  for (const Exercise* ex : exercises) {
    if (subject) apply_exercise_limits(subject->session(), *ex, options);
    grade::ExerciseReport r =
        subject ? grade_exercise(*ex, *subject, options) : not_gradable_report(*ex, failure);
    r.provenance = {AWB_VERSION, ex->sha256, plugin_sha, level, ""};
    report.exercises.push_back(std::move(r));
  }
  if (subject) {
    try {
      subject->session().finish();
    } catch (const Error& e) {
      for (auto& r : report.exercises) void_report(r, e.message());
    }
  }
  report.execution_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return report;
}

}  // namespace awb::core
