// problem_file.cpp: problem files for `awb run --problem`, read through the exercises' YAML
// reader (same caps, every problem at once), their matrices inline, seeded or in NumPy files;
// .npz archives as problems of their own; and the built-in examples.
#include "core/exercises/problem_file.hpp"

#include <algorithm>
#include <cmath>
#include <new>

#include "core/base/did_you_mean.hpp"
#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_parse.hpp"
#include "core/exercises/numpy_arrays.hpp"
#include "core/exercises/yaml_reader.hpp"

namespace awb::core {
namespace {

const std::vector<std::string> kProblemKeys = {
    "tokens",   "x",     "w_q",     "w_k",    "w_v",       "w_o",   "heads",
    "kv_heads", "batch", "lengths", "causal", "sharpness", "scale", "variant"};
const std::vector<std::string> kVariantKeys = {"kind", "params"};
constexpr int64_t kMaxSize = 4096;  // tokens, rows and columns, as in an exercise
// The arrays an .npz problem may hold (exercises/FORMAT.md, "Problem files").
const std::vector<std::string> kNpzArrays = {"X",   "W_q",   "W_k",    "W_v",
                                             "W_o", "heads", "causal", "sharpness"};

// A matrix key's value: a list of rows, seeded {seed, rows, cols, ...} (as an exercise's
// weights), {npy: FILE} or {npz: FILE, key: NAME}, FILE relative to the problem file's folder.
// A NumPy file's error is reported at its name in the YAML, with the file's own path.
std::optional<Matrix> matrix_value(YamlReader& rd, const YAML::Node& n, const std::string& path,
                                   const std::filesystem::path& folder) {
  if (!n.IsSequence() && !n.IsMap()) {
    rd.error(n, path, rd.id("type"),
             "must be a list of rows, {npy: FILE}, {npz: FILE, key: NAME} or {seed, rows, cols, "
             "...}");
    return std::nullopt;
  }
  if (n.IsSequence()) return parse::weight_matrix(rd, n, path);
  if (!n["npy"] && !n["npz"]) {
    // Every form's keys first, so that `npyy:` is told 'npy', not only the seeded keys.
    rd.check_keys(n, path,
                  {"npy", "npz", "key", "seed", "rows", "cols", "distribution", "mean", "std",
                   "low", "high"});
    // A misspelt file key says so alone, without the seeded form's missing keys after it.
    if (rd.misspelt(path, "npy") || rd.misspelt(path, "npz")) return std::nullopt;
    return parse::weight_matrix(rd, n, path);
  }
  if (!rd.check_keys(n, path, {"npy", "npz", "key"})) return std::nullopt;
  const bool archive = bool(n["npz"]);
  if (archive && n["npy"]) {
    rd.error(n, path, rd.id("value"), "give either npy or npz, not both");
    return std::nullopt;
  }
  if (!archive && n["key"]) {
    rd.error(n["key"], path + ".key", rd.id("unknown_key"),
             "'key' names an array in an .npz archive; an .npy file holds one");
    return std::nullopt;
  }
  const char* file_key = archive ? "npz" : "npy";
  const YAML::Node file_node = n[file_key];
  const auto file = rd.string(file_node, path + "." + file_key);
  const auto key = archive ? rd.require(n, path, "key") : std::nullopt;
  const auto name = key ? rd.string(*key, path + ".key") : std::nullopt;
  if (!file || (archive && !name)) return std::nullopt;
  const std::filesystem::path where = folder / *file;  // an absolute FILE stays as it is
  const NpyOptions opts{rd.id_prefix(), kMaxSize};
  // A file's problem at the file's name; an array's in an archive at its key.
  auto report = [&](const Error& e, const YAML::Node& at, const std::string& at_path) {
    rd.error(at, at_path, e.id(), e.location() + ": " + e.message());
    return std::nullopt;
  };
  std::optional<NpzArchive> npz;
  try {
    if (!archive) return read_npy_matrix(where, opts);
    npz.emplace(where, opts.id_prefix);
  } catch (const Error& e) {
    return report(e, file_node, path + "." + file_key);
  }
  try {
    return npz->matrix(*name, opts);
  } catch (const Error& e) {
    return report(e, *key, path + ".key");
  }
}

ProblemLoad read_problem_in(YamlReader& rd, const std::string& text,
                            const std::filesystem::path& folder) {
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
    if (auto m = matrix_value(rd, *x, "x", folder)) p.x = *m;
  if (const auto t = root["tokens"])
    if (auto list = rd.strings(t, "tokens", kMaxSize)) p.tokens = *list;
  for (auto [key, field] :
       {std::pair{"w_q", &p.w_q}, {"w_k", &p.w_k}, {"w_v", &p.w_v}, {"w_o", &p.w_o}})
    if (const auto n = root[key]) *field = matrix_value(rd, n, key, folder);
  if (const auto n = root["heads"])
    if (auto h = rd.integer(n, "heads", 1, parse::kMaxHeads, "limit")) p.heads = int(*h);
  if (const auto n = root["kv_heads"])
    if (auto h = rd.integer(n, "kv_heads", 1, parse::kMaxHeads, "limit")) p.kv_heads = int(*h);
  // A batch: x's rows are `batch` sequences side by side; `lengths` the padding mask.
  if (const auto n = root["batch"])
    if (auto b = rd.integer(n, "batch", 1, kMaxSize, "limit")) p.batch = int(*b);
  if (const auto n = root["lengths"]) {
    if (!n.IsSequence() || n.size() == 0) {
      rd.error(n, "lengths", rd.id("type"), "must be a list of integers, one per sequence");
    } else {
      for (size_t b = 0; b < n.size(); ++b)
        if (auto v = rd.integer(n[b], "lengths[" + std::to_string(b) + "]", 1, kMaxSize, "limit"))
          p.lengths.push_back(*v);
    }
  }
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
  const auto folder = std::filesystem::path(file_label).parent_path();
  return parse_guarded<ProblemLoad>(
      file_label, "problem", [&](YamlReader& rd) { return read_problem_in(rd, text, folder); });
}

ProblemLoad read_problem_file(const std::filesystem::path& file) {
  if (file.extension() == ".npz") return read_problem_npz(file);
  ProblemLoad out;
  // A lone .npy is X alone: one head, no weights (what a parameter-free variant runs).
  if (file.extension() == ".npy") {
    const NpyOptions opts{"problem", kMaxSize};
    try {
      ProblemSpec p;
      p.x = read_npy_matrix(file, opts);
      out.problem = std::move(p);
    } catch (const Error& e) {
      out.errors.push_back(e);
    } catch (const std::bad_alloc&) {
      out.errors.emplace_back(opts.id_prefix + ".too_large", file.string(),
                              "ran out of memory reading it");
    }
    return out;
  }
  const auto text = read_yaml_file(file, "problem", out.errors);
  return text ? read_problem_yaml(*text, file.string()) : out;
}

ProblemLoad read_problem_npz(const std::filesystem::path& file) {
  ProblemLoad out;
  const std::string label = file.string();
  const NpyOptions opts{"problem", kMaxSize};
  // Each array's problem is collected, so one run reports all of them.
  auto read = [&](auto&& what) {
    try {
      what();
    } catch (const Error& e) {
      out.errors.push_back(e);
    } catch (const std::bad_alloc&) {
      out.errors.emplace_back(opts.id_prefix + ".too_large", label,
                              "ran out of memory reading the archive");
    }
  };
  ProblemSpec p;
  read([&] {
    const NpzArchive a(file, opts.id_prefix);
    // An array awb does not read is an error, as an unknown key is: "x" for "X" is not ignored.
    for (const auto& name : a.names()) {
      if (std::find(kNpzArrays.begin(), kNpzArrays.end(), name) != kNpzArrays.end()) continue;
      std::string known;
      for (const auto& k : kNpzArrays) known += (known.empty() ? "" : ", ") + k;
      out.errors.emplace_back(opts.id_prefix + ".npz", label,
                              "array '" + name + "' is not read" +
                                  did_you_mean_note(name, kNpzArrays) +
                                  "; a problem's arrays are " + known);
    }
    read([&] { p.x = a.matrix("X", opts); });
    for (auto [name, field] :
         {std::pair{"W_q", &p.w_q}, {"W_k", &p.w_k}, {"W_v", &p.w_v}, {"W_o", &p.w_o}})
      if (a.has(name)) read([&] { *field = a.matrix(name, opts); });
    if (a.has("heads"))
      read([&] {
        const double h = a.scalar("heads", opts);
        if (h != std::floor(h) || h < 1 || h > double(parse::kMaxHeads))
          throw Error(opts.id_prefix + ".value", label,
                      "array 'heads': must be a whole number from 1 to " +
                          std::to_string(parse::kMaxHeads));
        p.heads = int(h);
      });
    if (a.has("causal")) read([&] { p.causal = a.scalar("causal", opts) != 0; });
    if (a.has("sharpness")) read([&] { p.sharpness = a.scalar("sharpness", opts); });
  });
  if (!out.errors.empty()) return out;
  // Shapes across arrays (weights vs d_model, heads): the model's own rules, at the archive.
  try {
    validate(p);
  } catch (const Error& e) {
    out.errors.emplace_back(e.id(), label, e.message());
    return out;
  }
  out.problem = std::move(p);
  return out;
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
