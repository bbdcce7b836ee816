// source_tree.hpp: a submission's source tree as the build sees it: whether a folder is one, its
// digest (the build cache's key), the copy the sandbox builds, and the first errors of a log.
#ifndef AWB_CORE_BUILDS_SOURCE_TREE_HPP_
#define AWB_CORE_BUILDS_SOURCE_TREE_HPP_

#include <cstdint>
#include <filesystem>
#include <string>

namespace awb::core {

// A folder with a CMakeLists.txt at its top is a source submission (built before grading).
bool is_source_tree(const std::filesystem::path& folder);

// The sha256 of the tree: every regular file's relative path and contents and every symbolic
// link's relative path and target, in sorted order; .git folders and other file types are left
// out. Throws awb::Error("build.source_too_large") past `max_bytes` of files, "io.read" when a
// file cannot be read.
std::string source_tree_digest(const std::filesystem::path& folder, uint64_t max_bytes);

// Copies the tree as the digest sees it into `to` (created): symbolic links stay links (never
// followed: awb may run as root, the build never does). Throws awb::Error("io.write").
void copy_source_tree(const std::filesystem::path& from, const std::filesystem::path& to);

// Whether a compiler (or another tool of the build) says in the log that it ran out of memory.
bool log_shows_out_of_memory(const std::string& log);

// The first errors of a build log, at most `max_lines` lines: compiler and linker errors and
// CMake's error blocks, with `work` (where the sources were built) cut from every path so they
// read as paths inside the submission.
std::string first_build_errors(const std::string& log, const std::string& work, int max_lines);

}  // namespace awb::core

#endif  // AWB_CORE_BUILDS_SOURCE_TREE_HPP_
