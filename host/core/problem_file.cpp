// problem_file.cpp: YAML problem files (yaml-cpp) with file:line:column errors, and examples.
#include "core/problem_file.hpp"

#include <yaml-cpp/yaml.h>

#include <fstream>
#include <set>
#include <sstream>

#include "model/error.hpp"

namespace awb::core {
namespace {

constexpr size_t kMaxFileBytes = 8u << 20;

struct Reader {
  std::string file;

  std::string where(const YAML::Node& n) const {
    const YAML::Mark m = n.Mark();
    return file + ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
  }
  [[noreturn]] void fail(const YAML::Node& n, const std::string& id, const std::string& msg) const {
    throw Error(id, where(n), msg);
  }
  double number(const YAML::Node& n, const std::string& key) const {
    if (!n.IsScalar()) fail(n, "problem.type", "'" + key + "' must be a number");
    try {
      return n.as<double>();
    } catch (const YAML::Exception&) {
      fail(n, "problem.type", "'" + key + "' must be a number, got '" + n.Scalar() + "'");
    }
  }
  Matrix matrix(const YAML::Node& n, const std::string& key) const {
    if (!n.IsSequence() || n.size() == 0)
      fail(n, "problem.type", "'" + key + "' must be a non-empty list of rows");
    Matrix m;
    m.rows = static_cast<int64_t>(n.size());
    for (size_t r = 0; r < n.size(); ++r) {
      const YAML::Node row = n[r];
      const std::string rkey = key + "[" + std::to_string(r) + "]";
      if (!row.IsSequence() || row.size() == 0)
        fail(row, "problem.type", "'" + rkey + "' must be a non-empty list of numbers");
      if (r == 0) m.cols = static_cast<int64_t>(row.size());
      if (static_cast<int64_t>(row.size()) != m.cols)
        fail(row, "problem.shape",
             "'" + rkey + "' has " + std::to_string(row.size()) + " values, row 0 has " +
                 std::to_string(m.cols));
      for (size_t c = 0; c < row.size(); ++c)
        m.data.push_back(number(row[c], rkey + "[" + std::to_string(c) + "]"));
    }
    return m;
  }
};

}  // namespace

ProblemSpec parse_problem_yaml(const std::string& text, const std::string& file_label) {
  Reader rd{file_label};
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw Error("problem.yaml",
                file_label + ":" + std::to_string(e.mark.line + 1) + ":" +
                    std::to_string(e.mark.column + 1),
                e.msg);
  }
  if (!root.IsMap()) throw Error("problem.type", file_label, "the file must be a mapping");
  static const std::set<std::string> kKeys = {"tokens", "x",     "w_q",    "w_k",       "w_v",
                                              "w_o",    "heads", "causal", "sharpness", "scale"};
  for (const auto& kv : root) {
    const std::string key = kv.first.as<std::string>();
    if (!kKeys.count(key)) rd.fail(kv.first, "problem.unknown_key", "unknown key '" + key + "'");
  }
  ProblemSpec p;
  if (!root["x"]) throw Error("problem.missing_key", file_label, "'x' is required");
  p.x = rd.matrix(root["x"], "x");
  if (const auto t = root["tokens"]) {
    if (!t.IsSequence()) rd.fail(t, "problem.type", "'tokens' must be a list of strings");
    for (const auto& tok : t) p.tokens.push_back(tok.as<std::string>());
  }
  if (const auto n = root["w_q"]) p.w_q = rd.matrix(n, "w_q");
  if (const auto n = root["w_k"]) p.w_k = rd.matrix(n, "w_k");
  if (const auto n = root["w_v"]) p.w_v = rd.matrix(n, "w_v");
  if (const auto n = root["w_o"]) p.w_o = rd.matrix(n, "w_o");
  if (const auto n = root["heads"]) p.heads = static_cast<int>(rd.number(n, "heads"));
  if (const auto n = root["sharpness"]) p.sharpness = rd.number(n, "sharpness");
  if (const auto n = root["causal"]) {
    try {
      p.causal = n.as<bool>();
    } catch (const YAML::Exception&) {
      rd.fail(n, "problem.type", "'causal' must be true or false");
    }
  }
  if (const auto n = root["scale"]) {
    const std::string s = n.IsScalar() ? n.Scalar() : "";
    if (s == "auto")
      p.scale = ScaleMode::kAuto;
    else if (s == "none")
      p.scale = ScaleMode::kNone;
    else if (s == "inv_sqrt_dk")
      p.scale = ScaleMode::kInvSqrtDk;
    else
      rd.fail(n, "problem.type", "'scale' must be auto, none or inv_sqrt_dk");
  }
  try {
    validate(p);
  } catch (const Error& e) {
    throw Error(e.id(), file_label, e.message());
  }
  return p;
}

ProblemSpec load_problem_file(const std::filesystem::path& file) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw Error("problem.io", file.string(), "cannot open the file");
  std::string text;
  text.resize(kMaxFileBytes + 1);
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxFileBytes) throw Error("problem.too_large", file.string(), "over 8 MiB");
  return parse_problem_yaml(text, file.string());
}

std::vector<std::string> example_names() { return {"journey"}; }

ProblemSpec without_weights(ProblemSpec p) {
  p.w_q.reset();
  p.w_k.reset();
  p.w_v.reset();
  p.w_o.reset();
  p.heads = 1;
  return p;
}

ProblemSpec example_problem(const std::string& name) {
  if (name != "journey")
    throw Error("example.unknown", "no example named '" + name + "' (known: journey)");
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
