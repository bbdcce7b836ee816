// yaml_reader.hpp: defensive reading of YAML for the exercise loader: pre-scan caps, duplicate
// and unknown keys with did-you-mean, typed values, and every problem collected, not thrown.
#ifndef AWB_CORE_EXERCISES_YAML_READER_HPP_
#define AWB_CORE_EXERCISES_YAML_READER_HPP_

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <filesystem>
#include <map>
#include <new>
#include <optional>
#include <string>
#include <vector>

#include "core/base/did_you_mean.hpp"
#include "graders/model/error.hpp"
#include "graders/model/names.hpp"
#include "graders/model/tensor.hpp"

namespace awb::core {

// Caps checked before yaml-cpp sees the text (its parser recurses without bound), before it
// builds its tree (a node costs about 450 bytes, so nodes, not bytes, bound the memory), and
// while reading (aliases can make a small file expand into a huge tree).
struct YamlCaps {
  size_t max_bytes = 8u << 20;
  int max_depth = 64;
  int max_aliases = 64;
  int64_t max_values = int64_t(1) << 21;  // numbers and strings the file makes the host create
  // Nodes of the tree (scalars, keys, lists, mappings): every value plus room for the keys and
  // rows that hold them. What bounds the memory of loading one file (FORMAT.md, "Caps").
  int64_t max_nodes = (int64_t(1) << 21) + (int64_t(1) << 18);
  int64_t max_list = 4096;           // entries of one list: no list of the formats needs more
  int64_t max_line_entries = 65536;  // flow-list entries on one line (yaml-cpp buffers a line)
};

// Reads `file` for a YamlReader with read_regular_file (core/base/regular_file.hpp): only a
// regular file, at most `max_bytes`. Its error (<id_prefix>.io, <id_prefix>.not_a_file or
// <id_prefix>.too_large) is appended to `errors` rather than thrown.
std::optional<std::string> read_yaml_file(const std::filesystem::path& file,
                                          const std::string& id_prefix, std::vector<Error>& errors,
                                          size_t max_bytes = YamlCaps{}.max_bytes);

class YamlReader {
 public:
  YamlReader(std::string file_label, std::string id_prefix, YamlCaps caps = {});

  // Pre-scans and parses; on failure records the error and returns nothing.
  std::optional<YAML::Node> parse(const std::string& text);

  // Records a problem at `node` (file:line:column) under `path` ("checks[2].points").
  void error(const YAML::Node& node, const std::string& path, const std::string& id,
             const std::string& message);
  void error_at(int line, int column, const std::string& path, const std::string& id,
                const std::string& message);
  const std::vector<Error>& errors() const { return errors_; }
  bool ok() const { return errors_.empty(); }
  const std::string& file() const { return file_; }

  // Checks a mapping's keys: duplicates and unknown keys (with a did-you-mean) are errors.
  // Returns false when `node` is not a mapping.
  bool check_keys(const YAML::Node& node, const std::string& path,
                  const std::vector<std::string>& allowed);
  // The same for a mapping whose keys are free (a vocabulary): only duplicates are errors.
  bool check_free_keys(const YAML::Node& node, const std::string& path);
  // A required key; records exercise.missing_key at the mapping when absent, unless a key of
  // that mapping was already reported unknown as a misspelling of it (`predicat` for
  // `predicate`): that error says what is wrong, where.
  std::optional<YAML::Node> require(const YAML::Node& map, const std::string& path,
                                    const std::string& key);
  // Whether check_keys reported a key of the mapping at `path` unknown, with `key` as its
  // did-you-mean.
  bool misspelt(const std::string& path, const std::string& key) const;

  std::optional<std::string> string(const YAML::Node& n, const std::string& path);
  std::optional<double> number(const YAML::Node& n, const std::string& path);
  // Out of [lo, hi]: "value" below, `over_id` above ("limit" where hi is a size cap).
  std::optional<int64_t> integer(const YAML::Node& n, const std::string& path, int64_t lo,
                                 int64_t hi, const char* over_id = "value");
  std::optional<bool> boolean(const YAML::Node& n, const std::string& path);
  std::optional<std::string> word(const YAML::Node& n, const std::string& path,
                                  const std::vector<std::string>& allowed);
  // A word among the names of E's table (graders/model/names.hpp), as its value.
  template <typename E>
  std::optional<E> choice(const YAML::Node& n, const std::string& path) {
    const auto w = word(n, path, all_names<E>());
    return w ? awb::parse<E>(*w) : std::nullopt;
  }
  std::optional<std::vector<double>> vector(const YAML::Node& n, const std::string& path,
                                            int64_t max_len);
  // A non-empty list of equally long rows; rows ≤ max_rows, columns ≤ max_cols.
  std::optional<Matrix> matrix(const YAML::Node& n, const std::string& path, int64_t max_rows,
                               int64_t max_cols);
  std::optional<std::vector<std::string>> strings(const YAML::Node& n, const std::string& path,
                                                  int64_t max_len);

  std::string id(const std::string& suffix) const { return prefix_ + "." + suffix; }
  const std::string& id_prefix() const { return prefix_; }
  // The error for running out of memory while reading the file (std::bad_alloc).
  void out_of_memory();
  int64_t values_read() const { return values_read_; }

  // Counts `values` numbers the file makes the host create (generated ones too) against the
  // per-file cap; false (and one recorded error) once the cap is passed.
  bool spend(const YAML::Node& n, const std::string& path, int64_t values);

 private:
  bool check_mapping(const YAML::Node& node, const std::string& path,
                     const std::vector<std::string>* allowed);
  // yaml-cpp's event parser over the text, counting what the tree would hold (nodes, list
  // lengths, aliases, documents) without building it; false (and one error) over a cap.
  bool count_nodes(const std::string& text);
  // A quoted scalar ("0.87", '1') is a string: false (and a type error) where `what` is needed.
  bool plain(const YAML::Node& n, const std::string& path, const std::string& what);
  void add(Error e);

  std::string file_;
  std::string prefix_;
  YamlCaps caps_;
  int64_t values_read_ = 0;
  bool budget_reported_ = false;
  std::vector<Error> errors_;
  // The unknown keys reported, by the path of their mapping: each key and its did-you-mean. A
  // mapping checked twice (against a wider set first) reports each unknown key once.
  std::map<std::string, std::map<std::string, std::string>> unknown_keys_;
};

// Runs `parse(reader)` with a reader for `file_label`; running out of memory while the file is
// read (a limit tighter than its caps allow for) becomes the file's own error, never an
// exception that escapes. `Load` is a loader's result: an optional value and `errors`.
template <class Load, class Parse>
Load parse_guarded(const std::string& file_label, const std::string& id_prefix, Parse&& parse) {
  try {
    YamlReader reader(file_label, id_prefix);
    return parse(reader);
  } catch (const std::bad_alloc&) {
    YamlReader oom(file_label, id_prefix);
    oom.out_of_memory();
    Load out{};
    out.errors = oom.errors();
    return out;
  }
}

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_YAML_READER_HPP_
