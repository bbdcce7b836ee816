// questions.hpp: the answers to an exercise's questions, derived from the reference's run, and
// the verdict on a student's answer. The explore view asks and shows; the judging is here.
#ifndef AWB_CORE_EXERCISES_QUESTIONS_HPP_
#define AWB_CORE_EXERCISES_QUESTIONS_HPP_

#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"

namespace awb::core {

// What a question is judged on: one weight per possible answer, read from a run of its case.
// A token question: A[query, ·] of its layer and head (one per key). A head question:
// A_h[query, key] of its layer for each head h. The answer is the strict argmax.
struct QuestionTruth {
  std::vector<double> weights;
  int answer = -1;  // -1: no single largest weight (a tie), so the question has no answer
};

// The truth in `run`, a run of the question's case (as question_input gives it). Throws
// std::out_of_range when the run lacks the question's layer, head or tokens.
QuestionTruth question_truth(const Question& question, const RunOutput& run);
// What the reference runs for `question`: its case, with the exercise's parameters.
RunInput question_input(const Exercise& exercise, const Question& question);
// The reference's truth: question_input run through the exercise's reference kernels.
QuestionTruth reference_truth(const Exercise& exercise, const Question& question);

struct Verdict {
  bool right = false;
  int picked = -1, answer = -1;  // a key index (token questions) or a head
  double picked_weight = 0, answer_weight = 0;
};
// `picked` against `truth`. Right only when it is the single answer; on a tie nothing is right.
Verdict judge(const QuestionTruth& truth, int picked);

// The name of answer `i` of `question`: the token's text, or "head i".
std::string answer_name(const Exercise& exercise, const Question& question, int i);

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_QUESTIONS_HPP_
