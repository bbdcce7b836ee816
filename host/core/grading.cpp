// grading.cpp: groups checks by (case, parameters) so each group runs the subject once.
#include "core/grading.hpp"

#include <map>
#include <memory>

#include "core/subjects.hpp"

namespace awb::core {
namespace {

std::string group_key(const grade::CheckSpec& c) {
  const auto& o = c.parameters;
  std::string key = std::to_string(c.case_index) + "|";
  key += o.sharpness ? std::to_string(*o.sharpness) : "-";
  key += "|" + (o.heads ? std::to_string(*o.heads) : std::string("-"));
  key += "|" + (o.causal ? std::to_string(*o.causal) : std::string("-"));
  key += "|" + (o.scale ? std::to_string(static_cast<int>(*o.scale)) : std::string("-"));
  return key;
}

}  // namespace

ExerciseGrade grade_exercise(const Exercise& exercise, Subject& subject,
                             const GradeOptions& options) {
  ReferenceSubject reference(exercise.reference_capabilities);
  std::map<std::string, std::unique_ptr<grade::CheckContext>> contexts;
  ExerciseGrade out;
  out.exercise_id = exercise.id;
  for (const auto& check : exercise.checks) {
    auto& ctx = contexts[group_key(check)];
    if (!ctx)
      ctx = std::make_unique<grade::CheckContext>(subject, reference, exercise.input_for(check),
                                                  options.scalar, options.strictness);
    grade::CheckResult r = grade::evaluate(check, *ctx);
    if (r.status != grade::Status::kNotRun) out.max_score += r.max_points;
    out.score += r.points;
    out.checks.push_back(std::move(r));
  }
  return out;
}

}  // namespace awb::core
