// yaml_reader.cpp: the pre-scan that keeps yaml-cpp away from hostile nesting, and typed reads.
// (The file itself and the count of the tree before it is built: yaml_reader_input.cpp.)
#include "core/exercises/yaml_reader.hpp"

#include <algorithm>
#include <cmath>
#include <new>
#include <set>

namespace awb::core {
namespace {

// Counts flow/block nesting depth and alias uses without parsing. Conservative: anything that
// merely looks deep or alias-heavy is refused, which is fine for hand-written exercises.
struct Scan {
  int depth = 0;
  int aliases = 0;
  int line = 1, column = 1;  // where the cap was first exceeded
  // yaml-cpp's scanner holds every token of a flow list until the line ends (it could still be
  // a key), about 150 bytes each, so a long line costs memory before any node is counted.
  int long_line = 0, long_column = 0;  // the first entry past the per-line cap, if any
};

Scan prescan(const std::string& text, const YamlCaps& caps) {
  Scan s;
  int flow = 0;
  std::vector<int> indents;  // block indentation stack
  bool in_single = false, in_double = false, in_comment = false, at_line_start = true;
  int line = 1, col = 0, indent = 0;
  int64_t line_entries = 0;
  auto note_depth = [&](int d) {
    if (d > s.depth) {
      s.depth = d;
      if (d > caps.max_depth && s.line == 1 && s.column == 1) {
        s.line = line;
        s.column = col;
      }
    }
  };
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    ++col;
    if (c == '\n') {
      ++line;
      col = 0;
      in_comment = false;
      in_single = in_double = false;
      at_line_start = true;
      indent = 0;
      line_entries = 0;
      continue;
    }
    if (in_comment) continue;
    if (at_line_start) {
      if (c == ' ' || c == '-') {
        ++indent;  // "- - - x" nests sequences as deeply as indentation does
        continue;
      }
      at_line_start = false;
      if (c != '#') {
        while (!indents.empty() && indents.back() >= indent) indents.pop_back();
        indents.push_back(indent);
        note_depth(int(indents.size()) + flow);
      }
    }
    if (in_double) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_double = false;
      continue;
    }
    if (in_single) {
      if (c == '\'') in_single = false;
      continue;
    }
    const char prev = i > 0 ? text[i - 1] : ' ';
    const bool token_start = prev == ' ' || prev == '\t' || prev == '[' || prev == '{' ||
                             prev == ',' || prev == ':' || prev == '\n';
    if (c == '#' && (prev == ' ' || prev == '\t' || i == 0))
      in_comment = true;
    else if (c == '"' && token_start)
      in_double = true;
    else if (c == '\'' && token_start)
      in_single = true;
    else if (c == '[' || c == '{')
      note_depth(int(indents.size()) + ++flow);
    else if ((c == ']' || c == '}') && flow > 0)
      --flow;
    else if (c == ',' && flow > 0 && ++line_entries > caps.max_line_entries && s.long_line == 0) {
      s.long_line = line;
      s.long_column = col;
    } else if (c == '*' && token_start && i + 1 < text.size() && text[i + 1] != ' ') {
      if (++s.aliases == caps.max_aliases + 1 && s.depth <= caps.max_depth) {
        s.line = line;
        s.column = col;
      }
    }
  }
  return s;
}

}  // namespace

YamlReader::YamlReader(std::string file_label, std::string id_prefix, YamlCaps caps)
    : file_(std::move(file_label)), prefix_(std::move(id_prefix)), caps_(caps) {}

void YamlReader::error_at(int line, int column, const std::string& path, const std::string& id,
                          const std::string& message) {
  add(Error(id, file_ + ":" + std::to_string(line) + ":" + std::to_string(column),
            path.empty() ? message : path + ": " + message));
}

void YamlReader::add(Error e) {
  // Shared data (a vocabulary read once per case) must not report the same problem twice.
  for (const auto& seen : errors_)
    if (std::string_view(seen.what()) == e.what()) return;
  errors_.push_back(std::move(e));
}

