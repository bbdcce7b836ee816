// exercise_loader.cpp: exercise files, version 1: the data half (tokens, embeddings, positions,
// weights, layers, parameters, limits, cases) and the files-and-folders entry points.
#include <algorithm>
#include <fstream>
#include <limits>
#include <map>
#include <new>
#include <set>
#include <tuple>

#include "core/base/install_paths.hpp"
#include "core/base/sha256.hpp"
#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_keys.hpp"
#include "core/exercises/exercise_parse.hpp"
#include "core/exercises/seeded.hpp"
#include "core/plugins/capabilities.hpp"
#include "core/plugins/reference_forward.hpp"

namespace awb::core {
namespace {

using namespace parse;

bool valid_id(const std::string& s) {
  return !s.empty() && s.size() <= 64 && std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-';
  });
}

std::optional<LayerWeights> weights(YamlReader& rd, const YAML::Node& n, const std::string& path) {
  if (!check_section(rd, n, path, Section::kWeights)) return std::nullopt;
  LayerWeights w;
  bool ok = true;
  for (auto [key, field] :
       {std::pair{"w_q", &w.w_q}, {"w_k", &w.w_k}, {"w_v", &w.w_v}, {"w_o", &w.w_o}}) {
    if (!n[key]) continue;
    *field = weight_matrix(rd, n[key], path + "." + key);
    ok = ok && field->has_value();
  }
  if (ok && !(w.w_q && w.w_k && w.w_v)) {
    rd.error(n, path, rd.id("missing_key"), "w_q, w_k and w_v come together: give all three");
    ok = false;
  }
  return ok ? std::optional(w) : std::nullopt;
}

// How a case gets its embedding rows.
struct Embeddings {
  YAML::Node node;
  std::string path;
};

// Vocabulary rows already read, by vocabulary path then word (empty: the row was invalid).
using VocabularyCache =
    std::map<std::string, std::map<std::string, std::optional<std::vector<double>>>>;

std::optional<Matrix> embed(YamlReader& rd, VocabularyCache& vocabularies, const Embeddings& e,
                            const std::vector<std::string>& tokens, const YAML::Node& tokens_node,
                            const std::string& tokens_path) {
  const YAML::Node& n = e.node;
  const int64_t T = static_cast<int64_t>(tokens.size());
  if (n.IsSequence()) {
    auto m = rd.matrix(n, e.path, kMaxTokens, kMaxWidth);
    if (m && m->rows != T) {
      rd.error(n, e.path, rd.id("shape"),
               std::to_string(m->rows) + " embedding rows for " + std::to_string(T) + " tokens (" +
                   tokens_path + ")");
      return std::nullopt;
    }
    return m;
  }
  if (!rd.check_keys(n, e.path, {"vocabulary", "generate"})) return std::nullopt;
  if (n["vocabulary"] && n["generate"]) {
    rd.error(n, e.path, rd.id("value"), "give either vocabulary or generate, not both");
    return std::nullopt;
  }
  if (const auto v = n["vocabulary"]) {
    const std::string vpath = e.path + ".vocabulary";
    if (!rd.check_free_keys(v, vpath)) return std::nullopt;
    // Each word's row is read once per vocabulary, however often (and in however many cases)
    // it is used; the case pays for its T × d numbers up front.
    auto& rows = vocabularies[vpath];
    Matrix m;
    for (int64_t t = 0; t < T; ++t) {
      const auto& word = tokens[size_t(t)];
      if (!v[word]) {
        rd.error(tokens_node.IsSequence() ? tokens_node[size_t(t)] : tokens_node,
                 tokens_path + "[" + std::to_string(t) + "]", rd.id("unknown_token"),
                 "'" + word + "' has no vector in " + vpath);
        return std::nullopt;
      }
      auto it = rows.find(word);
      if (it == rows.end())
        it = rows.emplace(word, rd.vector(v[word], vpath + "." + word, kMaxWidth)).first;
      const auto& row = it->second;
      if (!row) return std::nullopt;
      if (t == 0 && !rd.spend(tokens_node, tokens_path, T * static_cast<int64_t>(row->size())))
        return std::nullopt;
      if (t == 0) m.cols = static_cast<int64_t>(row->size());
      if (static_cast<int64_t>(row->size()) != m.cols) {
        rd.error(v[word], vpath + "." + word, rd.id("shape"),
                 "has " + std::to_string(row->size()) + " values; '" + tokens[0] + "' has " +
                     std::to_string(m.cols));
        return std::nullopt;
      }
      m.data.insert(m.data.end(), row->begin(), row->end());
      ++m.rows;
    }
    return m;
  }
  if (const auto g = n["generate"]) {
    const std::string gpath = e.path + ".generate";
    const auto spec = seeded_spec(rd, g, gpath, {"d_model"});
    const auto d = rd.require(g, gpath, "d_model");
    if (!spec || !d) return std::nullopt;
    const auto dm = rd.integer(*d, gpath + ".d_model", 1, kMaxWidth, "limit");
    if (!dm || !rd.spend(g, gpath, T * *dm)) return std::nullopt;
    return seeded_matrix(*spec, T, *dm);
  }
  rd.error(n, e.path, rd.id("missing_key"), "needs vocabulary or generate");
  return std::nullopt;
}

