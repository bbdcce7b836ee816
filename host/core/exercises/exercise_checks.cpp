// exercise_checks.cpp: exercise files, version 1: the `checks:` half. Each check's keys come
// from its definition in the graders' registry, so a new predicate needs no loader change.
#include <algorithm>
#include <set>
#include <stdexcept>

#include "core/exercises/exercise_parse.hpp"
#include "graders/report/format.hpp"

namespace awb::core::parse {

std::optional<int> token_ref(YamlReader& rd, const YAML::Node& n, const std::string& path,
                             const ExerciseCase& c) {
  if (!n.IsScalar()) {
    rd.error(n, path, rd.id("type"), "must be a token or a token index");
    return std::nullopt;
  }
  const auto it = std::find(c.tokens.begin(), c.tokens.end(), n.Scalar());
  if (it != c.tokens.end()) return static_cast<int>(it - c.tokens.begin());
  int64_t index = 0;
  if (YAML::convert<int64_t>::decode(n, index)) {
    if (index >= 0 && index < static_cast<int64_t>(c.tokens.size())) return static_cast<int>(index);
    rd.error(n, path, rd.id("unknown_token"),
             "index " + n.Scalar() + " is outside the " + std::to_string(c.tokens.size()) +
                 " tokens of case '" + c.id + "'");
    return std::nullopt;
  }
  const std::string guess = did_you_mean(n.Scalar(), c.tokens);
  rd.error(n, path, rd.id("unknown_token"),
           "'" + n.Scalar() + "' is not a token of case '" + c.id + "'" +
               (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)"));
  return std::nullopt;
}

std::optional<int> case_ref(YamlReader& rd, const YAML::Node& n, const std::string& path,
                            const Exercise& ex) {
  const auto s = rd.string(n, path);
  if (!s) return std::nullopt;
  const auto it = std::find_if(ex.cases.begin(), ex.cases.end(),
                               [&](const ExerciseCase& c) { return c.id == *s; });
  if (it != ex.cases.end()) return static_cast<int>(it - ex.cases.begin());
  std::vector<std::string> names;
  for (const auto& c : ex.cases) names.push_back(c.id);
  const std::string guess = did_you_mean(*s, names);
  rd.error(n, path, rd.id("unknown_case"),
           "no case '" + *s + "'" +
               (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)"));
  return std::nullopt;
}

namespace {

using grade::CheckKind;
using grade::CheckSpec;

using grade::CheckKey;
using grade::KeyType;

// Where a token or number key lands in a CheckSpec; the other types have one field each.
int& token_field(CheckSpec& spec, const std::string& name) {
  if (name == "query") return spec.query;
  if (name == "key") return spec.key;
  if (name == "than") return spec.than;
  if (name == "to") return spec.to;
  throw std::logic_error("check key '" + name + "' is a token with no field in CheckSpec");
}

double& number_field(CheckSpec& spec, const std::string& name) {
  if (name == "value") return spec.value;
  if (name == "margin") return spec.margin;
  throw std::logic_error("check key '" + name + "' is a number with no field in CheckSpec");
}

// Everything reading one check's keys needs: the reader, the check's node and path, its case,
// and the parameters it runs with (which bound `head`).
struct CheckReading {
  YamlReader& rd;
  const YAML::Node& n;
  const std::string& cp;
  const ExerciseCase& c;
  const Parameters& effective;
};

void read_tolerance(CheckReading& r, const YAML::Node& t, const std::string& path,
                    grade::F64Tolerance& tol) {
  YamlReader& rd = r.rd;
  if (!rd.check_keys(t, path, {"atol", "rtol"})) return;
  if (t["atol"])
    if (auto v = rd.number(t["atol"], path + ".atol")) tol.atol = *v;
  if (t["rtol"])
    if (auto v = rd.number(t["rtol"], path + ".rtol")) tol.rtol = *v;
  if (tol.atol < 0 || tol.rtol < 0) rd.error(t, path, rd.id("value"), "atol and rtol must be >= 0");
}

void read_sweep(CheckReading& r, const YAML::Node& s, const std::string& path, grade::Sweep& out) {
  YamlReader& rd = r.rd;
  if (!rd.check_keys(s, path, {"parameter", "values"})) return;
  if (auto p = rd.require(s, path, "parameter"))
    if (auto w = rd.word(*p, path + ".parameter", {"sharpness"})) out.parameter = *w;
  if (auto v = rd.require(s, path, "values")) {
    if (auto vals = rd.vector(*v, path + ".values", kMaxSweep)) {
      out.values = *vals;
      if (vals->size() < 2 ||
          std::any_of(vals->begin(), vals->end(), [](double x) { return x <= 0; }))
        rd.error(*v, path + ".values", rd.id("value"),
                 "needs at least two sharpness values, each > 0");
    }
  }
}

void read_measure(CheckReading& r, const YAML::Node& m, const std::string& path,
                  grade::Measure& out) {
  YamlReader& rd = r.rd;
  if (!rd.check_keys(m, path, {"metric", "query", "key"})) return;
  if (auto v = rd.require(m, path, "metric"))
    if (auto w = rd.word(*v, path + ".metric", {"entropy", "max_weight", "weight"}))
      out.metric = *w;
  if (auto q = rd.require(m, path, "query"))
    if (auto v = token_ref(rd, *q, path + ".query", r.c)) out.query = *v;
  if (m["key"]) {
    if (auto v = token_ref(rd, m["key"], path + ".key", r.c)) out.key = *v;
  } else if (out.metric == "weight") {
    rd.error(m, path + ".key", rd.id("missing_key"), "the weight metric needs a key");
  }
}

// Reads one of the check's own keys, present in the file, as its definition types it.
void read_key(CheckReading& r, const CheckKey& key, CheckSpec& spec) {
  YamlReader& rd = r.rd;
  const YAML::Node v = r.n[key.name];
  const std::string path = r.cp + "." + key.name;
  const int64_t T = static_cast<int64_t>(r.c.tokens.size());
  switch (key.type) {
    case KeyType::kToken:
      if (auto t = token_ref(rd, v, path, r.c)) token_field(spec, key.name) = *t;
      break;
    case KeyType::kTokenList:
      if (!v.IsSequence() || v.size() == 0 || static_cast<int64_t>(v.size()) > T) {
        rd.error(v, path, rd.id("type"), "must be a non-empty list of tokens");
      } else {
        for (size_t i = 0; i < v.size(); ++i)
          if (auto t = token_ref(rd, v[i], path + "[" + std::to_string(i) + "]", r.c))
            spec.rows.push_back(*t);
      }
      break;
    case KeyType::kCount:
      if (auto n = rd.integer(v, path, 1, T)) spec.k = int(*n);
      break;
    case KeyType::kHead:
      if (auto n = rd.integer(v, path, 0, r.effective.heads - 1)) spec.head = int(*n);
      break;
    case KeyType::kNumber:
      if (auto n = rd.number(v, path)) number_field(spec, key.name) = *n;
      break;
    case KeyType::kVector:
      if (auto vec = rd.vector(v, path, kMaxWidth)) spec.vector_value = *vec;
      break;
    case KeyType::kBoolean:
      if (auto b = rd.boolean(v, path)) spec.all_rows = *b;
      break;
    case KeyType::kDirection:
      if (auto w = rd.word(v, path, {"increasing", "decreasing"}))
        spec.direction =
            *w == "increasing" ? grade::Direction::kIncreasing : grade::Direction::kDecreasing;
      break;
    case KeyType::kOutputs:
      if (auto list = rd.strings(v, path, 3)) {
        spec.outputs.clear();
        for (size_t i = 0; i < list->size(); ++i)
          if (auto w = rd.word(v[i], path + "[" + std::to_string(i) + "]",
                               {"weights", "scores", "context"}))
            spec.outputs.push_back(*w == "weights"  ? grade::Output::kWeights
                                   : *w == "scores" ? grade::Output::kScores
                                                    : grade::Output::kContext);
      }
      break;
    case KeyType::kAbsTolerance:
      if (auto n = rd.number(v, path)) {
        if (*n < 0) rd.error(v, path, rd.id("value"), "must be >= 0");
        spec.tolerance = {.atol = *n, .rtol = 0};
      }
      break;
    case KeyType::kTolerance:
      read_tolerance(r, v, path, spec.tolerance);
      break;
    case KeyType::kSweep:
      read_sweep(r, v, path, spec.sweep);
      break;
    case KeyType::kMeasure:
      read_measure(r, v, path, spec.measure);
      break;
  }
}

// The order a check's own keys are read in, so that one check's problems are listed in the same
// order whatever order its definition declares them in; a key not named here is read after.
const std::vector<std::string> kReadOrder = {
    "query",     "key",   "than",      "to",      "k",    "head",  "margin", "all_rows",
    "direction", "value", "tolerance", "outputs", "rows", "sweep", "measure"};

// Reads the check's own keys (its definition's) into `spec`.
void read_fields(CheckReading& r, const grade::CheckDef& def, CheckSpec& spec) {
  for (const auto& name : kReadOrder)
    if (const CheckKey* key = def.key(name); key && r.n[name]) read_key(r, *key, spec);
  for (const auto& key : def.keys)
    if (std::find(kReadOrder.begin(), kReadOrder.end(), key.name) == kReadOrder.end() &&
        r.n[key.name])
      read_key(r, key, spec);
}

// Rules that tie a check to its exercise, as its definition declares them.
void cross_check(YamlReader& rd, const YAML::Node& n, const std::string& cp,
                 const grade::CheckDef& def, const CheckSpec& s, const Exercise& ex,
                 const Parameters& p) {
  if (def.needs_causal && !p.causal)
    rd.error(n, cp, rd.id("value"), s.name + " needs the causal mask (parameters.causal: true)");
  if (def.forbids_causal && p.causal)
    rd.error(n, cp, rd.id("value"), s.name + " does not hold with the causal mask");
  if (def.needs_query_or_all_rows && s.query < 0 && !s.all_rows)
    rd.error(n, cp, rd.id("missing_key"), "needs query or all_rows: true");
  if (s.layer >= static_cast<int>(ex.layers.size()))
    rd.error(n["layer"], cp + ".layer", rd.id("value"),
             "layer " + std::to_string(s.layer) + " does not exist (the exercise has " +
                 std::to_string(ex.layers.size()) + ")");
}

// The check's name within its kind: the value of the kind's selector key (`predicate:`,
// `property:`, ...), or the kind itself for a kind with one check. `keys` gains the selector.
// Nothing (an error said) when it is missing or names no check of the kind.
std::optional<std::string> check_name(YamlReader& rd, const YAML::Node& cn, const std::string& cp,
                                      CheckKind kind, std::vector<std::string>& keys) {
  const auto& registry = grade::Registry::instance();
  const std::string selector(check_selector(kind));
  if (selector.empty()) return std::string(grade::to_string(kind));
  keys.push_back(selector);
  if (!cn[selector]) {
    // A misspelt selector (`predicat:`) is reported as the typo, not as a missing key: the keys
    // of every check of this kind are allowed for now, so only a stranger is unknown.
    std::vector<std::string> any = keys;
    for (const auto& name : registry.names(kind))
      for (const auto& k : registry.find(kind, name)->keys) any.push_back(k.name);
    rd.check_keys(cn, cp, any);
  }
  const auto sel = rd.require(cn, cp, selector);
  if (!sel) return std::nullopt;
  return rd.word(*sel, cp + "." + selector, registry.names(kind));
}

// The keys every check may have: points, hint, visibility, scalar.
void read_common_keys(YamlReader& rd, const YAML::Node& cn, const std::string& cp,
                      CheckSpec& spec) {
  if (cn["points"]) {
    if (auto v = rd.number(cn["points"], cp + ".points")) {
      if (*v < 0)
        rd.error(cn["points"], cp + ".points", rd.id("value"), "must be >= 0");
      else if (*v > kMaxPoints)
        rd.error(cn["points"], cp + ".points", rd.id("value"),
                 "must be at most " + grade::format_points(kMaxPoints));
      else
        spec.points = *v;
    }
  }
  if (cn["hint"])
    if (auto s = rd.string(cn["hint"], cp + ".hint")) spec.hint = *s;
  if (cn["visibility"])
    if (auto w = rd.choice<grade::Visibility>(cn["visibility"], cp + ".visibility"))
      spec.visibility = *w;
  if (cn["scalar"])
    if (auto w = rd.choice<Scalar>(cn["scalar"], cp + ".scalar")) spec.scalar = *w;
}

}  // namespace

void checks(YamlReader& rd, const YAML::Node& n, Exercise& ex) {
  checks(rd, n, "checks", ex, ex.checks);
  if (ex.max_points() > kMaxPoints)
    rd.error(n, "checks", rd.id("value"),
             "the checks' points add up to " + grade::format_points(ex.max_points()) +
                 "; at most " + grade::format_points(kMaxPoints) + " are allowed");
}

void checks(YamlReader& rd, const YAML::Node& n, const std::string& path, const Exercise& ex,
            std::vector<grade::CheckSpec>& out) {
  if (!n.IsSequence() || n.size() == 0) {
    rd.error(n, path, rd.id("type"), "must be a non-empty list of checks");
    return;
  }
  if (static_cast<int64_t>(n.size()) > kMaxChecks) {
    rd.error(n, path, rd.id("limit"), std::to_string(n.size()) + " checks; the cap is 256");
    return;
  }
  const auto& registry = grade::Registry::instance();
  std::set<std::string> ids;
  for (size_t i = 0; i < n.size(); ++i) {
    const YAML::Node cn = n[i];
    const std::string cp = path + "[" + std::to_string(i) + "]";
    if (!cn.IsMap()) {
      rd.error(cn, cp, rd.id("type"), "must be a mapping");
      continue;
    }
    CheckSpec spec;
    // The id first: a check that fails later still claims it, so a repeat is reported.
    if (auto v = section_key(rd, cn, cp, Section::kCheck, "id")) {
      if (auto s = rd.string(*v, cp + ".id")) {
        spec.id = *s;
        if (!ids.insert(*s).second)
          rd.error(*v, cp + ".id", rd.id("duplicate_id"), "check id '" + *s + "' appears twice");
      }
    }
    const auto kind_node = section_key(rd, cn, cp, Section::kCheck, "kind");
    const auto kind = kind_node ? rd.choice<CheckKind>(*kind_node, cp + ".kind") : std::nullopt;
    if (!kind) continue;
    spec.kind = *kind;
    std::vector<std::string> keys = key_names(Section::kCheck);
    const auto name = check_name(rd, cn, cp, spec.kind, keys);
    if (!name) continue;
    spec.name = *name;
    const grade::CheckDef* def = registry.find(spec.kind, spec.name);
    for (const auto& k : def->keys) keys.push_back(k.name);
    rd.check_keys(cn, cp, keys);
    for (const auto& k : def->keys)
      if (k.required) rd.require(cn, cp, k.name);
    read_common_keys(rd, cn, cp, spec);
    if (ex.cases.empty()) continue;  // no sentence loaded: tokens cannot be resolved
    spec.case_id = ex.cases.front().id;
    if (cn["case"]) {
      const auto c = case_ref(rd, cn["case"], cp + ".case", ex);
      if (!c) {
        if (cn["case"].IsScalar()) continue;  // an unknown case; after a type error, read on
      } else {
        spec.case_index = *c;
        spec.case_id = ex.cases[size_t(*c)].id;
      }
    }
    if (cn["layer"])
      if (auto v = rd.integer(cn["layer"], cp + ".layer", 0, kMaxLayers - 1)) spec.layer = int(*v);
    if (cn["parameters"]) spec.parameters = parameters(rd, cn["parameters"], cp + ".parameters");
    Parameters effective = ex.parameters;
    spec.parameters.apply(effective);
    CheckReading reading{rd, cn, cp, ex.cases[size_t(spec.case_index)], effective};
    read_fields(reading, *def, spec);
    cross_check(rd, cn, cp, *def, spec, ex, effective);
    out.push_back(std::move(spec));
  }
}

}  // namespace awb::core::parse
