// test_support.cpp: implementation of the shared test helpers.
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include "core/plugins/capabilities.hpp"
#include "core/plugins/reference_forward.hpp"
#include "graders/checks/finite_difference.hpp"
#include "graders/model/error.hpp"
#include "graders/reference/reference_gradients.hpp"
#include "graders/tolerance/tolerance.hpp"

namespace awb::test {

Matrix random_matrix(std::mt19937_64& rng, int64_t r, int64_t c) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Matrix m(r, c);
  for (double& v : m.data) v = u(rng);
  return m;
}

BackwardSeed random_upstream(std::mt19937_64& rng, const ProblemSpec& p) {
  BackwardSeed up{random_matrix(rng, p.tokens_count(), p.d_out()), {}};
  for (int64_t h = 0; h < p.planes(); ++h)
    up.da.push_back(random_matrix(rng, p.sequence_tokens(), p.sequence_tokens()));
  return up;
}

LayerGradients check_backward(Subject& subject, const ProblemSpec& p, const BackwardSeed& up) {
  const LayerGradients e64 = reference::gradients_of(p, up, Scalar::kF64);
  const LayerGradients e32 = reference::gradients_of(p, up, Scalar::kF32);
  const LayerGradients r32 = reference::f32_rounding_bounds(p, up);
  LayerGradients g64 = subject.backward(p, up, Scalar::kF64);
  const LayerGradients g32 = subject.backward(p, up, Scalar::kF32);
  const auto n64 = grade::gradient_tensors(g64), n32 = grade::gradient_tensors(g32);
  const auto m64 = grade::gradient_tensors(e64), m32 = grade::gradient_tensors(e32);
  const auto b32 = grade::gradient_tensors(r32);
  REQUIRE(n64.size() == m64.size());
  REQUIRE(n32.size() == m64.size());
  for (size_t i = 0; i < m64.size(); ++i) {
    INFO(m64[i].first);
    CHECK(grade::within_f64(n64[i].second->data, m64[i].second->data, {1e-11, 1e-9}));
    CHECK(grade::within_f32(n32[i].second->data, m32[i].second->data, m64[i].second->data,
                            b32[i].second->data));
  }
  return g64;
}

namespace {

// The tensors of three results side by side: Z, then each head of A and of S.
struct Triple {
  std::string name;
  const Matrix* got;
  const Matrix* expected;
  const Matrix* other;  // a third result's tensor (the f32 reference), or the expected one
};

std::vector<Triple> triples(const ForwardResult& a, const ForwardResult& b,
                            const ForwardResult& c) {
  std::vector<Triple> out{{"Z", &a.z, &b.z, &c.z}};
  for (size_t h = 0; h < a.weights.size(); ++h)
    out.push_back({"A[" + std::to_string(h) + "]", &a.weights[h], &b.weights[h], &c.weights[h]});
  for (size_t h = 0; h < a.scores.size(); ++h)
    out.push_back({"S[" + std::to_string(h) + "]", &a.scores[h], &b.scores[h], &c.scores[h]});
  return out;
}

bool same_layout(const ForwardResult& a, const ForwardResult& b) {
  return a.weights.size() == b.weights.size() && a.scores.size() == b.scores.size();
}

}  // namespace

ProblemSpec random_problem(std::mt19937_64& rng, int64_t tokens, int64_t d_model, int heads,
                           int64_t d_k, bool projected, bool causal) {
  ProblemSpec p;
  p.x = random_matrix(rng, tokens, d_model);
  if (projected) {
    p.w_q = random_matrix(rng, d_model, heads * d_k);
    p.w_k = random_matrix(rng, d_model, heads * d_k);
    p.w_v = random_matrix(rng, d_model, heads * d_k);
    p.w_o = random_matrix(rng, heads * d_k, d_model);
  }
  p.heads = heads;
  p.causal = causal;
  std::uniform_real_distribution<double> sharp(0.25, 2.0);
  p.sharpness = sharp(rng);
  validate(p);
  return p;
}

const core::Catalog& bundled_catalog() {
  static const core::Catalog catalog = core::load_catalog({AWB_TEST_PLUGIN_DIR});
  return catalog;
}

ForwardResult run_variant(const core::VariantRef& ref, const ProblemSpec& problem, Scalar scalar) {
  core::ForwardOptions o;
  o.scalar = scalar;
  return run_variant(ref, problem, o);
}

ForwardResult run_variant(const core::VariantRef& ref, const ProblemSpec& problem,
                          const core::ForwardOptions& options) {
  const auto fitted =
      core::adapt(problem, ref.variant->capabilities, options.scalar, core::Fit::kStrict);
  if (!fitted.problem) throw Error("test.cannot_run", fitted.reason);
  core::VariantInstance inst(ref.plugin->library, *ref.variant);
  return core::run_forward(inst.as_raw(), *fitted.problem, options);
}

ForwardResult run_forward_reference(uint64_t capabilities, const ProblemSpec& problem,
                                    core::ForwardOptions options, Scalar scalar) {
  const auto fitted = core::adapt(problem, capabilities, scalar, core::Fit::kStrict);
  if (!fitted.problem) throw Error("test.cannot_run", fitted.reason);
  options.scalar = scalar;
  return core::run_forward(core::reference_forward(capabilities), *fitted.problem, options);
}

ForwardResult run_reference(uint64_t capabilities, const ProblemSpec& problem, Scalar scalar) {
  const auto fitted = core::adapt(problem, capabilities, scalar, core::Fit::kStrict);
  if (!fitted.problem) throw Error("test.cannot_run", fitted.reason);
  core::ForwardOptions o;
  o.scalar = scalar;
  return core::run_forward(core::reference_forward(capabilities), *fitted.problem, o);
}

std::string compare_f64(const ForwardResult& got, const ForwardResult& expected) {
  if (!same_layout(got, expected)) return "different head counts";
  std::string out;
  for (const auto& t : triples(got, expected, expected)) {
    if (grade::within_f64(t.got->data, t.expected->data)) continue;
    const auto d = grade::max_difference(t.got->data, t.expected->data);
    out += t.name + ": max |diff| " + std::to_string(d.max_abs) + " at flat index " +
           std::to_string(d.index) + "; ";
  }
  return out;
}

std::string compare_f32(const ForwardResult& got, const ForwardResult& f32_reference,
                        const ForwardResult& f64_reference) {
  if (!same_layout(got, f64_reference) || !same_layout(got, f32_reference))
    return "different head counts";
  std::string out;
  for (const auto& t : triples(got, f64_reference, f32_reference)) {
    if (grade::within_f32(t.got->data, t.other->data, t.expected->data)) continue;
    out += t.name + ": max |diff| " +
           std::to_string(grade::max_difference(t.got->data, t.expected->data).max_abs) +
           " over bound " + std::to_string(grade::f32_bound(t.other->data, t.expected->data)) +
           "; ";
  }
  return out;
}

Matrix rows(std::initializer_list<std::initializer_list<double>> values) {
  Matrix m(static_cast<int64_t>(values.size()), static_cast<int64_t>(values.begin()->size()));
  int64_t r = 0;
  for (const auto& row : values) {
    int64_t c = 0;
    for (double v : row) m(r, c++) = v;
    ++r;
  }
  return m;
}

std::string thrown_error_id(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.id();
  }
  return "";
}

void check_refused(const std::function<void()>& f, const std::string& id, const std::string& text) {
  try {
    f();
    FAIL("nothing thrown; expected " << id);
  } catch (const Error& e) {
    INFO(e.what());
    CHECK(e.id() == id);
    CHECK_THAT(e.message(), Catch::Contains(text));
  }
}

}  // namespace awb::test
