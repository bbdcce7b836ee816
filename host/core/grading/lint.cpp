// lint.cpp: reference self-check and the mutant × kind discrimination matrix over an exercise set.
#include "core/grading/lint.hpp"

#include <algorithm>
#include <iterator>
#include <set>

#include "core/base/install_paths.hpp"
#include "core/grading/grading.hpp"
#include "core/plugins/capabilities.hpp"
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

// When a student first sees `check` fail: visible checks now, after_due_date ones after the due
// date, hidden ones never.
Seen seen_by(const grade::CheckResult& check) {
  switch (check.visibility) {
    case grade::Visibility::kVisible:
      return Seen::kNow;
    case grade::Visibility::kAfterDueDate:
      return Seen::kAfterDue;
    case grade::Visibility::kHidden:
      break;
  }
  return Seen::kNever;
}

// The check that cost the subject points (failed, errored or timed out) that a student reads
// first: the most visible one, with a diagnosis where one is as visible.
const grade::CheckResult* first_loss(const grade::ExerciseReport& ex) {
  const grade::CheckResult* first = nullptr;
  auto rank = [](const grade::CheckResult& c) {
    return 2 * int(seen_by(c)) + (c.diagnosis.empty() ? 1 : 0);
  };
  for (const auto& c : ex.checks) {
    if (c.status == grade::Status::kPassed || c.status == grade::Status::kNotRun) continue;
    if (!first || rank(c) < rank(*first)) first = &c;
  }
  return first;
}

// Whether a variant of capabilities `a` is narrower than one of `b`: it declares no more, and
// where both declare the same, a causal-only one is narrower (it runs masked problems alone).
bool narrower(uint64_t a, uint64_t b) {
  const uint64_t wa = a & ~uint64_t(AWB_CAP_CAUSAL_ONLY), wb = b & ~uint64_t(AWB_CAP_CAUSAL_ONLY);
  if (wa & ~wb) return false;
  return wa != wb || ((a & AWB_CAP_CAUSAL_ONLY) && !(b & AWB_CAP_CAUSAL_ONLY));
}

// Whether a check of `exercises` needs a backward pass (a gradient check).
bool checks_gradients(const std::vector<const Exercise*>& exercises) {
  for (const Exercise* e : exercises)
    for (const auto& c : e->checks)
      if (check_needs(*e, c, Scalar::kF64).backward) return true;
  return false;
}

// The table position of a mutant (unknown names last), so the matrix reads in enum order.
size_t table_order(const std::string& name) {
  for (size_t i = 0; i < std::size(mutants::kMistakes); ++i)
    if (mutants::kMistakes[i].name == name) return i;
  return std::size(mutants::kMistakes);
}

}  // namespace

grade::ExerciseReport reference_self_check(const Exercise& exercise, const GradeOptions& options) {
  ReferenceSubject reference(exercise.reference_capabilities);
  return grade_exercise(exercise, reference, options);
}

unsigned declared_kinds(const std::vector<const Exercise*>& exercises) {
  unsigned kinds = 0;
  for (const Exercise* e : exercises)
    if (const int k = kind_column(to_string(e->kind)); k >= 0) kinds |= 1u << k;
  return kinds;
}

