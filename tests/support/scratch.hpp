// scratch.hpp: scratch folders and whole-file reads and writes for tests that work on files (the
// batch's journal, report sets and shards).
#ifndef AWB_TESTS_SUPPORT_SCRATCH_HPP_
#define AWB_TESTS_SUPPORT_SCRATCH_HPP_

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace awb::test {

// The folder of this test process (ctest may run the cases at once), removed at exit.
inline const std::filesystem::path& scratch_root() {
  static const struct Root {
    std::filesystem::path path =
        std::filesystem::temp_directory_path() / ("awb-batch-tests-" + std::to_string(::getpid()));
    ~Root() {
      std::error_code ec;
      std::filesystem::remove_all(path, ec);
    }
  } root;
  return root.path;
}

// A fresh, empty folder of that name under scratch_root().
inline std::filesystem::path scratch(const std::string& name) {
  const std::filesystem::path dir = scratch_root() / name;
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

inline void spit(const std::filesystem::path& file, const std::string& text) {
  std::ofstream out(file, std::ios::binary | std::ios::trunc);
  out << text;
}

}  // namespace awb::test

#endif  // AWB_TESTS_SUPPORT_SCRATCH_HPP_
