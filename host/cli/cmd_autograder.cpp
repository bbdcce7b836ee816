// cmd_autograder.cpp: `awb autograder gradescope|prairielearn`: an assignment and everything it
// grades, bundled for an autograding platform (core/grading/autograder.hpp).
#include <sys/stat.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "cli/grade_inputs.hpp"
#include "core/base/atomic_file.hpp"
#include "core/grading/assignment.hpp"
#include "core/grading/autograder.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {
namespace {

namespace fs = std::filesystem;

struct AutograderOptions {
  GradeInputs inputs;   // --exercises and --assignment, as `awb grade` reads them
  std::string package;  // Gradescope: the awb .deb setup.sh installs
  std::string out;
};

// The assignment over the exercises it names by id; every problem of a file printed.
std::optional<core::Assignment> load(const AutograderOptions& o) {
  LoadedInputs loaded = load_grade_inputs(o.inputs);
  if (loaded.exit_code != kExitOk) return std::nullopt;
  return std::move(loaded.assignment);
}

std::string summary(const std::vector<core::ZipEntry>& files, const core::Assignment& a) {
  return std::to_string(files.size()) + " files, assignment '" + a.id + "' with " +
         std::to_string(a.exercises.size()) + " exercise(s)";
}

int run_gradescope(const AutograderOptions& o) {
  const auto assignment = load(o);
  if (!assignment) return kExitBadInput;
  const auto files = core::autograder_files(*assignment, core::Platform::kGradescope, o.package);
  core::write_file_atomic(o.out, core::zip_archive(files));
  std::cerr << "autograder: wrote " << o.out << " (" << summary(files, *assignment) << ")\n";
  return kExitOk;
}

// PrairieLearn reads the bundle as a folder of the course's serverFilesCourse. A folder that
// already holds files is refused: an exercise left there from an earlier bundle would be graded.
int run_prairielearn(const AutograderOptions& o) {
  const auto assignment = load(o);
  if (!assignment) return kExitBadInput;
  const auto files = core::autograder_files(*assignment, core::Platform::kPrairieLearn);
  std::error_code ec;
  if (fs::exists(o.out, ec) && !fs::is_empty(o.out, ec))
    throw Error("autograder.usage", o.out,
                "already holds files: give a new or empty folder (an exercise left there would "
                "be graded too)");
  for (const auto& f : files) {
    const fs::path path = fs::path(o.out) / f.name;
    fs::create_directories(path.parent_path(), ec);
    if (ec) throw Error("io.write", path.parent_path().string(), ec.message());
    core::write_file_atomic(path, f.content);
    if (::chmod(path.c_str(), f.executable ? 0755 : 0644) != 0)
      throw Error("io.write", path.string(), "cannot set its mode");
  }
  std::cerr << "autograder: wrote " << o.out << "/ (" << summary(files, *assignment) << ")\n";
  return kExitOk;
}

// The options both platforms take.
void add_assignment_options(CLI::App* cmd, AutograderOptions& o) {
  cmd->add_option("--assignment", o.inputs.assignment,
                  "The assignment to grade: a file, or a bundled one (parameter-free, qkv, "
                  "multi-head, causal)")
      ->required();
  cmd->add_option("--exercises", o.inputs.exercise_dirs,
                  "Where the assignment's exercise ids are looked up (default: the bundled "
                  "exercises); repeatable");
}

}  // namespace

void add_autograder_command(CLI::App& app, int& exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "autograder",
      "Bundle an assignment for an autograding platform: the assignment, every exercise it\n"
      "grades and the platform's scripts, which grade each submission with\n"
      "`awb grade --batch` and always leave the platform's results.json (with the reason\n"
      "and a score of 0, or not gradable, when awb could not grade). Exit codes: 0 written,\n"
      "1 a file could not be read or written, 2 bad command line, 3 an invalid exercise or\n"
      "assignment.");
  cmd->require_subcommand(1);

  auto gs = std::make_shared<AutograderOptions>();
  CLI::App* gradescope = cmd->add_subcommand(
      "gradescope",
      "Write the zip Gradescope's autograder takes: setup.sh (installs the awb package and\n"
      "what it depends on), run_autograder (grades /autograder/submission, writes\n"
      "/autograder/results/results.json), the package, the assignment and its exercises.");
  add_assignment_options(gradescope, *gs);
  gradescope
      ->add_option("--package", gs->package,
                   "The awb Debian package setup.sh installs (cpack --preset package builds it, "
                   "for the release Gradescope's image runs)")
      ->required()
      ->check(CLI::ExistingFile);
  gradescope->add_option("--out", gs->out, "The zip to write (atomically)")->required();
  gradescope->callback([gs, &exit_code] { exit_code = run_gradescope(*gs); });

  auto pl = std::make_shared<AutograderOptions>();
  CLI::App* prairielearn = cmd->add_subcommand(
      "prairielearn",
      "Write the folder a PrairieLearn course keeps in serverFilesCourse for its external\n"
      "grader: grade.sh (the entrypoint: grades /grade/student, writes\n"
      "/grade/results/results.json), the assignment and its exercises. The grader's image must\n"
      "have awb installed (contrib/prairielearn/Dockerfile).");
  add_assignment_options(prairielearn, *pl);
  prairielearn->add_option("--out", pl->out, "The folder to write (new or empty)")->required();
  prairielearn->callback([pl, &exit_code] { exit_code = run_prairielearn(*pl); });
}

}  // namespace awb::cli
