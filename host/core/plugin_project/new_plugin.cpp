// new_plugin.cpp: renders every file of the SDK template for one kind and mode, then writes them
// into an empty folder, never over a file.
#include "core/plugin_project/new_plugin.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>

#include "core/base/did_you_mean.hpp"
#include "core/base/install_paths.hpp"
#include "core/plugin_project/template_text.hpp"
#include "graders/model/error.hpp"
#include "graders/model/variant_kinds.hpp"

namespace awb::core {
namespace {

namespace fs = std::filesystem;

// Variant ids are [a-z0-9-]+ (awb_plugin.h); a letter first keeps the target name a valid C
// identifier's start, and the length keeps the template's lines that hold it under 100 columns.
constexpr std::size_t kMaxNameLength = 48;

void check_name(const std::string& name) {
  const bool shaped = !name.empty() && name.size() <= kMaxNameLength && name.front() >= 'a' &&
                      name.front() <= 'z' && std::all_of(name.begin(), name.end(), [](char c) {
                        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
                      });
  if (!shaped)
    throw Error("new_plugin.bad_name", "--name " + name,
                "a variant id is a lowercase letter, then lowercase letters, digits and '-', at "
                "most " +
                    std::to_string(kMaxNameLength) + " characters (e.g. my-attention)");
}

const PluginKind& find_kind(const std::string& id) {
  for (const auto& k : plugin_kinds())
    if (id == k.id) return k;
  std::string list;
  for (const auto& k : plugin_kinds()) list += (list.empty() ? "" : ", ") + std::string(k.id);
  throw Error(
      "new_plugin.unknown_kind", "--kind " + id,
      "not a kind of variant" + did_you_mean_note(id, plugin_kind_ids()) + "; the kinds: " + list);
}

// Refuses a folder that holds anything: a project is written only where it overwrites nothing.
void check_empty(const fs::path& dir) {
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (!fs::exists(status)) return;
  if (!fs::is_directory(status))
    throw Error("new_plugin.not_empty", dir.string(), "exists and is not a folder");
  fs::directory_iterator it(dir, ec);
  if (ec) throw Error("io.read", dir.string(), ec.message());
  if (it != fs::directory_iterator())
    throw Error("new_plugin.not_empty", dir.string(),
                "already holds files (" + it->path().filename().string() +
                    ", ...); give a new or empty folder: nothing is overwritten");
}

std::string read_text(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("io.read", file.string(), std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// Creates `file` (which must not exist: O_EXCL) and writes `content` into it.
void write_new_file(const fs::path& file, const std::string& content) {
  std::error_code ec;
  fs::create_directories(file.parent_path(), ec);
  if (ec) throw Error("io.write", file.parent_path().string(), ec.message());
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) throw Error("io.write", file.string(), std::strerror(errno));
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::write(fd, content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const std::string why = std::strerror(errno);
      ::close(fd);
      throw Error("io.write", file.string(), why);
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) throw Error("io.write", file.string(), std::strerror(errno));
}

}  // namespace

const std::vector<PluginKind>& plugin_kinds() {
  static const std::vector<PluginKind> kinds = [] {
    std::vector<PluginKind> out;
    for (const auto& row : kVariantKinds)
      if (row.in(kNewPlugin)) out.push_back({row.id, row.title});
    return out;
  }();
  return kinds;
}

std::vector<std::string> plugin_kind_ids() {
  std::vector<std::string> ids;
  for (const auto& k : plugin_kinds()) ids.emplace_back(k.id);
  return ids;
}

fs::path template_dir() { return shipped_path(AWB_SOURCE_TEMPLATE_DIR, AWB_INSTALL_TEMPLATE_DIR); }

NewPluginProject write_plugin_project(const fs::path& dir, const NewPluginOptions& options,
                                      const fs::path& from) {
  const PluginKind& kind = find_kind(options.kind);
  NewPluginProject project;
  project.name = options.name.empty() ? "student-" + options.kind : options.name;
  check_name(project.name);
  project.plugin_id = "org.example." + project.name;
  project.target = project.name;
  std::replace(project.target.begin(), project.target.end(), '-', '_');
  check_empty(dir);

  TemplateChoice choice;
  choice.kind = kind.id;
  choice.starter = options.starter;
  choice.kinds = plugin_kind_ids();
  choice.placeholders = {{"name", project.name},
                         {"kind", kind.id},
                         {"title", kind.title},
                         {"plugin_id", project.plugin_id},
                         {"target", project.target}};

  // Every file is rendered before the first is written: a template error writes nothing.
  std::error_code ec;
  if (!fs::is_directory(from, ec))
    throw Error("template.not_found", from.string(),
                "the plugin template is not there (is awb installed whole?)");
  std::vector<std::pair<fs::path, std::string>> files;
  for (fs::recursive_directory_iterator it(from, ec), end; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    const fs::path rel = it->path().lexically_relative(from);
    files.emplace_back(rel, render_template(read_text(it->path()), choice, rel.string()));
  }
  if (ec) throw Error("io.read", from.string(), ec.message());
  if (files.empty()) throw Error("template.not_found", from.string(), "the template has no files");
  std::sort(files.begin(), files.end());
  for (const auto& [rel, text] : files) {
    write_new_file(dir / rel, text);
    project.files.push_back(rel);
  }
  return project;
}

}  // namespace awb::core
