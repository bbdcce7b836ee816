// questions.tests.cpp: an exercise's questions: the loader reads them and rejects those that
// point outside the exercise at file:line:column; each bundled question has one answer under the
// reference, the one its lesson gives; a pick is judged against the reference's answer.
#include "core/exercises/questions.hpp"

#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_export.hpp"

using namespace awb;

namespace {

const char* const kTwoCases = R"(awb-exercise: 1
id: pets
title: Pets
variant: {kind: parameter-free}
embeddings:
  vocabulary: {the: [1.0, 0.0], cat: [0.0, 1.0], dog: [0.5, 0.5]}
cases:
  - {id: cat, tokens: [the, cat]}
  - {id: dog, tokens: [the, dog]}
checks:
  - {id: rows, kind: property, property: rows_sum_to_one}
questions:
  - id: which
    ask: "Which word does \"dog\" attend to most?"
    answer: token
    case: dog
    query: dog
    explain: "Itself."
)";

std::string with_question(const std::string& question) {
  const std::string base(kTwoCases);
  return base.substr(0, base.find("questions:")) + "questions:\n" + question;
}

std::vector<std::string> messages(const core::ExerciseLoad& load) {
  std::vector<std::string> out;
  for (const auto& e : load.errors) out.push_back(e.what());
  return out;
}

bool has(const core::ExerciseLoad& load, const std::string& text) {
  for (const auto& m : messages(load))
    if (m.find(text) != std::string::npos) return true;
  return false;
}

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST_CASE("questions: the loader reads where a question points", "[exercise][questions]") {
  const auto load = core::parse_exercise(kTwoCases, "pets.yaml");
  for (const auto& m : messages(load)) INFO(m);
  REQUIRE(load.exercise);
  REQUIRE(load.exercise->questions.size() == 1);
  const core::Question& q = load.exercise->questions[0];
  CHECK(q.id == "which");
  CHECK(q.kind == core::QuestionKind::kToken);
  CHECK(q.case_index == 1);
  CHECK(q.layer == 0);  // the last of one
  CHECK(q.query == 1);
  CHECK(q.key == -1);
  CHECK(q.explain == "Itself.");
}

TEST_CASE("questions: a question outside the exercise is an error at its file:line:column",
          "[exercise][questions]") {
  SECTION("an unknown case, with a did-you-mean") {
    const auto load = core::parse_exercise(
        with_question("  - {id: q, ask: Aa, answer: token, case: dgo, query: the}\n"), "pets.yaml");
    CHECK_FALSE(load.exercise);
    CHECK(has(load,
              "[exercise.unknown_case] pets.yaml:13:43: questions[0].case: no case 'dgo' (did "
              "you mean 'dog'?)"));
  }
  SECTION("a query out of range") {
    const auto load = core::parse_exercise(
        with_question("  - {id: q, ask: Aa, answer: token, query: 2}\n"), "pets.yaml");
    CHECK(has(load,
              "[exercise.unknown_token] pets.yaml:13:44: questions[0].query: index 2 is "
              "outside the 2 tokens of case 'cat'"));
  }
  SECTION("a layer the exercise does not have") {
    const auto load = core::parse_exercise(
        with_question("  - {id: q, ask: Aa, answer: token, layer: 1, query: the}\n"), "pets.yaml");
    CHECK(has(load, "[exercise.value] pets.yaml:13:44: questions[0].layer"));
  }
  SECTION("a word that is no kind of answer") {
    const auto load = core::parse_exercise(
        with_question("  - {id: q, ask: Aa, answer: tokens, query: the}\n"), "pets.yaml");
    CHECK(has(load,
              "[exercise.value] pets.yaml:13:30: questions[0].answer: 'tokens' is not one of: "
              "token, head (did you mean 'token'?)"));
  }
  SECTION("a head question on one head") {
    const auto load = core::parse_exercise(
        with_question("  - {id: q, ask: Aa, answer: head, query: the, key: the}\n"), "pets.yaml");
    CHECK(has(load,
              "[exercise.value] pets.yaml:13:30: questions[0].answer: a head question "
              "needs more than one head"));
  }
  SECTION("a repeated id, and a missing query") {
    const auto load =
        core::parse_exercise(with_question("  - {id: q, ask: Aa, answer: token, query: the}\n"
                                           "  - {id: q, ask: Bb, answer: token}\n"),
                             "pets.yaml");
    CHECK(has(load,
              "[exercise.duplicate_id] pets.yaml:14:10: questions[1].id: question id 'q' "
              "appears twice"));
    CHECK(has(load, "[exercise.missing_key] pets.yaml:14:5: questions[1]"));
  }
}