// Adds positions to x: none | sinusoidal | {inline: rows}.
bool add_positions(YamlReader& rd, const YAML::Node& n, const std::string& path, Matrix& x) {
  if (!n) return true;
  if (n.IsScalar()) {
    const auto w = rd.word(n, path, {"none", "sinusoidal"});
    if (!w) return false;
    if (*w == "sinusoidal") {
      const Matrix pe = sinusoidal_positions(x.rows, x.cols);
      for (size_t i = 0; i < x.data.size(); ++i) x.data[i] += pe.data[i];
    }
    return true;
  }
  if (!rd.check_keys(n, path, {"inline"})) return false;
  const auto in = rd.require(n, path, "inline");
  if (!in) return false;
  const auto pe = rd.matrix(*in, path + ".inline", kMaxTokens, kMaxWidth);
  if (!pe) return false;
  if (pe->rows != x.rows || pe->cols != x.cols) {
    rd.error(*in, path + ".inline", rd.id("shape"),
             "positions are " + std::to_string(pe->rows) + " x " + std::to_string(pe->cols) +
                 " but the embeddings are " + std::to_string(x.rows) + " x " +
                 std::to_string(x.cols));
    return false;
  }
  for (size_t i = 0; i < x.data.size(); ++i) x.data[i] += pe->data[i];
  return true;
}

std::string dims(const Matrix& m) {
  return std::to_string(m.rows) + " x " + std::to_string(m.cols);
}

// Where each layer's weights were written, so a shape error points at the matrix at fault.
struct WeightsSource {
  YAML::Node node;   // the layer's `weights:` mapping
  std::string path;  // "weights" or "layers[1].weights"
};

// Shape rules of a layer stack for inputs d_model wide.
void check_layer_shapes(YamlReader& rd, const std::vector<WeightsSource>& sources,
                        const std::vector<LayerWeights>& layers, int64_t d_model, int heads,
                        int kv_heads) {
  int64_t width = d_model;
  for (size_t l = 0; l < layers.size() && l < sources.size(); ++l) {
    const auto& w = layers[l];
    const std::string& lp = sources[l].path;
    const YAML::Node& wn = sources[l].node;
    auto at = [&](const char* name) { return wn[name] ? wn[name] : wn; };
    if (!w.w_q) continue;
    // W_q has a column block per head, W_k and W_v one per key/value head.
    const int kv = kv_heads > 0 ? kv_heads : heads;
    for (auto [name, m, blocks] :
         {std::tuple{"w_q", &*w.w_q, heads}, {"w_k", &*w.w_k, kv}, {"w_v", &*w.w_v, kv}}) {
      if (m->rows != width)
        rd.error(at(name), lp + "." + name, rd.id("shape"),
                 "is " + dims(*m) + " but the layer's input is " + std::to_string(width) +
                     " wide (d_model rows needed)");
      if (m->cols % blocks != 0)
        rd.error(at(name), lp + "." + name, rd.id("shape"),
                 std::to_string(m->cols) + " columns cannot be split into " +
                     std::to_string(blocks) + (blocks == heads ? " heads" : " key/value heads"));
    }
    if (w.w_q->cols / heads != w.w_k->cols / kv)
      rd.error(at("w_k"), lp + ".w_k", rd.id("shape"),
               "w_q is " + dims(*w.w_q) + " and w_k is " + dims(*w.w_k) +
                   ": queries and keys need the same width per head");
    const int64_t heads_width = w.w_v->cols / kv * heads;  // h·d_v
    int64_t out = heads_width;
    if (w.w_o) {
      if (w.w_o->rows != heads_width)
        rd.error(at("w_o"), lp + ".w_o", rd.id("shape"),
                 "is " + dims(*w.w_o) + " but needs heads*d_v = " + std::to_string(heads_width) +
                     " rows");
      out = w.w_o->cols;
    }
    if (l + 1 < layers.size() && w.residual && out != width)
      rd.error(at(w.w_o ? "w_o" : "w_v"), lp, rd.id("shape"),
               "a residual layer must return d_model = " + std::to_string(width) +
                   " columns; this one returns " + std::to_string(out));
    if (!w.residual) width = out;
  }
}

