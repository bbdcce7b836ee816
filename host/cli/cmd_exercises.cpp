// cmd_exercises.cpp: `awb exercises [DIR...]` lists exercises; `awb exercises export` writes the
// copies students receive (hidden checks left out).
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <nlohmann/json.hpp>

#include "cli/commands.hpp"
#include "cli/exercise_files.hpp"
#include "core/base/atomic_file.hpp"
#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_export.hpp"
#include "core/exercises/questions.hpp"
#include "core/exercises/yaml_reader.hpp"
#include "core/grading/assignment.hpp"
#include "core/grading/grading.hpp"
#include "core/grading/lint.hpp"

namespace awb::cli {
namespace {

struct ListOptions {
  std::vector<std::string> locations;
  std::string format = "text";
};

int run_list(const ListOptions& o) {
  const core::ExerciseSet set = core::load_exercises(locations_or_bundled(o.locations));
  if (o.format == "json") {
    nlohmann::json j = nlohmann::json::array();
    for (const auto& ex : set.exercises)
      j.push_back({{"id", ex.id},
                   {"title", ex.title},
                   {"variant", to_string(ex.kind)},
                   {"checks", ex.checks.size()},
                   {"points", ex.max_points()},
                   {"file", ex.file.string()}});
    std::cout << nlohmann::json{{"exercises", j}, {"errors", set.errors.size()}}.dump(2) << '\n';
  } else {
    std::printf("%-20s %-15s %7s %7s  %s\n", "id", "variant", "checks", "points", "title");
    for (const auto& ex : set.exercises)
      std::printf("%-20s %-15s %7zu %7g  %s\n", ex.id.c_str(), to_string(ex.kind), ex.checks.size(),
                  ex.max_points(), ex.title.c_str());
    std::fflush(stdout);
    if (!set.errors.empty()) {
      std::cerr << "\nProblems:\n";
      print_errors(set.errors);
    }
  }
  return set.errors.empty() ? kExitOk : kExitBadInput;
}

struct ExportOptions {
  std::vector<std::string> locations;
  std::string student_dir;
  bool after_due = false;
};

int run_export(const ExportOptions& o) {
  const core::ExerciseSet set = core::load_exercises(locations_or_bundled(o.locations));
  print_errors(set.errors);
  if (!set.errors.empty()) return kExitBadInput;
  // Nothing of the user's is overwritten: the folder is made if it is missing, and a file in it
  // is replaced only when it is a student copy awb wrote before; checked before anything is
  // written.
  namespace fs = std::filesystem;
  const fs::path dir = o.student_dir;
  std::error_code ec;
  if (fs::exists(fs::symlink_status(dir, ec)) && !fs::is_directory(dir, ec))
    throw Error("export.usage", o.student_dir, "is not a folder");
  for (const auto& ex : set.exercises) {
    const fs::path out = dir / ex.file.filename();
    if (!fs::exists(fs::symlink_status(out, ec))) continue;
    // Opened only once known to be a regular file: opening a FIFO would wait for a writer.
    std::string first;
    const bool regular = fs::is_regular_file(fs::symlink_status(out, ec));
    std::ifstream in;
    if (regular) in.open(out);
    if (!regular || !std::getline(in, first) || first.rfind(core::kStudentCopyHeader, 0) != 0)
      throw Error("export.usage", out.string(),
                  "exists and is not a student copy awb wrote: nothing was written (export into "
                  "a new or empty folder, or one of earlier student copies)");
  }
  fs::create_directories(dir, ec);
  if (ec) throw Error("io.write", o.student_dir, "cannot make the folder: " + ec.message());
  for (const auto& ex : set.exercises) {
    std::vector<Error> errors;
    const auto text = core::read_yaml_file(ex.file, "exercise", errors);
    if (!text) throw errors.front();  // the file changed since it was loaded
    const auto out = dir / ex.file.filename();
    core::write_file_atomic(out, core::student_copy(*text, ex.file.string(), o.after_due));
    std::printf("wrote %s\n", out.string().c_str());
  }
  return kExitOk;
}

}  // namespace

void add_exercises_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<ListOptions>();
  CLI::App* cmd =
      app.add_subcommand("exercises",
                         "List exercises: id, variant kind, number of checks, points, title.\n"
                         "With no DIR, lists the bundled exercises. Exits 3 if a file is invalid.");
  cmd->add_option("locations", opts->locations, "Exercise folders or files");
  cmd->add_option("--format", opts->format, "text or json")
      ->check(CLI::IsMember({"text", "json"}))
      ->capture_default_str();
  auto eopts = std::make_shared<ExportOptions>();
  CLI::App* ex = cmd->add_subcommand(
      "export",
      "Write the copies students receive: hidden checks (and after_due_date ones,\n"
      "unless --after-due) left out; every copy is still a valid exercise.");
  ex->add_option("locations", eopts->locations, "Exercise folders or files (default: bundled)");
  ex->add_option("--student", eopts->student_dir, "Folder to write the student copies into")
      ->required();
  ex->add_flag("--after-due", eopts->after_due, "Keep after_due_date checks");
  ex->callback([eopts, &exit_code] { exit_code = run_export(*eopts); });
  cmd->callback([opts, ex, &exit_code] {
    if (!ex->parsed()) exit_code = run_list(*opts);
  });
}

}  // namespace awb::cli
