// exercise_files.hpp: where `awb exercises` and `awb lint` look (the folders given, or the
// bundled exercises), and how they report the problems of the files they read.
#ifndef AWB_CLI_EXERCISE_FILES_HPP_
#define AWB_CLI_EXERCISE_FILES_HPP_

#include <filesystem>
#include <iostream>
#include <string>
#include <vector>

#include "core/exercises/exercise.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {

inline std::vector<std::filesystem::path> locations_or_bundled(
    const std::vector<std::string>& given) {
  if (given.empty()) return {core::bundled_exercise_dir()};
  return {given.begin(), given.end()};
}

// Problems of the files are errors: on stderr, whatever the command prints on stdout.
inline void print_errors(const std::vector<Error>& errors) {
  for (const auto& e : errors) std::cerr << e.what() << '\n';
}

}  // namespace awb::cli

#endif  // AWB_CLI_EXERCISE_FILES_HPP_