void read_limits(YamlReader& rd, const YAML::Node& n, Limits& limits) {
  if (!check_section(rd, n, "limits", Section::kLimits)) return;
  for (auto [key, field] :
       {std::pair{"cpu_seconds", &limits.cpu_seconds}, {"wall_seconds", &limits.wall_seconds}}) {
    if (!n[key]) continue;
    const std::string path = std::string("limits.") + key;
    if (auto v = rd.number(n[key], path)) {
      if (*v > 0)
        *field = *v;
      else
        rd.error(n[key], path, rd.id("value"), "must be > 0 seconds");
    }
  }
  if (n["memory_mb"])
    if (auto v = rd.integer(n["memory_mb"], "limits.memory_mb", 16, 1 << 20)) limits.memory_mb = *v;
}

}  // namespace

namespace parse {

bool check_section(YamlReader& rd, const YAML::Node& n, const std::string& path, Section s) {
  return rd.check_keys(n, path, key_names(s));
}

std::optional<YAML::Node> section_key(YamlReader& rd, const YAML::Node& map,
                                      const std::string& path, Section s, std::string_view name) {
  const std::string k(name);
  if (exercise_key(s, name).required) return rd.require(map, path, k);
  if (const YAML::Node v = map[k]) return v;
  return std::nullopt;
}

std::optional<Matrix> weight_matrix(YamlReader& rd, const YAML::Node& n, const std::string& path) {
  if (n.IsSequence()) return rd.matrix(n, path, kMaxWidth, kMaxWidth);
  if (!n.IsMap()) {
    rd.error(n, path, rd.id("type"), "must be a list of rows or {seed, rows, cols, ...}");
    return std::nullopt;
  }
  const auto spec = seeded_spec(rd, n, path, {"rows", "cols"});
  const auto rows = rd.require(n, path, "rows");
  const auto cols = rd.require(n, path, "cols");
  if (!spec || !rows || !cols) return std::nullopt;
  const auto r = rd.integer(*rows, path + ".rows", 1, kMaxWidth, "limit");
  const auto c = rd.integer(*cols, path + ".cols", 1, kMaxWidth, "limit");
  if (!r || !c || !rd.spend(n, path, *r * *c)) return std::nullopt;
  return seeded_matrix(*spec, *r, *c);
}

std::optional<SeededSpec> seeded_spec(YamlReader& rd, const YAML::Node& n, const std::string& path,
                                      std::vector<std::string> extra_keys) {
  std::vector<std::string> keys = {"seed", "distribution", "mean", "std", "low", "high"};
  keys.insert(keys.end(), extra_keys.begin(), extra_keys.end());
  if (!rd.check_keys(n, path, keys)) return std::nullopt;
  // Every key is read even after a bad one, so one run reports all of the mapping's problems.
  SeededSpec s;
  bool ok = true;
  if (const auto seed = rd.require(n, path, "seed")) {
    const auto sv = rd.integer(*seed, path + ".seed", 0, int64_t(1) << 53);
    ok = ok && sv.has_value();
    if (sv) s.seed = static_cast<uint64_t>(*sv);
  } else {
    ok = false;
  }
  if (n["distribution"]) {
    const auto d = rd.choice<Distribution>(n["distribution"], path + ".distribution");
    ok = ok && d.has_value();
    if (d) s.distribution = *d;
  }
  for (auto [key, field] :
       {std::pair{"mean", &s.mean}, {"std", &s.std}, {"low", &s.low}, {"high", &s.high}}) {
    if (!n[key]) continue;
    const auto v = rd.number(n[key], path + "." + key);
    ok = ok && v.has_value();
    if (v) *field = *v;
  }
  if (n["std"] && s.std < 0) {
    rd.error(n["std"], path + ".std", rd.id("value"), "must be >= 0");
    ok = false;
  }
  if (s.low > s.high) {
    rd.error(n["low"] ? n["low"] : n, path + ".low", rd.id("value"), "must be <= high");
    ok = false;
  }
  return ok ? std::optional(s) : std::nullopt;
}

grade::ParameterOverrides parameters(YamlReader& rd, const YAML::Node& n, const std::string& path) {
  grade::ParameterOverrides o;
  if (!check_section(rd, n, path, Section::kParameters)) return o;
  if (n["sharpness"]) {
    if (auto v = rd.number(n["sharpness"], path + ".sharpness")) {
      if (*v > 0)
        o.sharpness = *v;
      else
        rd.error(n["sharpness"], path + ".sharpness", rd.id("value"), "must be > 0");
    }
  }
  if (n["heads"])
    if (auto v = rd.integer(n["heads"], path + ".heads", 1, kMaxHeads, "limit")) o.heads = int(*v);
  if (n["kv_heads"])
    if (auto v = rd.integer(n["kv_heads"], path + ".kv_heads", 1, kMaxHeads, "limit"))
      o.kv_heads = int(*v);
  if (n["causal"])
    if (auto v = rd.boolean(n["causal"], path + ".causal")) o.causal = *v;
  if (n["scale"]) {
    if (auto w = rd.choice<ScaleMode>(n["scale"], path + ".scale")) o.scale = *w;
  }
  return o;
}

void variant_params(YamlReader& rd, const YAML::Node& n, const std::string& path,
                    ParamValues& out) {
  if (!n.IsMap()) {
    rd.error(n, path, rd.id("type"), "must be a mapping of parameter names to values");
    return;
  }
  if (n.size() > kMaxParams) {
    rd.error(n, path, rd.id("limit"),
             std::to_string(n.size()) + " parameters; the cap is " + std::to_string(kMaxParams));
    return;
  }
  for (const auto& item : n) {
    const std::string name = item.first.IsScalar() ? item.first.Scalar() : "";
    const std::string where = path + "." + name;
    if (name.empty() || name.size() > 64 ||
        name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_") != std::string::npos)
      rd.error(item.first, path, rd.id("value"),
               "'" + name + "' is not a parameter name ([a-z0-9_])");
    else if (!item.second.IsScalar())
      rd.error(item.second, where, rd.id("type"), "must be a number, a boolean or a word");
    else
      out[name] = item.second.Scalar();
  }
}

}  // namespace parse

double Exercise::max_points() const {
  double sum = 0;
  for (const auto& c : checks) sum += c.points;
  return sum;
}

RunInput Exercise::input_for(const grade::CheckSpec& check) const {
  const ExerciseCase& c = cases.at(static_cast<size_t>(check.case_index));
  RunInput in{c.tokens, c.x, layers, parameters};
  check.parameters.apply(in.params);
  return in;
}

namespace {

void read_header(YamlReader& rd, const YAML::Node& root, Exercise& ex) {
  if (auto v = section_key(rd, root, "", Section::kTop, "awb-exercise")) {
    if (auto n = rd.integer(*v, "awb-exercise", 0, std::numeric_limits<int32_t>::max(), "version");
        n && *n != 1)
      rd.error(*v, "awb-exercise", rd.id("version"),
               "this awb reads format version 1, the file says " + v->Scalar());
  }
  if (auto v = section_key(rd, root, "", Section::kTop, "id")) {
    if (auto s = rd.string(*v, "id")) {
      if (valid_id(*s))
        ex.id = *s;
      else
        rd.error(*v, "id", rd.id("value"), "'" + *s + "' must be 1-64 of [a-z0-9-]");
    }
  }
  if (auto v = section_key(rd, root, "", Section::kTop, "title"))
    if (auto s = rd.string(*v, "title")) ex.title = *s;
  if (auto v = section_key(rd, root, "", Section::kTop, "lesson"))
    if (auto s = rd.string(*v, "lesson")) ex.lesson = *s;
  if (auto v = section_key(rd, root, "", Section::kTop, "lesson_after"))
    if (auto s = rd.string(*v, "lesson_after")) ex.lesson_after = *s;
}

// `variant:` into ex.kind; returns the capabilities it requires besides the exercise's own.
std::vector<std::string> read_variant(YamlReader& rd, const YAML::Node& root, Exercise& ex) {
  std::vector<std::string> requires_caps;
  const auto v = section_key(rd, root, "", Section::kTop, "variant");
  if (!v || !check_section(rd, *v, "variant", Section::kVariant)) return requires_caps;
  if (auto k = section_key(rd, *v, "variant", Section::kVariant, "kind")) {
    if (auto w = rd.choice<VariantKind>(*k, "variant.kind")) ex.kind = *w;
  }
  ex.parameters.family = family_of(ex.kind);
  if (auto p = section_key(rd, *v, "variant", Section::kVariant, "params")) {
    parse::variant_params(rd, *p, "variant.params", ex.parameters.variant);
    // The values the reference reads must fit its declarations; names it does not read are the
    // variant's alone and are checked when a variant runs.
    const ParamBinding ref = reference_params(ex.parameters.family);
    try {
      resolve_params(ref.decls, ex.parameters.variant, ref.owner, false);
    } catch (const Error& e) {
      rd.error(*p, "variant.params", rd.id("value"), e.message());
    }
  }
  if (auto r = section_key(rd, *v, "variant", Section::kVariant, "requires")) {
    if (auto list = rd.strings(*r, "variant.requires", 16)) {
      for (size_t i = 0; i < list->size(); ++i)
        if (rd.word((*r)[i], "variant.requires[" + std::to_string(i) + "]", capability_spellings()))
          requires_caps.push_back((*list)[i]);
    }
  }
  return requires_caps;
}

// `weights:` or `layers:` into ex.layers (one empty layer when neither is given); returns where
// each layer's weights were written.
std::vector<WeightsSource> read_layers(YamlReader& rd, const YAML::Node& root, Exercise& ex) {
  if (root["weights"] && root["layers"])
    rd.error(root["layers"], "layers", rd.id("value"), "give either weights or layers, not both");
  std::vector<WeightsSource> sources;
  if (root["weights"]) {
    sources.push_back({root["weights"], "weights"});
    if (auto w = weights(rd, root["weights"], "weights")) ex.layers.push_back(*w);
  } else if (const auto ls = root["layers"]) {
    if (!ls.IsSequence() || ls.size() == 0) {
      rd.error(ls, "layers", rd.id("type"), "must be a non-empty list of layers");
    } else if (static_cast<int64_t>(ls.size()) > kMaxLayers) {
      rd.error(ls, "layers", rd.id("limit"), std::to_string(ls.size()) + " layers; the cap is 16");
    } else {
      for (size_t i = 0; i < ls.size(); ++i) {
        const std::string lp = "layers[" + std::to_string(i) + "]";
        if (!check_section(rd, ls[i], lp, Section::kLayer)) continue;
        LayerWeights w;
        sources.push_back({ls[i]["weights"], lp + ".weights"});
        if (auto wn = section_key(rd, ls[i], lp, Section::kLayer, "weights"))
          if (auto parsed = weights(rd, *wn, lp + ".weights")) w = *parsed;
        if (auto r = section_key(rd, ls[i], lp, Section::kLayer, "residual"))
          if (auto b = rd.boolean(*r, lp + ".residual")) w.residual = *b;
        ex.layers.push_back(w);
      }
    }
  }
  if (ex.layers.empty() && !root["weights"] && !root["layers"]) ex.layers.emplace_back();
  return sources;
}

bool has_weights(const Exercise& ex) {
  return std::any_of(ex.layers.begin(), ex.layers.end(),
                     [](const LayerWeights& w) { return w.w_q.has_value(); });
}

// What each variant kind asks of the weights and parameters.
void check_variant_rules(YamlReader& rd, const YAML::Node& root, const Exercise& ex) {
  const bool parameter_free = !projected(ex.kind);
  if (parameter_free && has_weights(ex))
    rd.error(
        root["weights"] ? root["weights"] : root["layers"], "weights", rd.id("value"),
        std::string("a ") + to_string(ex.kind) + " exercise has no weights (use variant.kind qkv)");
  if (!parameter_free && !has_weights(ex) && rd.ok())
    rd.error(root, "weights", rd.id("missing_key"),
             std::string("a ") + to_string(ex.kind) + " exercise needs w_q, w_k and w_v");
  if (ex.kind == VariantKind::kQkv && ex.parameters.heads > 1)
    rd.error(root["parameters"], "parameters.heads", rd.id("value"),
             "a qkv exercise has one head; use variant.kind multi-head");
  const int kv = ex.parameters.kv_heads, heads = ex.parameters.heads;
  if (kv > 0 && (kv > heads || heads % kv != 0))
    rd.error(root["parameters"]["kv_heads"], "parameters.kv_heads", rd.id("value"),
             "kv_heads must divide heads (" + std::to_string(heads) + "): " + std::to_string(kv) +
                 " does not");
  if (ex.kind == VariantKind::kCausal && !ex.parameters.causal)
    rd.error(root, "parameters.causal", rd.id("value"),
             "a causal exercise needs parameters.causal: true");
}

// One case: its own tokens, embeddings and positions, or the top level's.
std::optional<ExerciseCase> read_case(YamlReader& rd, const YAML::Node& root, const YAML::Node& cn,
                                      const std::string& cp, const std::string& default_id,
                                      std::set<std::string>& case_ids,
                                      VocabularyCache& vocabularies) {
  const bool top = cp.empty();
  auto key_path = [&](const std::string& k) { return top ? k : cp + "." + k; };
  if (!top && !check_section(rd, cn, cp, Section::kCase)) return std::nullopt;
  ExerciseCase c;
  c.id = default_id;
  if (!top) {
    if (auto v = section_key(rd, cn, cp, Section::kCase, "id"))
      if (auto s = rd.string(*v, key_path("id"))) {
        c.id = *s;
        if (!case_ids.insert(*s).second)
          rd.error(*v, key_path("id"), rd.id("duplicate_id"), "case '" + *s + "' appears twice");
      }
  }
  const YAML::Node tok_node = cn["tokens"] ? cn["tokens"] : root["tokens"];
  const std::string tok_path = cn["tokens"] ? key_path("tokens") : "tokens";
  if (!tok_node) {
    rd.error(cn, key_path("tokens"), rd.id("missing_key"), "is required");
    return std::nullopt;
  }
  const auto toks = rd.strings(tok_node, tok_path, kMaxTokens);
  if (!toks) return std::nullopt;
  c.tokens = *toks;
  const YAML::Node emb_node = cn["embeddings"] ? cn["embeddings"] : root["embeddings"];
  if (!emb_node) {
    rd.error(cn, key_path("embeddings"), rd.id("missing_key"), "is required");
    return std::nullopt;
  }
  const auto x =
      embed(rd, vocabularies, {emb_node, cn["embeddings"] ? key_path("embeddings") : "embeddings"},
            c.tokens, tok_node, tok_path);
  if (!x) return std::nullopt;
  c.x = *x;
  const YAML::Node pos = cn["positions"] ? cn["positions"] : root["positions"];
  if (!add_positions(rd, pos, cn["positions"] ? key_path("positions") : "positions", c.x))
    return std::nullopt;
  return c;
}

// `cases:` into ex.cases; without it, one case made of the top level.
void read_cases(YamlReader& rd, const YAML::Node& root, Exercise& ex) {
  std::vector<YAML::Node> case_nodes;
  if (const auto cs = root["cases"]) {
    if (!cs.IsSequence() || cs.size() == 0)
      rd.error(cs, "cases", rd.id("type"), "must be a non-empty list of cases");
    else if (static_cast<int64_t>(cs.size()) > kMaxCases)
      rd.error(cs, "cases", rd.id("limit"), std::to_string(cs.size()) + " cases; the cap is 64");
    else
      for (size_t i = 0; i < cs.size(); ++i) case_nodes.push_back(cs[i]);
  } else {
    case_nodes.push_back(root);
  }
  std::set<std::string> case_ids;
  VocabularyCache vocabularies;
  for (size_t i = 0; i < case_nodes.size(); ++i) {
    const std::string cp = root["cases"] ? "cases[" + std::to_string(i) + "]" : "";
    if (auto c = read_case(rd, root, case_nodes[i], cp, ex.id, case_ids, vocabularies))
      ex.cases.push_back(std::move(*c));
  }
}

void apply_transforms(YamlReader& rd, const YAML::Node& root, Exercise& ex) {
  const auto tr = root["transforms"];
  if (!tr || !check_section(rd, tr, "transforms", Section::kTransforms)) return;
  if (auto v = section_key(rd, tr, "transforms", Section::kTransforms, "scale_embeddings"))
    if (auto s = rd.number(*v, "transforms.scale_embeddings"))
      for (auto& c : ex.cases)
        for (double& x : c.x.data) x *= *s;
}

// What a variant needs to run every check, and what the reference that grades it can do.
void set_capabilities(Exercise& ex, const std::vector<std::string>& requires_caps) {
  uint64_t caps = AWB_CAP_F64;
  if (has_weights(ex)) caps |= AWB_CAP_QKV;
  if (ex.parameters.heads > 1) caps |= AWB_CAP_MULTI_HEAD;
  if (ex.parameters.kv_heads > 0 && ex.parameters.kv_heads < ex.parameters.heads)
    caps |= AWB_CAP_GROUPED_KV;
  if (std::any_of(ex.layers.begin(), ex.layers.end(), [](auto& w) { return w.w_o.has_value(); }))
    caps |= AWB_CAP_OUTPUT_PROJ;
  if (ex.parameters.causal) caps |= AWB_CAP_CAUSAL;
  for (const auto& r : requires_caps) caps |= capability_bit(r);
  ex.required_capabilities = caps;
  ex.reference_capabilities = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL |
                              (projected(ex.kind) ? AWB_CAP_QKV | AWB_CAP_MULTI_HEAD |
                                                        AWB_CAP_OUTPUT_PROJ | AWB_CAP_GROUPED_KV
                                                  : 0);
}

ExerciseLoad parse_exercise_in(YamlReader& rd, const std::string& text) {
  ExerciseLoad out;
  auto finish = [&](std::optional<Exercise> ex) {
    out.errors = rd.errors();
    out.values = rd.values_read();
    if (out.errors.empty()) out.exercise = std::move(ex);
    return std::move(out);
  };
  const auto root_opt = rd.parse(text);
  if (!root_opt) return finish(std::nullopt);
  const YAML::Node root = *root_opt;
  if (!check_section(rd, root, "", Section::kTop)) return finish(std::nullopt);

  Exercise ex;
  ex.sha256 = sha256_hex(text);
  read_header(rd, root, ex);
  const std::vector<std::string> requires_caps = read_variant(rd, root, ex);
  if (root["parameters"])
    parse::parameters(rd, root["parameters"], "parameters").apply(ex.parameters);
  if (root["limits"]) read_limits(rd, root["limits"], ex.limits);
  const std::vector<WeightsSource> sources = read_layers(rd, root, ex);
  check_variant_rules(rd, root, ex);
  read_cases(rd, root, ex);  // the top level is the default for each case
  apply_transforms(rd, root, ex);
  // Shapes, per case (cases may differ in d_model only if the weights allow it).
  for (const auto& c : ex.cases)
    check_layer_shapes(rd, sources, ex.layers, c.x.cols, ex.parameters.heads,
                       ex.parameters.kv_heads);
  set_capabilities(ex, requires_caps);
  if (auto cn = section_key(rd, root, "", Section::kTop, "checks")) parse::checks(rd, *cn, ex);
  if (root["train"]) parse::train(rd, root["train"], ex);
  if (root["questions"]) parse::questions(rd, root["questions"], ex);
  return finish(std::move(ex));
}

}  // namespace

ExerciseLoad parse_exercise(const std::string& text, const std::string& file_label) {
  return parse_guarded<ExerciseLoad>(file_label, "exercise",
                                     [&](YamlReader& rd) { return parse_exercise_in(rd, text); });
}

ExerciseLoad load_exercise_file(const std::filesystem::path& file) {
  ExerciseLoad out;
  const auto text = read_yaml_file(file, "exercise", out.errors);
  if (!text) return out;
  out = parse_exercise(*text, file.string());
  if (out.exercise) out.exercise->file = file;
  return out;
}

ExerciseSet load_exercises(const std::vector<std::filesystem::path>& locations) {
  namespace fs = std::filesystem;
  ExerciseSet set;
  std::map<std::string, std::string> seen;
  for (const auto& loc : locations) {
    std::vector<fs::path> files;
    std::error_code ec;
    if (fs::is_directory(loc, ec)) {
      for (const auto& e : fs::directory_iterator(loc, ec))
        if ((e.path().extension() == ".yaml" || e.path().extension() == ".yml") &&
            !is_assignment_file(e.path()))
          files.push_back(e.path());
      std::sort(files.begin(), files.end());
    } else {
      files.push_back(loc);
    }
    for (const auto& f : files) {
      ++set.files;
      ExerciseLoad l = load_exercise_file(f);
      set.errors.insert(set.errors.end(), l.errors.begin(), l.errors.end());
      if (!l.exercise) continue;
      // What a set keeps is its exercises' values; the budget bounds a set as the caps bound
      // a file (FORMAT.md, "Caps").
      set.values += l.values;
      if (set.values > kMaxSetValues) {
        set.errors.emplace_back("exercise.set_too_large", f.string(),
                                "the exercises loaded together make more than " +
                                    std::to_string(kMaxSetValues) +
                                    " values with this file; load fewer files at once");
        set.values -= l.values;
        continue;
      }
      auto [it, fresh] = seen.emplace(l.exercise->id, f.string());
      if (!fresh) {
        set.errors.emplace_back(
            "exercise.duplicate_id", f.string(),
            "exercise id '" + l.exercise->id + "' is also used by " + it->second);
        continue;
      }
      set.exercises.push_back(std::move(*l.exercise));
    }
  }
  return set;
}

bool is_assignment_file(const std::filesystem::path& file) {
  std::error_code ec;
  if (!std::filesystem::is_regular_file(file, ec)) return false;  // a FIFO would block
  // An assignment names its format at the top level (FORMAT.md); the first 64 KiB tell.
  std::string head(64 << 10, '\0');
  std::ifstream in(file, std::ios::binary);
  in.read(head.data(), std::streamsize(head.size()));
  head.resize(size_t(in.gcount()));
  constexpr std::string_view kKey = "awb-assignment";
  for (size_t at = 0; at < head.size(); at = head.find('\n', at) + 1) {
    if (head.compare(at, kKey.size(), kKey) == 0) {
      const size_t colon = head.find_first_not_of(" \t", at + kKey.size());
      if (colon != std::string::npos && head[colon] == ':') return true;
    }
    if (head.find('\n', at) == std::string::npos) break;
  }
  return false;
}

Error unknown_exercise(const ExerciseSet& set, const std::string& id) {
  std::vector<std::string> ids;
  for (const auto& e : set.exercises) ids.push_back(e.id);
  const std::string guess = did_you_mean(id, ids);
  return Error("exercise.not_found",
               "no exercise with id '" + id + "'" +
                   (guess.empty() ? std::string() : " (did you mean '" + guess + "'?)"));
}

std::filesystem::path bundled_exercise_dir() {
  return shipped_path(AWB_SOURCE_EXERCISE_DIR, "share/awb/exercises");
}

}  // namespace awb::core
