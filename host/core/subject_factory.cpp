// subject_factory.cpp: variant → Subject, and exercise case → run input.
#include "core/subject_factory.hpp"

#include "core/subjects.hpp"
#include "model/error.hpp"

namespace awb::core {

std::unique_ptr<Subject> make_subject(const VariantRef& variant) {
  return std::make_unique<InProcessSubject>(variant);
}

const Exercise& find_exercise(const ExerciseSet& set, const std::string& id) {
  for (const auto& ex : set.exercises)
    if (ex.id == id) return ex;
  throw Error("exercise.not_found", "no exercise with id '" + id + "'");
}

RunInput case_input(const Exercise& exercise, const std::string& case_id) {
  for (const auto& c : exercise.cases)
    if (case_id.empty() || c.id == case_id)
      return RunInput{c.tokens, c.x, exercise.layers, exercise.parameters};
  throw Error("exercise.unknown_case", exercise.file.string(), "no case '" + case_id + "'");
}

}  // namespace awb::core
