// variant_harness.hpp: the research variants' tests drive plugins and the reference through the C
// ABI alone (awb_problem with parameters, awb_results), so they need neither the host nor its
// loader: a plugin is dlopen'ed from the build's plugin folder, a problem is plain vectors.
#ifndef AWB_TESTS_UNIT_VARIANT_HARNESS_HPP_
#define AWB_TESTS_UNIT_VARIANT_HARNESS_HPP_

#include <awb/awb_plugin.h>
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "graders/reference/reference_attention.hpp"

namespace awb::test {

// One variant of a bundled plugin, loaded for the life of the test binary.
inline const awb_variant& bundled_variant(const std::string& file, const char* id) {
  const std::string path = std::string(AWB_TEST_PLUGIN_DIR) + "/" + file + ".so";
  void* handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);  // never closed: tests keep it
  if (!handle) throw std::runtime_error("cannot load " + path + ": " + dlerror());
  auto entry = reinterpret_cast<awb_plugin_entry_fn>(dlsym(handle, AWB_ENTRY_SYMBOL));
  if (!entry) throw std::runtime_error(path + " has no entry symbol");
  const awb_plugin_descriptor* d = entry();
  for (size_t i = 0; i < d->n_variants; ++i)
    if (std::strcmp(d->variants[i]->id, id) == 0) return *d->variants[i];
  throw std::runtime_error(path + " has no variant " + id);
}

// A problem in f64: X T × C, W_q C × H·dk, W_k C × G·dk, W_v C × G·dv, optional W_o H·dv × dout
// (G = kv_heads key/value heads; 0 means H).
struct Spec {
  int64_t tokens = 4, d_model = 8, heads = 1, d_k = 4, d_v = 4, d_out = 0;  // d_out 0: no W_o
  bool causal = false;
  double sharpness = 1;
  awb_scale_mode scale = AWB_SCALE_INV_SQRT_DK;
  std::vector<double> x, w_q, w_k, w_v, w_o;
  std::vector<awb_param_value> params;
  int threads = 0;
  int64_t kv_heads = 0;
  int64_t kv() const { return kv_heads ? kv_heads : heads; }
};

// The spec with only its first `kv` key/value heads: W_k and W_v keep their first kv·d columns.
inline void group_kv_heads(Spec& s, int64_t kv) {
  auto keep = [&](std::vector<double>& w, int64_t width) {
    std::vector<double> out;
    for (int64_t r = 0; r < s.d_model; ++r)
      for (int64_t c = 0; c < kv * width; ++c) out.push_back(w[r * s.heads * width + c]);
    w = std::move(out);
  };
  keep(s.w_k, s.d_k);
  keep(s.w_v, s.d_v);
  s.kv_heads = kv;
}

// Inputs N(0, 1) and weights N(0, 1/C), so that scores are of order 1.
inline Spec random_spec(std::mt19937_64& rng, int64_t tokens, int64_t heads, bool causal,
                        bool with_wo, int64_t d_model = 12, int64_t d_k = 5, int64_t d_v = 4) {
  Spec s;
  s.tokens = tokens;
  s.d_model = d_model;
  s.heads = heads;
  s.d_k = d_k;
  s.d_v = d_v;
  s.d_out = with_wo ? 6 : 0;
  s.causal = causal;
  std::normal_distribution<double> n01(0, 1), nw(0, 1 / std::sqrt(double(d_model)));
  auto fill = [&](std::vector<double>& v, int64_t count, auto& dist) {
    v.resize(count);
    for (auto& e : v) e = dist(rng);
  };
  fill(s.x, tokens * d_model, n01);
  fill(s.w_q, d_model * heads * d_k, nw);
  fill(s.w_k, d_model * heads * d_k, nw);
  fill(s.w_v, d_model * heads * d_v, nw);
  if (with_wo) fill(s.w_o, heads * d_v * s.d_out, nw);
  return s;
}

// What a forward call returned, in f64 whatever it computed in.
struct Output {
  std::vector<double> z, a, s;  // a and s empty when not requested
};

enum class Want { kZ, kWeights, kScores, kBoth };

inline awb_tensor tensor2(void* data, int64_t rows, int64_t cols) {
  awb_tensor t{};
  t.data = data;
  t.rank = 2;
  t.shape[0] = rows;
  t.shape[1] = cols;
  t.shape[2] = 1;
  t.stride[0] = cols;
  t.stride[1] = 1;
  return t;
}
inline awb_tensor tensor3(void* data, int64_t planes, int64_t rows, int64_t cols) {
  awb_tensor t{};
  t.data = data;
  t.rank = 3;
  t.shape[0] = planes;
  t.shape[1] = rows;
  t.shape[2] = cols;
  t.stride[0] = rows * cols;
  t.stride[1] = cols;
  t.stride[2] = 1;
  return t;
}

