// install_paths.cpp: one answer to "am I running from the build tree?".
#include "core/base/install_paths.hpp"

namespace awb::core {
namespace {

std::filesystem::path& program_dir_override() {
  static std::filesystem::path dir;
  return dir;
}

}  // namespace

void set_program_dir(const std::filesystem::path& dir) { program_dir_override() = dir; }

std::filesystem::path shipped_path(const std::filesystem::path& build_tree_dir,
                                   const std::filesystem::path& installed) {
  namespace fs = std::filesystem;
  std::error_code ec;
  fs::path exe_dir = program_dir_override();
  if (exe_dir.empty()) {
    const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
    exe_dir = ec ? fs::current_path() : exe.parent_path();
  }
  if (fs::equivalent(exe_dir, AWB_BUILD_TREE_BIN_DIR, ec)) return build_tree_dir;
  return exe_dir.parent_path() / installed;
}

std::filesystem::path shipped_executable(const std::string& name) {
  return shipped_path(std::filesystem::path(AWB_BUILD_TREE_BIN_DIR) / name, "bin/" + name);
}

}  // namespace awb::core
