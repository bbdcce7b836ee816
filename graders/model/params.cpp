// params.cpp: checking declarations, and parsing values against them.
#include "graders/model/params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "graders/model/error.hpp"

namespace awb {
namespace {

bool valid_name(const std::string& s, bool choice) {
  if (s.empty() || s.size() > 64) return false;
  for (char c : s) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' ||
                    (choice && (c == '+' || c == '-'));
    if (!ok) return false;
  }
  return true;
}

std::string number_text(double v) {
  char buf[32];
  if (v == std::floor(v) && std::fabs(v) < 1e15) {  // integers as integers, never "1e+02"
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  std::snprintf(buf, sizeof buf, "%.17g", v);
  // The shortest text that reads back as the same double.
  for (int digits = 1; digits <= 17; ++digits) {
    char shorter[32];
    std::snprintf(shorter, sizeof shorter, "%.*g", digits, v);
    if (std::strtod(shorter, nullptr) == v) return shorter;
  }
  return buf;
}

std::string range_text(const ParamDecl& d) {
  if (d.type == ParamType::kBool) return "true or false";
  if (d.type == ParamType::kEnum) {
    std::string s;
    for (const auto& c : d.choices) s += (s.empty() ? "" : " | ") + c;
    return s;
  }
  return number_text(d.min_value) + " to " + number_text(d.max_value);
}

double parse_value(const ParamDecl& d, const std::string& text, const std::string& owner) {
  auto invalid = [&](const std::string& why) {
    return Error("param.invalid", owner + ": parameter '" + d.name + "' = '" + text + "': " + why +
                                      " (" + to_string(d.type) + ", " + range_text(d) + ")");
  };
  switch (d.type) {
    case ParamType::kBool:
      if (text == "true" || text == "1") return 1;
      if (text == "false" || text == "0") return 0;
      throw invalid("not a boolean");
    case ParamType::kEnum:
      for (size_t i = 0; i < d.choices.size(); ++i)
        if (d.choices[i] == text) return static_cast<double>(i);
      throw invalid("not one of the choices");
    case ParamType::kInt:
    case ParamType::kFloat: {
      char* end = nullptr;
      const double v = std::strtod(text.c_str(), &end);
      if (text.empty() || *end != '\0' || !std::isfinite(v)) throw invalid("not a number");
      if (d.type == ParamType::kInt && v != std::floor(v)) throw invalid("not an integer");
      if (v < d.min_value || v > d.max_value) throw invalid("out of range");
      return v;
    }
  }
  throw invalid("unknown type");
}

}  // namespace

std::string invalid_declarations(const std::vector<ParamDecl>& decls) {
  if (decls.size() > kMaxParams)
    return std::to_string(decls.size()) + " parameters (at most " + std::to_string(kMaxParams) +
           ")";
  std::set<std::string> seen;
  for (const auto& d : decls) {
    const std::string where = "parameter '" + d.name + "'";
    if (!valid_name(d.name, false)) return where + ": the name must be 1-64 of [a-z0-9_]";
    if (!seen.insert(d.name).second) return where + " is declared twice";
    const double v = d.default_value;
    switch (d.type) {
      case ParamType::kInt:
      case ParamType::kFloat:
        if (!std::isfinite(d.min_value) || !std::isfinite(d.max_value) || d.min_value > d.max_value)
          return where + ": the range " + range_text(d) + " is empty or not finite";
        if (!(v >= d.min_value && v <= d.max_value))
          return where + ": the default " + number_text(v) + " is outside " + range_text(d);
        if (d.type == ParamType::kInt &&
            (v != std::floor(v) || d.min_value != std::floor(d.min_value) ||
             d.max_value != std::floor(d.max_value)))
          return where + ": an int parameter needs integral default and range";
        break;
      case ParamType::kBool:
        if (v != 0 && v != 1) return where + ": a bool's default must be 0 or 1";
        break;
      case ParamType::kEnum: {
        if (d.choices.empty()) return where + ": an enum needs at least one choice";
        std::set<std::string> names;
        for (const auto& c : d.choices) {
          if (!valid_name(c, true))
            return where + ": choice '" + c + "' must be 1-64 of [a-z0-9_+-]";
          if (!names.insert(c).second) return where + ": choice '" + c + "' appears twice";
        }
        if (v != std::floor(v) || v < 0 || v >= static_cast<double>(d.choices.size()))
          return where + ": the default index " + number_text(v) + " is not a choice";
        break;
      }
      default:
        return where + ": unknown type " + std::to_string(static_cast<int>(d.type));
    }
  }
  return {};
}

std::vector<double> resolve_params(const std::vector<ParamDecl>& decls, const ParamValues& values,
                                   const std::string& owner, bool strict) {
  if (strict) {
    for (const auto& [name, text] : values) {
      bool known = false;
      for (const auto& d : decls) known = known || d.name == name;
      if (known) continue;
      std::string declared;
      for (const auto& d : decls) declared += (declared.empty() ? "" : ", ") + d.name;
      throw Error("param.unknown",
                  owner + " declares no parameter '" + name + "'" +
                      (declared.empty() ? "; it takes none" : "; it takes: " + declared));
    }
  }
  std::vector<double> out;
  out.reserve(decls.size());
  for (const auto& d : decls) {
    auto it = values.find(d.name);
    out.push_back(it == values.end() ? d.default_value : parse_value(d, it->second, owner));
  }
  return out;
}

std::string param_text(const ParamDecl& decl, double number) {
  switch (decl.type) {
    case ParamType::kBool:
      return number != 0 ? "true" : "false";
    case ParamType::kEnum: {
      const auto i = static_cast<size_t>(number);
      return i < decl.choices.size() ? decl.choices[i] : number_text(number);
    }
    default:
      return number_text(number);
  }
}

std::string params_text(const std::vector<ParamDecl>& decls, const std::vector<double>& values) {
  std::string s;
  for (size_t i = 0; i < decls.size() && i < values.size(); ++i)
    s += (s.empty() ? "" : ", ") + decls[i].name + "=" + param_text(decls[i], values[i]);
  return s;
}

ParamValues canonical_params(const std::vector<ParamDecl>& decls, const ParamValues& values,
                             const std::string& owner, bool strict) {
  const std::vector<double> numbers = resolve_params(decls, values, owner, strict);
  ParamValues out;
  for (size_t i = 0; i < decls.size(); ++i) out[decls[i].name] = param_text(decls[i], numbers[i]);
  return out;
}

std::string params_label(const std::vector<ParamDecl>& decls, const ParamValues& canonical) {
  std::string s;
  for (const auto& d : decls)
    if (const auto it = canonical.find(d.name); it != canonical.end())
      s += (s.empty() ? "" : ",") + d.name + "=" + it->second;
  return s;
}

std::string describe(const ParamDecl& d) {
  std::string s = d.name + " (" + to_string(d.type) + ", ";
  if (d.type != ParamType::kBool) s += range_text(d) + ", ";
  s += "default " + param_text(d, d.default_value) + ")";
  if (!d.doc.empty()) s += ": " + d.doc;
  return s;
}

void add_param_assignment(ParamValues& values, const std::string& assignment) {
  const auto eq = assignment.find('=');
  if (eq == std::string::npos || eq == 0 || eq + 1 == assignment.size())
    throw Error("param.syntax",
                "--param takes name=value (e.g. window=16), not '" + assignment + "'");
  values[assignment.substr(0, eq)] = assignment.substr(eq + 1);
}

std::vector<ParamDecl> to_decls(const awb_param_decl* const* params, size_t count) {
  std::vector<ParamDecl> out;
  for (size_t i = 0; i < count; ++i) {
    const awb_param_decl& p = *params[i];
    ParamDecl d{p.name ? p.name : "",
                static_cast<ParamType>(p.type),
                p.doc ? p.doc : "",
                p.default_value,
                p.min_value,
                p.max_value,
                {}};
    for (size_t c = 0; c < p.n_choices; ++c) d.choices.emplace_back(p.choices[c]);
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace awb
