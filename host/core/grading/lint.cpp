// lint.cpp: reference self-check and the mutant × kind discrimination matrix over an exercise set.
#include "core/grading/lint.hpp"

#include <algorithm>
#include <iterator>
#include <set>

#include "core/base/install_paths.hpp"
#include "core/grading/grading.hpp"
#include "core/plugins/subjects.hpp"

namespace awb::core {
namespace {

constexpr std::string_view kMutantIdPrefix = "org.awb.mutant.";

// The column of a variant id, or -1 for a kind the matrix does not know.
int kind_column(const std::string& variant_id) {
  for (int k = 0; k < mutants::kKindCount; ++k)
    if (mutants::kKindIds[k] == variant_id) return k;
  return -1;
}

// The first check that cost the subject points (failed, errored or timed out), preferring one
// with a diagnosis: what lint shows as the student's first clue.
const grade::CheckResult* first_loss(const grade::ExerciseReport& ex) {
  const grade::CheckResult* first = nullptr;
  for (const auto& c : ex.checks) {
    if (c.status == grade::Status::kPassed || c.status == grade::Status::kNotRun) continue;
    if (!c.diagnosis.empty()) return &c;
    if (!first) first = &c;
  }
  return first;
}

// The table position of a mutant (unknown names last), so the matrix reads in enum order.
size_t table_order(const std::string& name) {
  for (size_t i = 0; i < std::size(mutants::kMistakes); ++i)
    if (mutants::kMistakes[i].name == name) return i;
  return std::size(mutants::kMistakes);
}

}  // namespace

grade::ExerciseReport reference_self_check(const Exercise& exercise) {
  ReferenceSubject reference(exercise.reference_capabilities);
  return grade_exercise(exercise, reference);
}

std::filesystem::path bundled_mutant_dir() {
  return shipped_path(AWB_BUILD_TREE_MUTANT_DIR, "lib/awb/mutants");
}

int Discrimination::count(CellState state) const {
  int n = 0;
  for (const auto& m : mutants)
    for (const auto& cell : m.cells) n += cell.state == state;
  return n;
}

int Discrimination::escapes() const {
  return count(CellState::kNotCaught) + count(CellState::kNotCovered);
}

Discrimination discrimination_check(const std::vector<Exercise>& exercises,
                                    const std::filesystem::path& mutant_dir) {
  Discrimination out;
  std::set<std::string> caught_somewhere;
  LoadPolicy shipped;
  shipped.trusted_dirs = {mutant_dir};  // the mutants ship with awb
  const Catalog cat = load_catalog({mutant_dir}, shipped);
  for (const auto& f : cat.failures) {
    MutantOutcome m;
    m.mutant = f.path.stem().string();
    m.load_error = f.message + " " + f.system_error;
    out.mutants.push_back(std::move(m));
  }
  std::vector<const Exercise*> all;
  for (const auto& e : exercises) all.push_back(&e);
  for (const auto& plugin : cat.plugins) {
    MutantOutcome m;
    const bool named = plugin.id.rfind(kMutantIdPrefix, 0) == 0;
    m.mutant = named ? plugin.id.substr(kMutantIdPrefix.size()) : plugin.path.stem().string();
    const mutants::MistakeInfo* mistake = mutants::find_mistake(m.mutant);
    for (const auto& variant : plugin.variants) {
      const int k = kind_column(variant.id);
      if (k < 0) continue;
      LintCell& cell = m.cells[size_t(k)];
      bool covered = false;
      GradeOptions options;
      options.hash_plugin = false;
      const grade::GradeReport report = grade_variant({&plugin, &variant}, all, options);
      for (const auto& ex : report.exercises) {
        covered = covered || ex.max_score > 0;
        if (ex.score >= ex.max_score) continue;
        caught_somewhere.insert(ex.exercise_id);
        cell.exercises.push_back(ex.exercise_id);
        if (const grade::CheckResult* c = first_loss(ex))
          m.caught_by.push_back({variant.id, ex.exercise_id, c->id, c->summary, c->diagnosis});
      }
      cell.state = !cell.exercises.empty() ? CellState::kCaught
                   : covered               ? CellState::kNotCaught
                                           : CellState::kNotCovered;
    }
    // A mistake the table does not know is held to every kind.
    for (int k = 0; k < mutants::kKindCount; ++k)
      if (mistake && !(mistake->kinds & (1u << k)))
        m.cells[size_t(k)] = {CellState::kNotApplicable, {}};
    // The examples shown come from kinds the mistake applies to.
    std::stable_partition(m.caught_by.begin(), m.caught_by.end(), [&](const auto& c) {
      const int k = kind_column(c.kind);
      return k >= 0 && m.cells[size_t(k)].state != CellState::kNotApplicable;
    });
    out.mutants.push_back(std::move(m));
  }
  std::stable_sort(out.mutants.begin(), out.mutants.end(), [](const auto& a, const auto& b) {
    return table_order(a.mutant) < table_order(b.mutant);
  });
  for (const auto& e : exercises)
    if (!caught_somewhere.count(e.id)) out.uncatchable_exercises.push_back(e.id);
  return out;
}

}  // namespace awb::core
