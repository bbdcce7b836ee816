// lint.cpp: reference self-check and mutant discrimination over a set of exercises.
#include "core/lint.hpp"

#include <set>

#include "core/grading.hpp"
#include "core/install_paths.hpp"
#include "core/subjects.hpp"

namespace awb::core {

grade::ExerciseReport reference_self_check(const Exercise& exercise) {
  ReferenceSubject reference(exercise.reference_capabilities);
  return grade_exercise(exercise, reference);
}

std::filesystem::path bundled_mutant_dir() {
  return shipped_path(AWB_BUILD_TREE_MUTANT_DIR, "lib/awb/mutants");
}

Discrimination discrimination_check(const std::vector<Exercise>& exercises,
                                    const std::filesystem::path& mutant_dir) {
  Discrimination out;
  std::set<std::string> caught_somewhere;
  LoadPolicy shipped;
  shipped.trusted_dirs = {mutant_dir};  // the mutants ship with awb
  const Catalog cat = load_catalog({mutant_dir}, shipped);
  for (const auto& f : cat.failures)
    out.mutants.push_back({f.path.stem().string(), {}, f.message + " " + f.system_error});
  for (const auto& plugin : cat.plugins) {
    MutantOutcome m;
    m.mutant = plugin.path.stem().string();
    std::vector<const Exercise*> all;
    for (const auto& e : exercises) all.push_back(&e);
    for (const auto& variant : plugin.variants) {
      const grade::GradeReport report = grade_variant({&plugin, &variant}, all);
      for (const auto& ex : report.exercises) {
        if (ex.score >= ex.max_score) continue;
        caught_somewhere.insert(ex.exercise_id);
        if (std::any_of(m.caught_by.begin(), m.caught_by.end(),
                        [&](const auto& c) { return c.exercise == ex.exercise_id; }))
          continue;
        for (const auto& c : ex.checks) {
          if (c.status == grade::Status::kPassed || c.status == grade::Status::kNotRun) continue;
          m.caught_by.push_back({ex.exercise_id, c.id, c.summary, c.diagnosis});
          break;
        }
      }
    }
    out.mutants.push_back(std::move(m));
  }
  for (const auto& e : exercises)
    if (!caught_somewhere.count(e.id)) out.uncatchable_exercises.push_back(e.id);
  return out;
}

}  // namespace awb::core
