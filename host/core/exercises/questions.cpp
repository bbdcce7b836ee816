// questions.cpp: answers derived from a run (the strict argmax of the weights a question reads),
// and the verdict on an answer.
#include "core/exercises/questions.hpp"

#include <stdexcept>

#include "core/plugins/subjects.hpp"

namespace awb::core {

QuestionTruth question_truth(const Question& question, const RunOutput& run) {
  const auto& heads = run.layers.at(static_cast<size_t>(question.layer)).result.weights;
  QuestionTruth truth;
  if (question.kind == QuestionKind::kToken) {
    const Matrix& a = heads.at(static_cast<size_t>(question.head));
    if (question.query >= a.rows) throw std::out_of_range("question query outside the run");
    for (int64_t key = 0; key < a.cols; ++key) truth.weights.push_back(a(question.query, key));
  } else {
    for (const Matrix& a : heads) {
      if (question.query >= a.rows || question.key >= a.cols)
        throw std::out_of_range("question query or key outside the run");
      truth.weights.push_back(a(question.query, question.key));
    }
  }
  // Strictly largest, as the argmax_is predicate: on a tie no pick can be called right.
  for (size_t i = 0; i < truth.weights.size(); ++i) {
    bool largest = true;
    for (size_t j = 0; j < truth.weights.size() && largest; ++j)
      largest = j == i || truth.weights[i] > truth.weights[j];
    if (largest) truth.answer = static_cast<int>(i);
  }
  return truth;
}

RunInput question_input(const Exercise& exercise, const Question& question) {
  const ExerciseCase& c = exercise.cases.at(static_cast<size_t>(question.case_index));
  return {c.tokens, c.x, exercise.layers, exercise.parameters};
}

QuestionTruth reference_truth(const Exercise& exercise, const Question& question) {
  ReferenceSubject reference(exercise.reference_capabilities);
  return question_truth(question, reference.run(question_input(exercise, question), Scalar::kF64));
}

Verdict judge(const QuestionTruth& truth, int picked) {
  Verdict v;
  v.picked = picked;
  v.answer = truth.answer;
  const auto weight = [&](int i) {
    return i >= 0 && i < static_cast<int>(truth.weights.size()) ? truth.weights[size_t(i)] : 0.0;
  };
  v.picked_weight = weight(picked);
  v.answer_weight = weight(truth.answer);
  v.right = truth.answer >= 0 && picked == truth.answer;
  return v;
}

std::string answer_name(const Exercise& exercise, const Question& question, int i) {
  if (question.kind == QuestionKind::kHead) return "head " + std::to_string(i);
  const auto& tokens = exercise.cases.at(static_cast<size_t>(question.case_index)).tokens;
  return i >= 0 && i < static_cast<int>(tokens.size()) ? tokens[size_t(i)] : std::to_string(i);
}

}  // namespace awb::core
