// grade_binding.cpp: awb._core.grade: a variant graded as `awb grade` grades it (one exercise,
// several, an assignment, or the exercises that are for it), returned as the JSON report the
// CLI writes with --format json.
#include <ctime>

#include "core/grading/assignment.hpp"
#include "core/grading/grading.hpp"
#include "core/grading/subject_factory.hpp"
#include "graders/model/error.hpp"
#include "graders/report/formats.hpp"
#include "python/bindings.hpp"

namespace awb::python {
namespace {

struct GradeRequest {
  std::string variant;
  std::vector<std::string> exercise_ids;
  std::string assignment;
  bool instructor = false;
  Scalar scalar = Scalar::kF64;
  std::vector<std::filesystem::path> exercise_dirs;
  PluginAccess access;
};

// The exercises named, else every exercise of the set (the variant keeps those for it).
std::vector<const core::Exercise*> named_exercises(const core::ExerciseSet& set,
                                                   const std::vector<std::string>& ids) {
  std::vector<const core::Exercise*> out;
  for (const auto& id : ids) out.push_back(&core::find_exercise(set, id));
  if (ids.empty())
    for (const auto& ex : set.exercises) out.push_back(&ex);
  return out;
}

// Grading itself; runs without the GIL.
std::string grade_variant(const GradeRequest& rq) {
  const core::ExerciseSet set = core::load_exercises(rq.exercise_dirs);
  if (!set.errors.empty()) throw set.errors.front();
  std::optional<core::Assignment> assignment;
  if (!rq.assignment.empty()) {
    core::AssignmentLoad l =
        core::load_assignment(core::find_assignment(rq.assignment), set.exercises);
    if (!l.assignment) throw l.errors.front();
    assignment = std::move(l.assignment);
  }
  const auto exercises =
      assignment ? assignment->exercise_list() : named_exercises(set, rq.exercise_ids);
  core::GradeOptions go;
  go.scalar = rq.scalar;
  go.session = rq.access.session();
  core::LoadPolicy policy;
  policy.runner = core::session_options_for(exercises, go).runner;
  const core::Catalog cat = core::load_catalog(core::plugin_search_path(rq.access.paths), policy);
  core::VariantRef ref = core::find_variant(cat, rq.variant);
  if (assignment) {
    const core::VariantChoice choice = core::choose_variant(*assignment, {ref});
    ref = *choice.chosen;
    go = core::under_assignment(*assignment, ref.variant, go);
  }
  std::vector<std::pair<std::string, std::string>> not_mine;
  std::vector<const core::Exercise*> mine = exercises;
  if (!assignment && rq.exercise_ids.empty()) {
    mine.clear();
    for (const core::Exercise* ex : exercises) {
      if (auto why = core::not_for_variant(*ex, *ref.variant, go.scalar))
        not_mine.emplace_back(ex->id, *why);
      else
        mine.push_back(ex);
    }
  }
  std::vector<grade::GradeReport> reports{core::grade_variant(ref, mine, go)};
  reports.back().not_for_variant = std::move(not_mine);
  grade::View view{rq.instructor, false};
  if (assignment && assignment->due) view.after_due = std::time(nullptr) > *assignment->due;
  grade::FormatOptions options;
  if (assignment) options.leaderboard = assignment->leaderboard;
  return grade::find_report_format("json")->write(reports, view, options);
}

std::string grade(const std::string& variant, const std::vector<std::string>& exercise,
                  const std::string& assignment, const std::string& view, const std::string& scalar,
                  const std::string& isolation,
                  const std::optional<std::vector<std::string>>& paths,
                  const std::optional<std::vector<std::string>>& exercises) {
  GradeRequest rq;
  rq.variant = variant;
  rq.exercise_ids = exercise;
  rq.assignment = assignment;
  if (!exercise.empty() && !assignment.empty())
    throw Error("cli.excludes", "exercise and assignment do not go together");
  if (view != "student" && view != "instructor")
    throw Error("cli.invalid_value", "view '" + view + "': student or instructor");
  rq.instructor = view == "instructor";
  const auto s = awb::parse<Scalar>(scalar);
  if (!s) throw Error("cli.invalid_value", "scalar '" + scalar + "': f64 or f32");
  rq.scalar = *s;
  if (exercises)
    for (const auto& d : *exercises) rq.exercise_dirs.emplace_back(d);
  if (rq.exercise_dirs.empty()) rq.exercise_dirs.push_back(core::bundled_exercise_dir());
  rq.access = plugin_access(paths, isolation);
  py::gil_scoped_release unlocked;
  return grade_variant(rq);
}

}  // namespace

void define_grade(py::module_& m) {
  m.def("grade", &grade, py::arg("variant"), py::arg("exercise"), py::arg("assignment"),
        py::arg("view"), py::arg("scalar"), py::arg("isolation"), py::arg("paths"),
        py::arg("exercises"));
}

}  // namespace awb::python
