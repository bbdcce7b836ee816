// yaml_reader_input.cpp: what a YamlReader reads before any tree exists: the bounded regular
// file, and the event pass that counts what yaml-cpp's tree would hold before it is built.
#include <yaml-cpp/eventhandler.h>

#include <streambuf>
#include <string_view>
#include <vector>

#include "core/base/regular_file.hpp"
#include "core/exercises/yaml_reader.hpp"

namespace awb::core {
namespace {

// The text as an istream without copying it (yaml-cpp's Parser reads a stream).
struct ViewBuf : std::streambuf {
  explicit ViewBuf(const std::string& s) {
    char* p = const_cast<char*>(s.data());  // read only: a streambuf wants char*
    setg(p, p, p + s.size());
  }
};

// Stops the event pass at the first cap passed; the event's position says where.
struct Refusal {
  YAML::Mark mark;
  std::string id;
  std::string message;
};

class Counter : public YAML::EventHandler {
 public:
  explicit Counter(const YamlCaps& caps) : caps_(caps) {}
  int documents = 0;

  void OnDocumentStart(const YAML::Mark& m) override {
    if (++documents > 1)
      throw Refusal{m, "several_documents",
                    "a second YAML document ('---'): a file holds one document"};
  }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override {
    // An alias adds no node to the tree (it points at the anchored one), but it is an entry.
    entry(m);
    if (++aliases_ > caps_.max_aliases)
      throw Refusal{m, "too_many_aliases",
                    std::to_string(aliases_) + " aliases; at most " +
                        std::to_string(caps_.max_aliases) + " are allowed"};
  }
  void OnScalar(const YAML::Mark& m, const std::string& tag, YAML::anchor_t,
                const std::string&) override {
    untagged(m, tag);
    node(m);
  }
  void OnSequenceStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t,
                       YAML::EmitterStyle::value) override {
    untagged(m, tag);
    node(m);
    open_.push_back({m, 0, true});
  }
  void OnSequenceEnd() override { open_.pop_back(); }
  void OnMapStart(const YAML::Mark& m, const std::string& tag, YAML::anchor_t,
                  YAML::EmitterStyle::value) override {
    untagged(m, tag);
    node(m);
    open_.push_back({m, 0, false});
  }
  void OnMapEnd() override { open_.pop_back(); }

 private:
  struct Open {
    YAML::Mark start;
    int64_t entries;
    bool sequence;
  };

  // yaml-cpp names an untagged node "?" (plain) or "!" (quoted); anything else was written as a
  // tag (!python/object, !!binary, !!str). The formats have no use for one, and a tag asks
  // another YAML reader of the same file (a course's own scripts) to build objects from it.
  static void untagged(const YAML::Mark& m, const std::string& tag) {
    if (tag.empty() || tag == "?" || tag == "!") return;
    constexpr std::string_view kCore = "tag:yaml.org,2002:";
    const std::string shown = tag.starts_with(kCore) ? "!!" + tag.substr(kCore.size()) : tag;
    throw Refusal{m, "tag",
                  "the YAML tag '" + shown + "': no tags are allowed, write the value alone"};
  }
  void entry(const YAML::Mark&) {
    if (open_.empty() || !open_.back().sequence) return;
    if (++open_.back().entries > caps_.max_list)
      throw Refusal{open_.back().start, "limit",
                    "has more than " + std::to_string(caps_.max_list) +
                        " entries; no list of the format may (the cap is " +
                        std::to_string(caps_.max_list) + ")"};
  }
  void node(const YAML::Mark& m) {
    entry(m);
    if (++nodes_ > caps_.max_nodes)
      throw Refusal{m, "limit",
                    "the file has more than " + std::to_string(caps_.max_nodes) +
                        " YAML nodes (values, keys, lists and mappings); the cap keeps the memory "
                        "of loading it bounded"};
  }

  const YamlCaps& caps_;
  int64_t nodes_ = 0;
  int aliases_ = 0;
  std::vector<Open> open_;
};

}  // namespace

std::optional<std::string> read_yaml_file(const std::filesystem::path& file,
                                          const std::string& id_prefix, std::vector<Error>& errors,
                                          size_t max_bytes) {
  try {
    return read_regular_file(file, max_bytes, id_prefix);
  } catch (const Error& e) {
    errors.push_back(e);
    return std::nullopt;
  }
}

bool YamlReader::count_nodes(const std::string& text) {
  ViewBuf buf(text);
  std::istream in(&buf);
  Counter counter(caps_);
  try {
    YAML::Parser parser(in);
    // The second call finds a second document, if any, and the counter refuses it.
    if (parser.HandleNextDocument(counter)) parser.HandleNextDocument(counter);
    return true;
  } catch (const Refusal& r) {
    error_at(r.mark.line + 1, r.mark.column + 1, "", id(r.id), r.message);
  } catch (const YAML::Exception& e) {
    error_at(e.mark.line + 1, e.mark.column + 1, "", id("yaml"), e.msg);
  }
  return false;
}

}  // namespace awb::core
