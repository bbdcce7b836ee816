// exercise_checks.cpp: exercise files, version 1: the `checks:` half. Each check's keys come
// from its definition in the graders' registry, so a new predicate needs no loader change.
#include <algorithm>
#include <set>

#include "core/exercises/exercise_parse.hpp"

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

namespace {

using grade::CheckKind;
using grade::CheckSpec;

// Reads the kind-specific keys of one check into `spec`.
void read_fields(YamlReader& rd, const YAML::Node& n, const std::string& cp, CheckSpec& spec,
                 const Exercise& ex, const Parameters& effective) {
  const ExerciseCase& c = ex.cases[size_t(spec.case_index)];
  const int64_t T = static_cast<int64_t>(c.tokens.size());
  auto at = [&](const char* k) { return cp + "." + k; };
  auto tok = [&](const char* k, int& field) {
    if (n[k])
      if (auto v = token_ref(rd, n[k], at(k), c)) field = *v;
  };
  tok("query", spec.query);
  tok("key", spec.key);
  tok("than", spec.than);
  tok("to", spec.to);
  if (n["k"])
    if (auto v = rd.integer(n["k"], at("k"), 1, T)) spec.k = int(*v);
  if (n["head"])
    if (auto v = rd.integer(n["head"], at("head"), 0, effective.heads - 1)) spec.head = int(*v);
  if (n["margin"])
    if (auto v = rd.number(n["margin"], at("margin"))) spec.margin = *v;
  if (n["all_rows"])
    if (auto v = rd.boolean(n["all_rows"], at("all_rows"))) spec.all_rows = *v;
  if (n["direction"])
    if (auto v = rd.choice<grade::Direction>(n["direction"], at("direction"))) spec.direction = *v;
  if (n["value"]) {
    if (spec.name == "context_close") {
      if (auto v = rd.vector(n["value"], at("value"), kMaxWidth)) spec.vector_value = *v;
    } else if (auto v = rd.number(n["value"], at("value"))) {
      spec.value = *v;
    }
  }
  if (n["tolerance"]) {
    if (spec.kind == CheckKind::kReference || spec.kind == CheckKind::kGradient) {
      const YAML::Node t = n["tolerance"];
      if (rd.check_keys(t, at("tolerance"), {"atol", "rtol"})) {
        if (t["atol"])
          if (auto v = rd.number(t["atol"], at("tolerance") + ".atol")) spec.tolerance.atol = *v;
        if (t["rtol"])
          if (auto v = rd.number(t["rtol"], at("tolerance") + ".rtol")) spec.tolerance.rtol = *v;
        if (spec.tolerance.atol < 0 || spec.tolerance.rtol < 0)
          rd.error(t, at("tolerance"), rd.id("value"), "atol and rtol must be >= 0");
      }
    } else if (auto v = rd.number(n["tolerance"], at("tolerance"))) {
      if (*v < 0) rd.error(n["tolerance"], at("tolerance"), rd.id("value"), "must be >= 0");
      spec.tol = *v;
    }
  }
  if (n["outputs"]) {
    if (auto list = rd.strings(n["outputs"], at("outputs"), 3)) {
      spec.outputs.clear();
      for (size_t i = 0; i < list->size(); ++i)
        if (auto w = rd.choice<grade::Output>(n["outputs"][i],
                                              at("outputs") + "[" + std::to_string(i) + "]"))
          spec.outputs.push_back(*w);
    }
  }
  if (n["rows"]) {
    const YAML::Node r = n["rows"];
    if (!r.IsSequence() || r.size() == 0 || static_cast<int64_t>(r.size()) > T) {
      rd.error(r, at("rows"), rd.id("type"), "must be a non-empty list of tokens");
    } else {
      for (size_t i = 0; i < r.size(); ++i)
        if (auto v = token_ref(rd, r[i], at("rows") + "[" + std::to_string(i) + "]", c))
          spec.rows.push_back(*v);
    }
  }
  if (n["sweep"]) {
    const YAML::Node s = n["sweep"];
    if (rd.check_keys(s, at("sweep"), {"parameter", "values"})) {
      if (auto p = rd.require(s, at("sweep"), "parameter"))
        if (auto w = rd.word(*p, at("sweep") + ".parameter", {"sharpness"}))
          spec.sweep.parameter = *w;
      if (auto v = rd.require(s, at("sweep"), "values")) {
        if (auto vals = rd.vector(*v, at("sweep") + ".values", kMaxSweep)) {
          spec.sweep.values = *vals;
          if (vals->size() < 2 ||
              std::any_of(vals->begin(), vals->end(), [](double x) { return x <= 0; }))
            rd.error(*v, at("sweep") + ".values", rd.id("value"),
                     "needs at least two sharpness values, each > 0");
        }
      }
    }
  }
  if (n["measure"]) {
    const YAML::Node m = n["measure"];
    if (rd.check_keys(m, at("measure"), {"metric", "query", "key"})) {
      if (auto v = rd.require(m, at("measure"), "metric"))
        if (auto w = rd.word(*v, at("measure") + ".metric", {"entropy", "max_weight", "weight"}))
          spec.measure.metric = *w;
      if (auto q = rd.require(m, at("measure"), "query"))
        if (auto v = token_ref(rd, *q, at("measure") + ".query", c)) spec.measure.query = *v;
      if (m["key"]) {
        if (auto v = token_ref(rd, m["key"], at("measure") + ".key", c)) spec.measure.key = *v;
      } else if (spec.measure.metric == "weight") {
        rd.error(m, at("measure") + ".key", rd.id("missing_key"), "the weight metric needs a key");
      }
    }
  }
}

// Rules that tie a check to its exercise (a mask property without the mask, ...).
void cross_check(YamlReader& rd, const YAML::Node& n, const std::string& cp, const CheckSpec& s,
                 const Exercise& ex, const Parameters& p) {
  const bool needs_causal = s.name == "masked_zero" || s.name == "causal_no_leak";
  if (needs_causal && !p.causal)
    rd.error(n, cp, rd.id("value"), s.name + " needs the causal mask (parameters.causal: true)");
  if (s.name == "permutation_equivariant" && p.causal)
    rd.error(n, cp, rd.id("value"), "permutation_equivariant does not hold with the causal mask");
  if ((s.name == "entropy_below" || s.name == "entropy_above") && s.query < 0 && !s.all_rows)
    rd.error(n, cp, rd.id("missing_key"), "needs query or all_rows: true");
  if (s.layer >= static_cast<int>(ex.layers.size()))
    rd.error(n["layer"], cp + ".layer", rd.id("value"),
             "layer " + std::to_string(s.layer) + " does not exist (the exercise has " +
                 std::to_string(ex.layers.size()) + ")");
}

}  // namespace