void YamlReader::error(const YAML::Node& node, const std::string& path, const std::string& id,
                       const std::string& message) {
  const YAML::Mark m = node.IsDefined() ? node.Mark() : YAML::Mark::null_mark();
  // A node without a position (an empty document) is reported at the start of the file.
  error_at(m.line < 0 ? 1 : m.line + 1, m.line < 0 ? 1 : m.column + 1, path, id, message);
}

std::optional<YAML::Node> YamlReader::parse(const std::string& text) {
  if (text.size() > caps_.max_bytes) {
    error_at(1, 1, "", id("too_large"),
             "the file is " + std::to_string(text.size()) + " bytes; the cap is " +
                 std::to_string(caps_.max_bytes >> 20) + " MiB");
    return std::nullopt;
  }
  // yaml-cpp's scanner ends a scalar at a NUL byte and reads on: "ti\0tle" became "ti". No YAML
  // text holds one (a binary file, or one saved as UTF-16).
  if (const size_t nul = text.find('\0'); nul != std::string::npos) {
    const size_t line_start = text.rfind('\n', nul);
    const int line = 1 + int(std::count(text.begin(), text.begin() + ptrdiff_t(nul), '\n'));
    const int column = int(line_start == std::string::npos ? nul + 1 : nul - line_start);
    error_at(line, column, "", id("nul_byte"),
             "a NUL byte; YAML text holds none (is it a binary file, or one saved as UTF-16?)");
    return std::nullopt;
  }
  const Scan s = prescan(text, caps_);
  if (s.depth > caps_.max_depth) {
    error_at(s.line, s.column, "", id("too_deep"),
             "nesting is deeper than " + std::to_string(caps_.max_depth) + " levels");
    return std::nullopt;
  }
  if (s.aliases > caps_.max_aliases) {
    error_at(s.line, s.column, "", id("too_many_aliases"),
             std::to_string(s.aliases) + " aliases; at most " + std::to_string(caps_.max_aliases) +
                 " are allowed");
    return std::nullopt;
  }
  if (s.long_line > 0) {
    error_at(s.long_line, s.long_column, "", id("limit"),
             "a line holds more than " + std::to_string(caps_.max_line_entries) +
                 " list entries; write a long list one row per line");
    return std::nullopt;
  }
  try {
    // Counted first: the tree is built only for a file whose tree is known to fit the caps.
    if (!count_nodes(text)) return std::nullopt;
    return YAML::Load(text);
  } catch (const std::bad_alloc&) {
    out_of_memory();
  } catch (const YAML::Exception& e) {
    error_at(e.mark.line + 1, e.mark.column + 1, "", id("yaml"), e.msg);
  } catch (const std::exception& e) {
    error_at(1, 1, "", id("yaml"), e.what());
  }
  return std::nullopt;
}

void YamlReader::out_of_memory() {
  error_at(1, 1, "", id("too_large"),
           "ran out of memory reading the file (FORMAT.md, \"Caps\", says how much a file may "
           "use)");
}

bool YamlReader::plain(const YAML::Node& n, const std::string& path, const std::string& what) {
  // yaml-cpp tags a quoted or block scalar "!" and a plain one "?": "0.87" is a string in YAML,
  // and an exercise that says so has a mistake in it, even if the text looks like a number.
  if (n.Tag() != "!") return true;
  error(n, path, id("type"),
        "must be " + what + ", got the quoted string \"" + n.Scalar() + "\" (remove the quotes)");
  return false;
}

bool YamlReader::spend(const YAML::Node& n, const std::string& path, int64_t values) {
  values_read_ += values;
  if (values_read_ <= caps_.max_values) return true;
  if (!budget_reported_)
    error(n, path, id("limit"),
          "the file makes more than " + std::to_string(caps_.max_values) +
              " values (generated numbers count, and an alias counts each time it is used)");
  budget_reported_ = true;
  return false;
}

bool YamlReader::check_free_keys(const YAML::Node& node, const std::string& path) {
  return check_mapping(node, path, nullptr);
}

bool YamlReader::check_keys(const YAML::Node& node, const std::string& path,
                            const std::vector<std::string>& allowed) {
  return check_mapping(node, path, &allowed);
}

