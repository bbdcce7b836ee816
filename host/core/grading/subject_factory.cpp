// subject_factory.cpp: variant → Subject, and exercise case → run input.
#include "core/grading/subject_factory.hpp"

#include "core/base/did_you_mean.hpp"
#include "core/plugins/subjects.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

std::unique_ptr<Subject> make_subject(const VariantRef& variant, const SessionOptions& options) {
  return std::make_unique<VariantSubject>(variant, options);
}

RunOutput WarmVariants::run(const VariantRef& variant, const RunInput& input, Scalar scalar) {
  std::shared_ptr<Entry> entry;
  {
    std::lock_guard lock(mutex_);
    auto& e = entries_[variant.plugin->path.string() + ":" + variant.variant->id];
    if (!e) e = std::make_shared<Entry>();
    entry = e;
  }
  std::lock_guard lock(entry->mutex);
  try {
    if (!entry->subject) entry->subject = make_subject(variant, options_);
    return entry->subject->run(input, scalar);
  } catch (...) {
    entry->subject.reset();
    throw;
  }
}

void WarmVariants::clear() {
  std::lock_guard lock(mutex_);
  entries_.clear();  // runs in flight keep their entry alive until they finish
}

const Exercise& find_exercise(const ExerciseSet& set, const std::string& id) {
  for (const auto& ex : set.exercises)
    if (ex.id == id) return ex;
  throw unknown_exercise(set, id);
}

RunInput case_input(const Exercise& exercise, const std::string& case_id) {
  for (const auto& c : exercise.cases)
    if (case_id.empty() || c.id == case_id)
      return RunInput{c.tokens, c.x, exercise.layers, exercise.parameters};
  std::vector<std::string> ids;
  for (const auto& c : exercise.cases) ids.push_back(c.id);
  std::string list;
  for (const auto& id : ids) list += (list.empty() ? "" : ", ") + id;
  throw Error("exercise.case_not_found", exercise.file.string(),
              "exercise '" + exercise.id + "' has no case '" + case_id + "'" +
                  did_you_mean_note(case_id, ids) + "; its cases: " + list);
}

}  // namespace awb::core
