// autograder.cpp: the bundle's files gathered from the assignment, its exercises and contrib/.
#include "core/grading/autograder.hpp"

#include <fstream>
#include <sstream>

#include "core/base/install_paths.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream out;
  out << in.rdbuf();
  if (!in || !out) throw Error("io.read", file.string(), "cannot be read");
  return out.str();
}

// A script of contrib/, executable in the bundle whatever the mode of the installed copy.
ZipEntry script(const std::string& from, const std::string& name) {
  return {name, read_bytes(shipped_contrib_dir() / from), true};
}

// Where an exercise named by `file:` goes: the same path under assignment/, so the assignment
// finds it as it did. The path must stay inside the assignment's folder.
std::string file_entry_name(const AssignedExercise& e) {
  const fs::path given = fs::path(e.file_entry).lexically_normal();
  const bool inside = given.is_relative() && !given.empty() && *given.begin() != "..";
  if (!inside)
    throw Error("autograder.usage", e.file_entry,
                "exercise '" + e.exercise.id +
                    "' is named by a file outside the assignment's folder; a bundle keeps the "
                    "assignment's paths as they are, so move the file into that folder (or name "
                    "the exercise by id and give its folder with --exercises)");
  return "assignment/" + given.generic_string();
}

// The first bytes of every Debian package (an ar archive whose first member is debian-binary).
bool is_debian_package(const std::string& bytes) {
  return bytes.rfind("!<arch>\ndebian-binary", 0) == 0;
}

}  // namespace

fs::path shipped_contrib_dir() { return shipped_path(AWB_SOURCE_CONTRIB_DIR, "share/awb/contrib"); }

std::vector<ZipEntry> autograder_files(const Assignment& assignment, Platform platform,
                                       const fs::path& package) {
  std::vector<ZipEntry> files;
  if (platform == Platform::kGradescope) {
    // Gradescope looks for these two at the top of the zip.
    files.push_back(script("gradescope/setup.sh", "setup.sh"));
    files.push_back(script("gradescope/run_autograder", "run_autograder"));
    std::string deb = read_bytes(package);
    if (!is_debian_package(deb))
      throw Error("autograder.usage", package.string(),
                  "is not a Debian package (build one with `cpack --preset package`)");
    files.push_back({"awb.deb", std::move(deb), false});
  } else {
    files.push_back(script("prairielearn/grade.sh", "grade.sh"));
  }
  files.push_back(script("autograder/grade_submission.sh", "grade_submission.sh"));
  files.push_back({"assignment/assignment.yaml", read_bytes(assignment.file), false});
  for (const auto& e : assignment.exercises) {
    // Ids are unique among the exercises loaded together, so exercises/<id>.yaml never clashes.
    const std::string name =
        e.file_entry.empty() ? "exercises/" + e.exercise.id + ".yaml" : file_entry_name(e);
    files.push_back({name, read_bytes(e.exercise.file), false});
  }
  return files;
}

}  // namespace awb::core
