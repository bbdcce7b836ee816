// template_text.cpp: keeps the SDK template's chosen regions and fills in its placeholders.
#include "core/plugin_project/template_text.hpp"

#include <algorithm>
#include <optional>
#include <sstream>

#include "core/base/did_you_mean.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

constexpr std::string_view kMarker = "awb-template:";

std::string_view trim(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::vector<std::string> words(std::string_view s) {
  std::istringstream in{std::string(s)};
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The words of a marker line ("if", "kind", "qkv"), or nothing for a line that is no marker.
// Throws for a line that names the marker but is not one: the marker inside other text, or
// without its comment syntax.
std::optional<std::vector<std::string>> marker_words(std::string_view line,
                                                     const std::string& where) {
  if (line.find(kMarker) == std::string_view::npos) return std::nullopt;
  std::string_view rest = trim(line);
  bool html = false;
  if (rest.starts_with("//")) {
    rest.remove_prefix(2);
  } else if (rest.starts_with("<!--")) {
    rest.remove_prefix(4);
    html = true;
  } else if (rest.starts_with("#")) {
    rest.remove_prefix(1);
  } else {
    throw Error("template.invalid", where,
                "a marker must be a line of its own, in a comment: // # or <!-- -->");
  }
  rest = trim(rest);
  if (html) {
    if (!rest.ends_with("-->"))
      throw Error("template.invalid", where, "a <!-- marker must end with -->");
    rest = trim(rest.substr(0, rest.size() - 3));
  }
  if (!rest.starts_with(kMarker))
    throw Error("template.invalid", where,
                "a marker must be a line of its own, in a comment: // # or <!-- -->");
  rest.remove_prefix(kMarker.size());
  return words(rest);
}

// One open `if`: whether its condition holds, and whether its `else` was seen.
struct Region {
  bool holds;
  bool in_else = false;
  std::string opened_at;
  bool taken() const { return holds != in_else; }
};

bool condition(const std::vector<std::string>& w, const TemplateChoice& choice,
               const std::string& where) {
  if (w.size() == 2 && w[1] == "starter") return choice.starter;
  if (w.size() == 2 && w[1] == "solution") return !choice.starter;
  if (w.size() >= 3 && w[1] == "kind") {
    for (std::size_t i = 2; i < w.size(); ++i)
      if (std::find(choice.kinds.begin(), choice.kinds.end(), w[i]) == choice.kinds.end())
        throw Error("template.invalid", where,
                    "unknown kind '" + w[i] + "'" + did_you_mean_note(w[i], choice.kinds));
    return std::find(w.begin() + 2, w.end(), choice.kind) != w.end();
  }
  throw Error("template.invalid", where,
              "'if' takes 'starter', 'solution' or 'kind' and one or more kinds");
}

bool is_placeholder_name(std::string_view s) {
  return !s.empty() &&
         std::all_of(s.begin(), s.end(), [](char c) { return (c >= 'a' && c <= 'z') || c == '_'; });
}

// The line with every @name@ replaced; an @word@ that names no placeholder is an error.
std::string fill(std::string_view line, const TemplateChoice& choice, const std::string& where) {
  std::string out;
  std::size_t i = 0;
  while (i < line.size()) {
    const std::size_t at = line.find('@', i);
    const std::size_t close = at == std::string_view::npos ? at : line.find('@', at + 1);
    if (close == std::string_view::npos) break;
    const std::string_view name = line.substr(at + 1, close - at - 1);
    if (!is_placeholder_name(name)) {  // an @ of the text itself ("a@b.c")
      out.append(line.substr(i, at + 1 - i));
      i = at + 1;
      continue;
    }
    const auto it = choice.placeholders.find(std::string(name));
    if (it == choice.placeholders.end()) {
      std::vector<std::string> known;
      for (const auto& [key, value] : choice.placeholders) known.push_back(key);
      throw Error("template.invalid", where,
                  "unknown placeholder @" + std::string(name) + "@" +
                      did_you_mean_note(std::string(name), known));
    }
    out.append(line.substr(i, at - i)).append(it->second);
    i = close + 1;
  }
  out.append(line.substr(std::min(i, line.size())));
  return out;
}

}  // namespace

std::string render_template(std::string_view text, const TemplateChoice& choice,
                            const std::string& file) {
  std::vector<Region> open;
  std::string out;
  std::size_t start = 0;
  for (int number = 1; start <= text.size(); ++number) {
    std::size_t end = text.find('\n', start);
    const bool last = end == std::string_view::npos;
    if (last) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    const std::string where = file + ":" + std::to_string(number);
    if (const auto w = marker_words(line, where)) {
      const std::string verb = w->empty() ? "" : w->front();
      if (verb == "if") {
        open.push_back({condition(*w, choice, where), false, where});
      } else if (verb == "else" && w->size() == 1) {
        if (open.empty() || open.back().in_else)
          throw Error("template.invalid", where, "'else' without its 'if'");
        open.back().in_else = true;
      } else if (verb == "end" && w->size() == 1) {
        if (open.empty()) throw Error("template.invalid", where, "'end' without its 'if'");
        open.pop_back();
      } else {
        throw Error("template.invalid", where, "a marker is 'if ...', 'else' or 'end'");
      }
    } else if (std::all_of(open.begin(), open.end(), [](const Region& r) { return r.taken(); })) {
      out += fill(line, choice, where);
      if (!last) out += '\n';
    }
    if (last) break;
    start = end + 1;
  }
  if (!open.empty())
    throw Error("template.invalid", open.back().opened_at, "this 'if' has no 'end'");
  return out;
}

}  // namespace awb::core
