// exercise.hpp: an exercise as the host models it, and loading exercise files (format v1,
// exercises/FORMAT.md) with every problem reported at file:line:column.
#ifndef AWB_CORE_EXERCISES_EXERCISE_HPP_
#define AWB_CORE_EXERCISES_EXERCISE_HPP_

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "core/exercises/seeded.hpp"
#include "core/runner_client/runner_limits.hpp"
#include "graders/checks/check.hpp"
#include "graders/model/error.hpp"
#include "graders/model/names.hpp"
#include "graders/model/run.hpp"
#include "graders/model/variant_kinds.hpp"

namespace awb::core {

// An exercise's limits on one plugin run. What its file does not set is the runner's default.
struct Limits {
  double cpu_seconds = RunnerLimits{}.cpu_seconds;
  double wall_seconds = RunnerLimits{}.wall_seconds;
  int64_t memory_mb = RunnerLimits{}.memory_mb;
};

struct ExerciseCase {
  std::string id;
  std::vector<std::string> tokens;
  Matrix x;  // embeddings + positions, transformed: what layer 0 receives
};

// The `train:` section: what to learn, from where, with which optimiser, towards which goal.
enum class Optimizer { kSgd, kAdam };
inline constexpr std::array<EnumName<Optimizer>, 2> kOptimizerNames{{
    {Optimizer::kSgd, "sgd"},
    {Optimizer::kAdam, "adam"},
}};
static_assert(names_every_value(kOptimizerNames));
constexpr const auto& enum_names(Optimizer) { return kOptimizerNames; }
constexpr const char* to_string(Optimizer o) { return name_in(kOptimizerNames, o); }

// One row of the attention objective: in case `case_index`, layer `layer` (-1: last), head
// `head`, query row `query` should put its weight on key `key` (its term −log A[query, key],
// cross-entropy against a one-hot row), or with `avoid` keep its weight off it (−log(1 − A),
// the cross-entropy of "attends to key" against 0). The loss is the mean of the terms.
struct TrainTarget {
  int case_index = 0;
  int layer = -1;
  int head = 0;
  int query = 0;
  int key = 0;
  bool avoid = false;
};

struct TrainSpec {
  std::vector<std::string> learn;  // among w_q, w_k, w_v, w_o; every layer that has them
  // Re-initialise the learned weights: layer l's j-th learned matrix (w_q, w_k, w_v, w_o order)
  // is drawn with seed `init.seed + 4·l + j`. Absent: start from the exercise's own weights.
  std::optional<SeededSpec> init;
  Optimizer optimizer = Optimizer::kAdam;
  double learning_rate = 0.01;
  double momentum = 0;                                // SGD
  double beta1 = 0.9, beta2 = 0.999, epsilon = 1e-8;  // Adam
  int steps = 100;
  int log_every = 10;
  std::vector<TrainTarget> targets;
  std::optional<double> loss_below;              // success: final loss under this
  std::vector<grade::CheckSpec> success_checks;  // success: each passes with the learned weights
};

// A question a lesson asks the student before showing the weights (FORMAT.md, "Questions").
// The right answer is never written in the file: it is what the reference does
// (core/exercises/questions.hpp derives it), so it cannot disagree with the weights.
enum class QuestionKind {
  kToken,  // which key does `query` attend to most (layer, head)?
  kHead,   // which head puts the most weight on `key` from `query` (layer)?
};
inline constexpr std::array<EnumName<QuestionKind>, 2> kQuestionKindNames{{
    {QuestionKind::kToken, "token"},
    {QuestionKind::kHead, "head"},
}};
static_assert(names_every_value(kQuestionKindNames));
constexpr const auto& enum_names(QuestionKind) { return kQuestionKindNames; }
constexpr const char* to_string(QuestionKind k) { return name_in(kQuestionKindNames, k); }

struct Question {
  std::string id, ask, explain;
  QuestionKind kind = QuestionKind::kToken;
  int case_index = 0;
  int layer = 0;  // resolved at load: a file that leaves it out asks about the last layer
  int head = 0;   // token questions
  int query = 0;
  int key = -1;  // head questions
};

// The most points a check, an exercise (its checks together), an assignment's entry or an
// assignment may be worth (FORMAT.md): sums of them stay exact and finite, and print whole.
inline constexpr double kMaxPoints = 1e6;

struct Exercise {
  std::filesystem::path file;
  std::string sha256;  // of the file's bytes
  std::string id, title, lesson;
  // Lesson text that gives a question's answer away: shown after `lesson`, and only while no
  // question waits for its answer (FORMAT.md, "Questions").
  std::string lesson_after;
  VariantKind kind = VariantKind::kParameterFree;
  uint64_t required_capabilities = 0;   // what a variant needs to run every check
  uint64_t reference_capabilities = 0;  // the reference kernel that grades it
  std::vector<ExerciseCase> cases;
  std::vector<LayerWeights> layers;  // at least one
  Parameters parameters;
  Limits limits;
  std::vector<grade::CheckSpec> checks;
  std::optional<TrainSpec> train;
  std::vector<Question> questions;

  double max_points() const;
  // The input a check runs on: its case, with its parameter overrides applied.
  RunInput input_for(const grade::CheckSpec& check) const;
};

// One file. When `errors` is non-empty `exercise` is empty; every error of the file is listed.
struct ExerciseLoad {
  std::optional<Exercise> exercise;
  std::vector<Error> errors;
  int64_t values = 0;  // numbers and strings the file made (its share of a set's budget)
};
ExerciseLoad load_exercise_file(const std::filesystem::path& file);
ExerciseLoad parse_exercise(const std::string& text, const std::string& file_label);

// Files and folders (every *.yaml / *.yml inside, sorted, but for assignment files: a course's
// folder holds its assignments beside its exercises). Exercise ids must be unique across them;
// a repeated id is an error on the later file.
// The values the exercises of one set may make together: 2^24 (about 130 MB of numbers), so a
// set of many files is bounded as one file is (FORMAT.md, "Caps").
inline constexpr int64_t kMaxSetValues = int64_t(1) << 24;
struct ExerciseSet {
  std::vector<Exercise> exercises;
  std::vector<Error> errors;
  int files = 0;
  int64_t values = 0;
};
ExerciseSet load_exercises(const std::vector<std::filesystem::path>& locations);
// Whether `file` is an assignment rather than an exercise: a regular file whose top level has
// the key `awb-assignment` (FORMAT.md, "Assignments"). Reads lines until it knows.
bool is_assignment_file(const std::filesystem::path& file);
// The error for an exercise id the set does not have ("exercise.not_found", with the closest
// id as a did-you-mean).
Error unknown_exercise(const ExerciseSet& set, const std::string& id);

// The bundled exercises folder: <prefix>/share/awb/exercises, or the source tree's exercises/
// when running from the build tree.
std::filesystem::path bundled_exercise_dir();

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_EXERCISE_HPP_
