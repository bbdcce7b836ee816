// param_options.cpp: the --param option.
#include "cli/param_options.hpp"

#include <algorithm>
#include <sstream>

#include "core/base/did_you_mean.hpp"
#include "core/plugins/reference_forward.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {

CLI::Option* add_param_option(CLI::App* cmd, std::vector<std::string>* assignments, bool sweep) {
  const std::string help =
      sweep ? "A variant parameter, name=value or name=v1,v2,... to sweep it (repeatable; "
              "`awb plugins` lists each variant's parameters)"
            : "A variant parameter, name=value (repeatable; overrides the exercise's or problem's "
              "variant.params; `awb plugins` lists each variant's parameters)";
  return cmd->add_option("--param", *assignments, help)->type_name("NAME=VALUE");
}

void apply_params(ParamValues& values, const std::vector<std::string>& assignments) {
  for (const auto& a : assignments) add_param_assignment(values, a);
}

namespace {

// " (did you mean 'window'?)" for the closest of `known`; else, for a research family's
// parameter, the closest of those, saying whose it is (a misspelt window on a softmax exercise).
std::string closest(const std::string& name, const std::vector<std::string>& known) {
  if (std::string note = core::did_you_mean_note(name, known); !note.empty()) return note;
  for (const auto& [family, family_name] : kFamilyNames) {
    std::vector<std::string> names;
    for (const auto& d : core::reference_params(family).decls) names.push_back(d.name);
    if (const std::string guess = core::did_you_mean(name, names); !guess.empty())
      return " (did you mean '" + guess + "'? a parameter of " + family_name +
             " attention, which nothing here computes)";
  }
  return "";
}

}  // namespace

void check_params(const std::vector<std::string>& assignments,
                  const std::vector<ParamTaker>& takers, const std::string& what, bool sweep) {
  std::vector<std::string> known;
  std::string declared;  // "window (sliding-window), feature_map (linear)"
  for (const auto& t : takers)
    for (const auto& d : *t.decls) {
      if (std::find(known.begin(), known.end(), d.name) == known.end()) known.push_back(d.name);
      declared += (declared.empty() ? "" : ", ") + d.name + " (" + t.name + ")";
    }
  ParamValues seen;
  for (const std::string& a : assignments) {
    ParamValues one;
    add_param_assignment(one, a);  // param.syntax
    const auto& [name, text] = *one.begin();
    // The later of two values was taken silently: a typo in a long command line.
    if (const auto before = seen.find(name); before != seen.end())
      throw Error(
          "param.usage", "--param " + a,
          "'" + name + "' is already set (" + name + "=" + before->second +
              "); give each parameter once" +
              (sweep ? " (a list sweeps it: " + name + "=" + before->second + "," + text + ")"
                     : ""));
    seen[name] = text;
    std::vector<std::string> values;
    if (sweep) {
      std::stringstream ss(text);
      for (std::string v; std::getline(ss, v, ',');) values.push_back(v);
    } else {
      values.push_back(text);
    }
    bool taken = false;
    for (const auto& t : takers) {
      const auto decl = std::find_if(t.decls->begin(), t.decls->end(),
                                     [&](const ParamDecl& d) { return d.name == name; });
      if (decl == t.decls->end()) continue;
      taken = true;
      for (const std::string& v : values) {
        try {
          resolve_params({*decl}, {{name, v}}, t.name);
        } catch (const Error& e) {
          throw Error("param.usage", "--param " + a, e.message());
        }
      }
    }
    if (!taken)
      throw Error("param.usage", "--param " + a,
                  "no " + what + " declares a parameter '" + name + "'" + closest(name, known) +
                      (declared.empty() ? "; none of them takes parameters"
                                        : "; they declare: " + declared));
  }
}

VariantSpec parse_variant_spec(const std::string& text) {
  VariantSpec spec;
  spec.text = text;
  const auto at = text.find('@');
  spec.id = text.substr(0, at);
  if (spec.id.empty())
    throw Error("param.syntax", "--variant " + text, "no variant id before the '@'");
  if (at == std::string::npos) return spec;
  std::stringstream ss(text.substr(at + 1));
  for (std::string a; std::getline(ss, a, ',');) {
    ParamValues one;
    try {
      add_param_assignment(one, a);
    } catch (const Error&) {
      throw Error("param.syntax", "--variant " + text,
                  "after the '@' come name=value pairs separated by commas (" + spec.id +
                      "@window=2), not '" + a + "'");
    }
    if (spec.values.count(one.begin()->first))
      throw Error("param.syntax", "--variant " + text, "'" + one.begin()->first + "' is set twice");
    spec.values.insert(*one.begin());
  }
  if (spec.values.empty())
    throw Error("param.syntax", "--variant " + text, "nothing after the '@'");
  return spec;
}

void check_spec_params(const VariantSpec& spec, const std::vector<ParamDecl>& decls) {
  try {
    resolve_params(decls, spec.values, spec.id);
  } catch (const Error& e) {
    throw Error("param.usage", "--variant " + spec.text, e.message());
  }
}

}  // namespace awb::cli
