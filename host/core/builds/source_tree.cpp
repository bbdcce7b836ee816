// source_tree.cpp: walking, hashing and copying a source submission, and reading its build log.
#include "core/builds/source_tree.hpp"

#include <algorithm>
#include <sstream>
#include <vector>

#include "core/base/sha256.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

namespace fs = std::filesystem;

namespace {

struct Entry {
  fs::path relative;
  bool link = false;
};

// Regular files and symbolic links under `folder`, sorted; .git folders are skipped, and so is
// anything else (FIFOs, devices, sockets), which a build has no use for.
std::vector<Entry> tree_entries(const fs::path& folder) {
  std::vector<Entry> out;
  std::error_code ec;
  fs::recursive_directory_iterator it(folder, fs::directory_options::none, ec), end;
  if (ec) throw Error("io.read", folder.string(), "cannot list the sources: " + ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) throw Error("io.read", folder.string(), "cannot list the sources: " + ec.message());
    const fs::file_status st = it->symlink_status(ec);
    if (fs::is_directory(st)) {
      if (it->path().filename() == ".git") it.disable_recursion_pending();
      continue;
    }
    if (fs::is_regular_file(st) || fs::is_symlink(st))
      out.push_back({it->path().lexically_relative(folder), fs::is_symlink(st)});
  }
  std::sort(out.begin(), out.end(),
            [](const Entry& a, const Entry& b) { return a.relative < b.relative; });
  return out;
}

}  // namespace

bool is_source_tree(const fs::path& folder) {
  std::error_code ec;
  return fs::is_regular_file(fs::symlink_status(folder / "CMakeLists.txt", ec));
}

std::string source_tree_digest(const fs::path& folder, uint64_t max_bytes) {
  // Every field is its length, a colon and its bytes, so no name (a path may hold tabs and
  // newlines) can end a field early and make one tree read as another. The first line names
  // this layout: keys of the earlier tab-separated one are never met again (old cache entries
  // simply miss).
  std::string listing = "awb source tree 2\n";
  auto field = [&listing](const std::string& text) {
    listing += std::to_string(text.size()) + ':' + text;
  };
  uint64_t total = 0;
  for (const Entry& e : tree_entries(folder)) {
    const fs::path path = folder / e.relative;
    std::error_code ec;
    if (e.link) {
      field("link");
      field(e.relative.string());
      field(fs::read_symlink(path, ec).string());
      continue;
    }
    total += fs::file_size(path, ec);
    if (total > max_bytes)
      throw Error("build.source_too_large", folder.string(),
                  "the sources are larger than " + std::to_string(max_bytes >> 20) +
                      " MiB (build outputs or data files handed in?)");
    field("file");
    field(e.relative.string());
    field(sha256_file(path, max_bytes));
  }
  return sha256_hex(listing);
}

void copy_source_tree(const fs::path& from, const fs::path& to) {
  std::error_code ec;
  fs::create_directories(to, ec);
  for (const Entry& e : tree_entries(from)) {
    const fs::path target = to / e.relative;
    fs::create_directories(target.parent_path(), ec);
    if (e.link)
      fs::copy_symlink(from / e.relative, target, ec);
    else
      fs::copy_file(from / e.relative, target, fs::copy_options::overwrite_existing, ec);
    if (ec) throw Error("io.write", target.string(), "cannot copy the sources: " + ec.message());
  }
}

namespace {

// What compilers print when an allocation fails: GCC's "cc1plus: out of memory allocating N
// bytes" and "virtual memory exhausted", Clang's "LLVM ERROR: out of memory", a C++ tool's
// uncaught std::bad_alloc. None holds "error:".
bool out_of_memory_line(const std::string& line) {
  for (const char* sign : {": out of memory allocating", "virtual memory exhausted",
                           "LLVM ERROR: out of memory", "std::bad_alloc"})
    if (line.find(sign) != std::string::npos) return true;
  return false;
}

}  // namespace

bool log_shows_out_of_memory(const std::string& log) {
  std::istringstream in(log);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("awb-builder: ", 0) != 0 && out_of_memory_line(line)) return true;
  return false;
}

std::string first_build_errors(const std::string& log, const std::string& work, int max_lines) {
  auto relative = [&](std::string line) {
    for (const std::string& prefix : {work + "/src/", work + "/", work}) {
      for (size_t at = line.find(prefix); at != std::string::npos; at = line.find(prefix, at))
        line.erase(at, prefix.size());
    }
    return line;
  };
  auto is_error = [](const std::string& line) {
    return line.find("error:") != std::string::npos || line.find("Error") != std::string::npos ||
           line.find("undefined reference") != std::string::npos ||
           line.find("fatal") != std::string::npos || out_of_memory_line(line);
  };
  std::istringstream in(log);
  std::string line, out;
  int taken = 0, context = 0;
  while (taken < max_lines && std::getline(in, line)) {
    if (line.rfind("awb-builder: ", 0) == 0) continue;  // the builder's own lines: the reason
    if (is_error(line)) {
      // The error line and what follows it: the source line for a compiler error, the message
      // of a CMake error block (which comes on the lines after its header).
      context = line.find("CMake Error") != std::string::npos ? 5 : 2;
    } else if (context == 0 || line.empty()) {
      context = 0;
      continue;
    }
    --context;
    constexpr size_t kLongest = 300;
    std::string text = relative(line);
    if (text.size() > kLongest) text = text.substr(0, kLongest) + "…";
    out += text + '\n';
    ++taken;
  }
  return out;
}

}  // namespace awb::core