TEST_CASE("questions: a pick is right only when it is the reference's single answer",
          "[exercise][questions]") {
  core::QuestionTruth truth{{0.2, 0.5, 0.3}, 1};
  const core::Verdict right = core::judge(truth, 1);
  CHECK(right.right);
  CHECK(right.answer_weight == 0.5);
  const core::Verdict wrong = core::judge(truth, 2);
  CHECK_FALSE(wrong.right);
  CHECK(wrong.answer == 1);
  CHECK(wrong.picked_weight == 0.3);

  // The truth is the strict argmax of the weights the question reads; a tie has no answer.
  core::Question q;
  q.query = 0;
  RunOutput run;
  run.layers.resize(1);
  Matrix a(1, 3);
  a.data = {0.4, 0.4, 0.2};
  run.layers[0].result.weights = {a};
  const core::QuestionTruth tie = core::question_truth(q, run);
  CHECK(tie.answer == -1);
  CHECK_FALSE(core::judge(tie, 0).right);
  run.layers[0].result.weights[0].data = {0.2, 0.5, 0.3};
  CHECK(core::question_truth(q, run).answer == 1);
  // A head question compares A_h[query, key] across the heads.
  Matrix b(1, 3);
  b.data = {0.1, 0.1, 0.8};
  run.layers[0].result.weights.push_back(b);
  q.kind = core::QuestionKind::kHead;
  q.key = 2;
  const core::QuestionTruth heads = core::question_truth(q, run);
  CHECK(heads.weights == std::vector<double>{0.3, 0.8});
  CHECK(heads.answer == 1);
}

TEST_CASE("questions: every bundled question's answer under the reference is its lesson's",
          "[exercise][questions]") {
  // The answers the lessons' explanations give. A new bundled question is added here too.
  const std::map<std::string, std::string> lessons = {
      {"journey/journey-attends-to", "journey"}, {"journey/starts-attends-to", "journey"},
      {"animal-road/it-layer0", "tired"},        {"animal-road/it-tired", "animal"},
      {"animal-road/it-wide", "road"},           {"multi-head/head-looks-back", "head 0"},
      {"multi-head/head-finds-noun", "head 1"},
  };
  const auto set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  REQUIRE(set.errors.empty());
  size_t asked = 0;
  for (const auto& ex : set.exercises)
    for (const auto& q : ex.questions) {
      const std::string name = ex.id + "/" + q.id;
      INFO(name);
      const auto it = lessons.find(name);
      REQUIRE(it != lessons.end());
      const core::QuestionTruth truth = core::reference_truth(ex, q);
      REQUIRE(truth.answer >= 0);
      CHECK(core::answer_name(ex, q, truth.answer) == it->second);
      CHECK(core::judge(truth, truth.answer).right);
      ++asked;
    }
  CHECK(asked == lessons.size());
}

TEST_CASE("questions: the student copy keeps them", "[exercise][questions][export]") {
  const std::string path = std::string(AWB_TEST_EXERCISE_DIR) + "/animal-road.yaml";
  const std::string copy = core::student_copy(read_text(path), path, false);
  const auto load = core::parse_exercise(copy, "student/animal-road.yaml");
  REQUIRE(load.exercise);
  CHECK(load.exercise->questions.size() == 3);
}