// Runs `fn(problem, results)` on the spec in scalar type S, with the requested outputs.
template <class S, class Fn>
Output run_with(const Spec& spec, Want want, Fn&& fn) {
  auto cast = [](const std::vector<double>& v) { return std::vector<S>(v.begin(), v.end()); };
  std::vector<S> x = cast(spec.x), wq = cast(spec.w_q), wk = cast(spec.w_k), wv = cast(spec.w_v),
                 wo = cast(spec.w_o);
  const int64_t T = spec.tokens, C = spec.d_model, H = spec.heads;
  const int64_t out_cols = spec.d_out ? spec.d_out : H * spec.d_v;
  awb_problem p{};
  p.struct_size = sizeof(awb_problem);
  p.scalar = std::is_same_v<S, double> ? AWB_SCALAR_F64 : AWB_SCALAR_F32;
  p.n_heads = static_cast<int32_t>(H);
  p.n_kv_heads = static_cast<int32_t>(spec.kv());
  p.causal = spec.causal;
  p.scale_mode = spec.scale;
  p.n_threads = spec.threads;
  p.sharpness = spec.sharpness;
  p.x = tensor2(x.data(), T, C);
  p.w_q = tensor2(wq.data(), C, H * spec.d_k);
  p.w_k = tensor2(wk.data(), C, spec.kv() * spec.d_k);
  p.w_v = tensor2(wv.data(), C, spec.kv() * spec.d_v);
  if (spec.d_out) p.w_o = tensor2(wo.data(), H * spec.d_v, spec.d_out);
  p.n_params = spec.params.size();
  p.params = spec.params.empty() ? nullptr : spec.params.data();
  const bool want_a = want == Want::kWeights || want == Want::kBoth;
  const bool want_s = want == Want::kScores || want == Want::kBoth;
  // NaN-filled, so that an entry the call leaves unwritten cannot pass for a value.
  std::vector<S> z(T * out_cols, NAN), a(want_a ? H * T * T : 0, NAN),
      s(want_s ? H * T * T : 0, NAN);
  awb_results r{};
  r.struct_size = sizeof(awb_results);
  r.z = tensor2(z.data(), T, out_cols);
  if (want_a) r.a = tensor3(a.data(), H, T, T);
  if (want_s) r.s = tensor3(s.data(), H, T, T);
  fn(p, r);
  auto back = [](const std::vector<S>& v) { return std::vector<double>(v.begin(), v.end()); };
  return {back(z), back(a), back(s)};
}

template <class S>
Output run_reference(const Spec& spec, VariantKind kind, Want want = Want::kBoth) {
  return run_with<S>(spec, want, [&](const awb_problem& p, awb_results& r) {
    reference::attention_forward(p, r, kind);
  });
}

// One fresh instance per call: create, forward, destroy.
template <class S>
Output run_plugin(const awb_variant& v, const Spec& spec, Want want) {
  return run_with<S>(spec, want, [&](const awb_problem& p, awb_results& r) {
    char error[512] = "";
    void* instance = nullptr;
    if (v.create(&v, &instance, error, sizeof error) != AWB_OK)
      throw std::runtime_error(std::string("create: ") + error);
    const awb_status st = v.forward(instance, &p, &r, error, sizeof error);
    v.destroy(instance);
    if (st != AWB_OK) throw std::runtime_error(std::string("forward: ") + error);
  });
}

// The largest |got − want| over a tensor, and the largest |want|.
struct Diff {
  double max_error = 0, max_magnitude = 0;
};
inline Diff diff(const std::vector<double>& got, const std::vector<double>& want) {
  if (got.size() != want.size()) return {INFINITY, 0};
  Diff d;
  for (size_t i = 0; i < got.size(); ++i) {
    const double e = std::abs(got[i] - want[i]);
    d.max_error = std::isnan(e) ? INFINITY : std::max(d.max_error, e);
    d.max_magnitude = std::max(d.max_magnitude, std::abs(want[i]));
  }
  return d;
}

// f64: the kernels and the reference sum the same terms in other orders (blocked GEMMs, the
// online softmax's rescaling, prefix sums): a few hundred roundings of 1.1e-16 on values of
// order 1.
inline constexpr double kF64Tolerance = 1e-11;
// f32, judged against the f64 reference as graders do: unit roundoff 6e-8 over sums of up to
// ~10³ terms (T keys, d columns, linear attention's sums over T keys) bounds the error by about
// T·u ≈ 6e-5 of the largest value; 2e-4 leaves room for exp and the division.
inline constexpr double kF32Tolerance = 2e-4;

// "" when every output `got` holds is within `tolerance` × max(1, largest |want|) of `want`.
inline std::string mismatch(const Output& got, const Output& want, double tolerance) {
  auto one = [&](const char* name, const std::vector<double>& g, const std::vector<double>& w) {
    if (g.empty()) return std::string();
    const auto d = diff(g, w);
    if (d.max_error <= tolerance * std::max(1.0, d.max_magnitude)) return std::string();
    return std::string(name) + " differs by " + std::to_string(d.max_error) + "; ";
  };
  return one("Z", got.z, want.z) + one("A", got.a, want.a) + one("S", got.s, want.s);
}

}  // namespace awb::test

#endif  // AWB_TESTS_UNIT_VARIANT_HARNESS_HPP_
