// problem_file.cpp: problem files for `awb run --problem`, read through the exercises' YAML
// reader (same caps, every problem at once), and the built-in examples.
#include "core/exercises/problem_file.hpp"

#include <new>

#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_parse.hpp"
#include "core/exercises/yaml_reader.hpp"

namespace awb::core {
namespace {

const std::vector<std::string> kProblemKeys = {
    "tokens", "x", "w_q", "w_k", "w_v", "w_o", "heads", "causal", "sharpness", "scale", "variant"};
const std::vector<std::string> kVariantKeys = {"kind", "params"};
constexpr int64_t kMaxSize = 4096;  // tokens, rows and columns, as in an exercise
constexpr int64_t kMaxHeads = 64;

ProblemLoad read_problem_in(YamlReader& rd, const std::string& text) {
  ProblemLoad out;
  auto finish = [&](std::optional<ProblemSpec> p) {
    out.errors = rd.errors();
    if (out.errors.empty()) out.problem = std::move(p);
    return out;
  };
  const auto root_opt = rd.parse(text);
  if (!root_opt) return finish(std::nullopt);
  const YAML::Node root = *root_opt;
  if (!rd.check_keys(root, "", kProblemKeys)) return finish(std::nullopt);
  ProblemSpec p;
  if (auto x = rd.require(root, "", "x"))
    if (auto m = rd.matrix(*x, "x", kMaxSize, kMaxSize)) p.x = *m;
  if (const auto t = root["tokens"])
    if (auto list = rd.strings(t, "tokens", kMaxSize)) p.tokens = *list;
  for (auto [key, field] :
       {std::pair{"w_q", &p.w_q}, {"w_k", &p.w_k}, {"w_v", &p.w_v}, {"w_o", &p.w_o}})
    if (const auto n = root[key]) *field = rd.matrix(n, key, kMaxSize, kMaxSize);
  if (const auto n = root["heads"])
    if (auto h = rd.integer(n, "heads", 1, kMaxHeads, "limit")) p.heads = int(*h);
  if (const auto n = root["sharpness"])
    if (auto v = rd.number(n, "sharpness")) p.sharpness = *v;
  if (const auto n = root["causal"])
    if (auto v = rd.boolean(n, "causal")) p.causal = *v;
  if (const auto n = root["scale"])
    if (auto w = rd.choice<ScaleMode>(n, "scale")) p.scale = *w;
  // `variant: {kind, params}` as in an exercise: the kind says which maths (the reference) the
  // problem asks for, the params are the variant's.
  if (const auto v = root["variant"]; v && rd.check_keys(v, "variant", kVariantKeys)) {
    if (const auto k = v["kind"])
      if (auto kind = rd.choice<VariantKind>(k, "variant.kind")) p.family = family_of(*kind);
    if (const auto n = v["params"]) parse::variant_params(rd, n, "variant.params", p.params);
  }
  if (!rd.ok()) return finish(std::nullopt);
  // Shapes across keys (tokens vs rows, weights vs d_model, heads): the model's own rules.
  try {
    validate(p);
  } catch (const Error& e) {
    rd.error(root, "", e.id(), e.message());
  }
  return finish(std::move(p));
}

[[noreturn]] void throw_first(const ProblemLoad& l) { throw l.errors.front(); }

}  // namespace

ProblemLoad read_problem_yaml(const std::string& text, const std::string& file_label) {
  return parse_guarded<ProblemLoad>(file_label, "problem",
                                    [&](YamlReader& rd) { return read_problem_in(rd, text); });
}

ProblemLoad read_problem_file(const std::filesystem::path& file) {
  ProblemLoad out;
  const auto text = read_yaml_file(file, "problem", out.errors);
  return text ? read_problem_yaml(*text, file.string()) : out;
}

ProblemSpec parse_problem_yaml(const std::string& text, const std::string& file_label) {
  ProblemLoad l = read_problem_yaml(text, file_label);
  if (!l.problem) throw_first(l);
  return std::move(*l.problem);
}

ProblemSpec without_weights(ProblemSpec p) {
  p.w_q.reset();
  p.w_k.reset();
  p.w_v.reset();
  p.w_o.reset();
  p.heads = 1;
  return p;
}

std::vector<std::string> example_names() { return {"journey"}; }

ProblemSpec example_problem(const std::string& name) {
  if (name != "journey")
    throw Error("example.unknown", "no example named '" + name + "'" +
                                       did_you_mean_note(name, example_names()) +
                                       " (known: journey)");
  ProblemSpec p;
  p.tokens = {"Your", "journey", "starts", "with", "one", "step"};
  p.x = Matrix(6, 3);
  p.x.data = {0.43, 0.15, 0.89, 0.55, 0.87, 0.66, 0.57, 0.85, 0.64,
              0.22, 0.58, 0.33, 0.77, 0.25, 0.10, 0.05, 0.80, 0.55};
  // Two heads of width 2; numbers chosen by hand for this example, nothing trained.
  auto m = [](int64_t r, int64_t c, std::vector<double> v) {
    Matrix out(r, c);
    out.data = std::move(v);
    return out;
  };
  p.w_q = m(3, 4, {0.29, 0.82, -0.41, 0.17, 0.51, -0.30, 0.66, 0.45, 0.72, 0.14, 0.23, -0.58});
  p.w_k = m(3, 4, {0.35, -0.22, 0.61, 0.40, 0.68, 0.47, -0.15, 0.26, 0.12, 0.79, 0.38, -0.33});
  p.w_v = m(3, 4, {0.55, 0.11, -0.27, 0.63, -0.18, 0.74, 0.42, 0.09, 0.36, 0.28, 0.81, -0.44});
  p.w_o = m(4, 3, {0.5, 0.1, -0.2, 0.3, 0.6, 0.1, -0.4, 0.2, 0.7, 0.2, -0.3, 0.4});
  p.heads = 2;
  validate(p);
  return p;
}

}  // namespace awb::core