unsigned assignment_kinds(const Assignment& a,
                          const std::array<uint64_t, mutants::kKindCount>& caps) {
  // `plugin-id:qkv` names the kind after the colon.
  const std::string named = a.variant_id.substr(a.variant_id.rfind(':') + 1);
  const bool names_kind = kind_column(named) >= 0;
  unsigned fit = 0;
  for (int k = 0; k < mutants::kKindCount; ++k) {
    const uint64_t c = caps[size_t(k)];
    if (c == 0) continue;
    if (names_kind && named != mutants::kKindIds[k]) continue;
    if (!names_kind && (c & a.variant_capabilities) != a.variant_capabilities) continue;
    bool runs_all = true;
    for (const auto& ae : a.exercises)
      for (const auto& check : ae.exercise.checks)
        runs_all = runs_all &&
                   !fit_reason(ae.exercise.input_for(check), c, check.scalar.value_or(a.scalar));
    if (runs_all) fit |= 1u << k;
  }
  unsigned out = fit;
  for (int k = 0; k < mutants::kKindCount; ++k)
    for (int j = 0; j < mutants::kKindCount; ++j)
      if (j != k && (fit & (1u << j)) && narrower(caps[size_t(j)], caps[size_t(k)]))
        out &= ~(1u << k);
  return out;
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

int Discrimination::escapes() const { return count(CellState::kNotCaught); }

Discrimination discrimination_check(const std::vector<Exercise>& exercises,
                                    const std::filesystem::path& mutant_dir) {
  LintScope scope;
  for (const auto& e : exercises) scope.exercises.push_back(&e);
  scope.kinds = declared_kinds(scope.exercises);
  return discrimination_check(scope, mutant_dir);
}

Discrimination discrimination_check(const LintScope& scope,
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
  const std::vector<const Exercise*>& all = scope.exercises;
  const bool gradients = checks_gradients(all);
  for (const auto& plugin : cat.plugins) {
    MutantOutcome m;
    const bool named = plugin.id.rfind(kMutantIdPrefix, 0) == 0;
    m.mutant = named ? plugin.id.substr(kMutantIdPrefix.size()) : plugin.path.stem().string();
    const mutants::MistakeInfo* mistake = mutants::find_mistake(m.mutant);
    unsigned kinds = scope.kinds;
    if (scope.assignment) {
      std::array<uint64_t, mutants::kKindCount> caps{};
      for (const auto& variant : plugin.variants)
        if (const int k = kind_column(variant.id); k >= 0) caps[size_t(k)] = variant.capabilities;
      kinds = assignment_kinds(*scope.assignment, caps);
    }
    out.kinds |= kinds;
    for (const auto& variant : plugin.variants) {
      const int k = kind_column(variant.id);
      if (k < 0 || !(kinds & (1u << k))) continue;
      LintCell& cell = m.cells[size_t(k)];
      GradeOptions options;
      options.hash_plugin = false;
      if (scope.assignment) options = under_assignment(*scope.assignment, &variant, options);
      const grade::GradeReport report = grade_variant({&plugin, &variant}, all, options);
      Seen seen = Seen::kNever;
      for (const auto& ex : report.exercises) {
        if (ex.score >= ex.max_score) continue;
        caught_somewhere.insert(ex.exercise_id);
        cell.exercises.push_back(ex.exercise_id);
        bool lost_on_a_check = false;
        for (const auto& c : ex.checks) {
          if (c.status == grade::Status::kPassed || c.status == grade::Status::kNotRun ||
              c.points >= c.max_points)
            continue;
          lost_on_a_check = true;
          cell.checks.push_back(ex.exercise_id + "/" + c.id);
          seen = std::min(seen, seen_by(c));
        }
        if (!lost_on_a_check) seen = Seen::kNow;  // not gradable at all: that shows
        if (const grade::CheckResult* c = first_loss(ex))
          m.caught_by.push_back({variant.id, ex.exercise_id, c->id, c->summary, c->diagnosis});
      }
      cell.state = !cell.exercises.empty() ? CellState::kCaught : CellState::kNotCaught;
      if (cell.state == CellState::kCaught) cell.seen = seen;
    }
    // A mistake the table does not know is held to every kind.
    for (int k = 0; k < mutants::kKindCount; ++k)
      if (mistake &&
          (!(mutants::kinds_of(*mistake) & (1u << k)) || (mistake->backward && !gradients)))
        m.cells[size_t(k)] = LintCell{CellState::kNotApplicable, {}, Seen::kNow, {}};
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
  if (out.kinds != 0)  // with no kind graded, no exercise had a chance
    for (const Exercise* e : all)
      if (!caught_somewhere.count(e->id)) out.uncatchable_exercises.push_back(e->id);
  return out;
}

}  // namespace awb::core
