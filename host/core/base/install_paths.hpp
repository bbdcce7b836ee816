// install_paths.hpp: where awb finds what it ships (plugins, mutants, exercises), run from the
// build tree or from an install prefix.
#ifndef AWB_CORE_BASE_INSTALL_PATHS_HPP_
#define AWB_CORE_BASE_INSTALL_PATHS_HPP_

#include <filesystem>
#include <string>

namespace awb::core {

// `build_tree_dir` when the running executable sits in the build tree's bin/, else
// <prefix>/`installed` where the executable is <prefix>/bin/awb.
std::filesystem::path shipped_path(const std::filesystem::path& build_tree_dir,
                                   const std::filesystem::path& installed);

// A host that is not one of awb's executables (the Python module, loaded into python3) names
// the folder that stands for theirs: the build tree's bin/ or <prefix>/bin. Every later
// shipped_path() answers from it instead of the running executable's folder. Call it once,
// before anything looks for what awb ships.
void set_program_dir(const std::filesystem::path& dir);

// An executable awb ships beside itself (awb-runner, awb-figure): in the build tree's bin/, or
// <prefix>/bin/`name`.
std::filesystem::path shipped_executable(const std::string& name);

}  // namespace awb::core

#endif  // AWB_CORE_BASE_INSTALL_PATHS_HPP_