bool YamlReader::check_mapping(const YAML::Node& node, const std::string& path,
                               const std::vector<std::string>* allowed) {
  if (!node.IsMap()) {
    error(node, path, id("type"), "must be a mapping");
    return false;
  }
  std::set<std::string> seen;
  for (const auto& kv : node) {
    const std::string key = kv.first.IsScalar() ? kv.first.Scalar() : "";
    const std::string kpath = path.empty() ? key : path + "." + key;
    if (!kv.first.IsScalar()) {
      error(kv.first, path, id("type"), "keys must be plain strings");
      continue;
    }
    if (!seen.insert(key).second) {
      error(kv.first, kpath, id("duplicate_key"), "the key appears twice in this mapping");
      continue;
    }
    if (allowed && std::find(allowed->begin(), allowed->end(), key) == allowed->end()) {
      auto& reported = unknown_keys_[path];
      if (reported.count(key)) continue;
      const std::string guess = did_you_mean(key, *allowed);
      reported.emplace(key, guess);
      error(kv.first, kpath, id("unknown_key"),
            "unknown key" + (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)"));
    }
  }
  return true;
}

std::optional<YAML::Node> YamlReader::require(const YAML::Node& map, const std::string& path,
                                              const std::string& key) {
  if (map.IsMap() && map[key]) {
    if (!map[key].IsNull()) return map[key];
    // `key:` with nothing after it: yaml-cpp places the null at the next token, so point at
    // the key itself.
    for (const auto& kv : map)
      if (kv.first.IsScalar() && kv.first.Scalar() == key)
        error(kv.first, path.empty() ? key : path + "." + key, id("type"), "is empty");
    return std::nullopt;
  }
  if (!misspelt(path, key))
    error(map, path.empty() ? key : path + "." + key, id("missing_key"), "is required");
  return std::nullopt;
}

bool YamlReader::misspelt(const std::string& path, const std::string& key) const {
  const auto it = unknown_keys_.find(path);
  if (it == unknown_keys_.end()) return false;
  for (const auto& [unknown, guess] : it->second)
    if (guess == key) return true;
  return false;
}

std::optional<std::string> YamlReader::string(const YAML::Node& n, const std::string& path) {
  if (!n.IsScalar()) {
    error(n, path, id("type"), "must be a string");
    return std::nullopt;
  }
  spend(n, path, 1);
  return n.Scalar();
}

std::optional<double> YamlReader::number(const YAML::Node& n, const std::string& path) {
  if (!n.IsScalar()) {
    error(n, path, id("type"), "must be a number");
    return std::nullopt;
  }
  if (!spend(n, path, 1) || !plain(n, path, "a number")) return std::nullopt;
  double v = 0;
  if (!YAML::convert<double>::decode(n, v)) {
    error(n, path, id("type"), "must be a number, got '" + n.Scalar() + "'");
    return std::nullopt;
  }
  if (!std::isfinite(v)) {
    error(n, path, id("not_finite"), "must be a finite number, got '" + n.Scalar() + "'");
    return std::nullopt;
  }
  return v;
}

std::optional<int64_t> YamlReader::integer(const YAML::Node& n, const std::string& path, int64_t lo,
                                           int64_t hi, const char* over_id) {
  const auto v = number(n, path);
  if (!v) return std::nullopt;
  // Written as one: 1.0 and 1e3 are numbers that happen to be whole, and a file that means a
  // count or a version spells it in digits.
  const std::string& text = n.Scalar();
  const size_t digits = text.find_first_not_of("+-") == 1 ? 1 : 0;
  const bool spelt =
      text.size() > digits && text.find_first_not_of("0123456789", digits) == std::string::npos;
  if (std::floor(*v) != *v || !spelt) {
    error(n, path, id("type"), "must be a whole number, got '" + text + "'");
    return std::nullopt;
  }
  if (*v < double(lo) || *v > double(hi)) {
    error(n, path, id(*v > double(hi) ? over_id : "value"),
          "must be between " + std::to_string(lo) + " and " + std::to_string(hi));
    return std::nullopt;
  }
  return static_cast<int64_t>(*v);
}

std::optional<bool> YamlReader::boolean(const YAML::Node& n, const std::string& path) {
  bool v = false;
  if (n.IsScalar() && !plain(n, path, "true or false")) return std::nullopt;
  if (!n.IsScalar() || !YAML::convert<bool>::decode(n, v)) {
    error(n, path, id("type"), "must be true or false");
    return std::nullopt;
  }
  return v;
}

std::optional<std::string> YamlReader::word(const YAML::Node& n, const std::string& path,
                                            const std::vector<std::string>& allowed) {
  const auto s = string(n, path);
  if (!s) return std::nullopt;
  if (std::find(allowed.begin(), allowed.end(), *s) != allowed.end()) return s;
  std::string list;
  for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
  const std::string guess = did_you_mean(*s, allowed);
  error(n, path, id("value"),
        "'" + *s + "' is not one of: " + list +
            (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)"));
  return std::nullopt;
}

std::optional<std::vector<double>> YamlReader::vector(const YAML::Node& n, const std::string& path,
                                                      int64_t max_len) {
  if (!n.IsSequence() || n.size() == 0) {
    error(n, path, id("type"), "must be a non-empty list of numbers");
    return std::nullopt;
  }
  if (static_cast<int64_t>(n.size()) > max_len) {
    error(n, path, id("limit"),
          "has " + std::to_string(n.size()) + " entries; the cap is " + std::to_string(max_len));
    return std::nullopt;
  }
  std::vector<double> out;
  bool ok = true;
  for (size_t i = 0; i < n.size(); ++i) {
    const auto v = number(n[i], path + "[" + std::to_string(i) + "]");
    if (!v) {
      ok = false;
      if (budget_reported_) break;
      continue;
    }
    out.push_back(*v);
  }
  return ok ? std::optional(out) : std::nullopt;
}

std::optional<Matrix> YamlReader::matrix(const YAML::Node& n, const std::string& path,
                                         int64_t max_rows, int64_t max_cols) {
  if (!n.IsSequence() || n.size() == 0) {
    error(n, path, id("type"), "must be a non-empty list of rows");
    return std::nullopt;
  }
  if (static_cast<int64_t>(n.size()) > max_rows) {
    error(n, path, id("limit"),
          "has " + std::to_string(n.size()) + " rows; the cap is " + std::to_string(max_rows));
    return std::nullopt;
  }
  Matrix m;
  bool ok = true;
  for (size_t r = 0; r < n.size(); ++r) {
    const std::string rpath = path + "[" + std::to_string(r) + "]";
    const auto row = vector(n[r], rpath, max_cols);
    if (!row) {
      ok = false;
      if (budget_reported_) break;
      continue;
    }
    if (m.cols == 0) m.cols = static_cast<int64_t>(row->size());
    if (static_cast<int64_t>(row->size()) != m.cols) {
      error(n[r], rpath, id("shape"),
            "has " + std::to_string(row->size()) + " values; the first row has " +
                std::to_string(m.cols));
      ok = false;
      continue;
    }
    m.data.insert(m.data.end(), row->begin(), row->end());
    ++m.rows;
  }
  return ok ? std::optional(m) : std::nullopt;
}

std::optional<std::vector<std::string>> YamlReader::strings(const YAML::Node& n,
                                                            const std::string& path,
                                                            int64_t max_len) {
  if (!n.IsSequence() || n.size() == 0) {
    error(n, path, id("type"), "must be a non-empty list of strings");
    return std::nullopt;
  }
  if (static_cast<int64_t>(n.size()) > max_len) {
    error(n, path, id("limit"),
          "has " + std::to_string(n.size()) + " entries; the cap is " + std::to_string(max_len));
    return std::nullopt;
  }
  std::vector<std::string> out;
  for (size_t i = 0; i < n.size(); ++i) {
    const auto s = string(n[i], path + "[" + std::to_string(i) + "]");
    if (!s) return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

}  // namespace awb::core