void checks(YamlReader& rd, const YAML::Node& n, Exercise& ex) {
  checks(rd, n, "checks", ex, ex.checks);
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
    if (auto v = rd.require(cn, cp, "id")) {
      if (auto s = rd.string(*v, cp + ".id")) {
        spec.id = *s;
        if (!ids.insert(*s).second)
          rd.error(*v, cp + ".id", rd.id("duplicate_id"), "check id '" + *s + "' appears twice");
      }
    }
    const auto kind_node = rd.require(cn, cp, "kind");
    const auto kind =
        kind_node ? rd.choice<CheckKind>(*kind_node, cp + ".kind") : std::nullopt;
    if (!kind) continue;
    spec.kind = *kind;
    std::vector<std::string> keys = grade::common_check_keys();
    if (spec.kind == CheckKind::kReference || spec.kind == CheckKind::kGradient) {
      spec.name = grade::to_string(spec.kind);
    } else {
      const char* selector = spec.kind == CheckKind::kProperty ? "property" : "predicate";
      keys.push_back(selector);
      const auto sel = rd.require(cn, cp, selector);
      if (!sel) continue;
      const auto name = rd.word(*sel, cp + "." + selector, registry.names(spec.kind));
      if (!name) continue;
      spec.name = *name;
    }
    const grade::CheckDef* def = registry.find(spec.kind, spec.name);
    keys.insert(keys.end(), def->required_keys.begin(), def->required_keys.end());
    keys.insert(keys.end(), def->optional_keys.begin(), def->optional_keys.end());
    rd.check_keys(cn, cp, keys);
    for (const auto& k : def->required_keys) rd.require(cn, cp, k);

    if (cn["points"]) {
      if (auto v = rd.number(cn["points"], cp + ".points")) {
        if (*v >= 0)
          spec.points = *v;
        else
          rd.error(cn["points"], cp + ".points", rd.id("value"), "must be >= 0");
      }
    }
    if (cn["hint"])
      if (auto s = rd.string(cn["hint"], cp + ".hint")) spec.hint = *s;
    if (cn["visibility"])
      if (auto w = rd.choice<grade::Visibility>(cn["visibility"], cp + ".visibility"))
        spec.visibility = *w;
    if (cn["scalar"])
      if (auto w = rd.choice<Scalar>(cn["scalar"], cp + ".scalar")) spec.scalar = *w;
    if (ex.cases.empty()) continue;  // no sentence loaded: tokens cannot be resolved
    spec.case_id = ex.cases.front().id;
    if (cn["case"]) {
      if (auto s = rd.string(cn["case"], cp + ".case")) {
        const auto it = std::find_if(ex.cases.begin(), ex.cases.end(),
                                     [&](const ExerciseCase& c) { return c.id == *s; });
        if (it == ex.cases.end()) {
          std::vector<std::string> names;
          for (const auto& c : ex.cases) names.push_back(c.id);
          const std::string guess = did_you_mean(*s, names);
          rd.error(cn["case"], cp + ".case", rd.id("unknown_case"),
                   "no case '" + *s + "'" +
                       (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)"));
          continue;
        }
        spec.case_index = static_cast<int>(it - ex.cases.begin());
        spec.case_id = *s;
      }
    }
    if (cn["layer"])
      if (auto v = rd.integer(cn["layer"], cp + ".layer", 0, kMaxLayers - 1)) spec.layer = int(*v);
    if (cn["parameters"]) spec.parameters = parameters(rd, cn["parameters"], cp + ".parameters");
    Parameters effective = ex.parameters;
    spec.parameters.apply(effective);
    read_fields(rd, cn, cp, spec, ex, effective);
    cross_check(rd, cn, cp, spec, ex, effective);
    out.push_back(std::move(spec));
  }
}

}  // namespace awb::core::parse
