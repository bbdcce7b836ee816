// plugin.hpp: header-only C++ layer over awb_plugin.h: one class, Eigen views, one export macro.
// SPDX-License-Identifier: MIT
//
// Write a variant as a class with a static `kInfo` and a templated `forward`:
//
//   #include <awb/plugin.hpp>
//
//   struct MyAttention {
//     static constexpr awb::VariantInfo kInfo{
//         "my-attention", "My attention", "Parameter-free dot-product attention.",
//         AWB_CAP_F64 | AWB_CAP_F32};
//
//     template <class T>
//     void forward(const awb::Problem<T>& p, awb::Results<T>& r) {
//       awb::RowMatrix<T> s = p.x() * p.x().transpose() * T(p.sharpness());
//       ...
//     }
//   };
//
//   AWB_EXPORT_PLUGIN((awb::PluginInfo{"org.example.my-attention", "My attention", "0.1.0",
//                                      "A. Student", "One variant."}),
//                     MyAttention)
//
// The layer builds the C descriptor, creates one object of your class per instance, calls
// forward<double> or forward<float> (only for the scalar types your capabilities declare), and
// turns every exception into a status and a message. Nothing C++ crosses the boundary.
//
// A trainable variant adds a templated `backward` (the layer then exports the "org.awb.backward/1"
// extension; a class without the method exports none):
//
//     template <class T>
//     void backward(const awb::Problem<T>& p, const awb::Upstream<T>& up, awb::Gradients<T>& g);
//
// `up` holds the forward results and dZ (and dA when the loss reads the weights); write g.dx()
// and, when present, g.dw_q(), g.dw_k(), g.dw_v(), g.dw_o(). See awb_plugin.h for the contract.
//
// Parameters (SDK 1.2): a variant that takes hyperparameters lists them in a static `kParams`
// array; the host sets their values per problem (`--param window=16`, `variant.params` in YAML,
// spin boxes in the GUI) and forward() reads them by name:
//
//     static constexpr const char* kMaps[] = {"elu+1", "relu"};
//     static constexpr awb_param_decl kParams[] = {
//         awb::int_param("window", 2, 0, 1 << 20, "keys each query sees on either side"),
//         awb::enum_param("feature_map", kMaps, 0, "the kernel feature map phi")};
//     ... awb::param<int>(p, "window"), p.choice("feature_map") == "relu" ...
//
// (`p.param<int>("window")` in code that is not a template; in a templated forward() C++ needs
// `p.template param<int>(...)`, which the free function spares you.)
//
// Cost (SDK 1.2): a variant whose work is not that of softmax attention states it, so that
// benchmarks can turn time into GFLOP/s honestly (the layer then exports "org.awb.cost/1"):
//
//     static awb::Cost cost(const awb::ProblemShape& p, bool writes_weights);
#ifndef AWB_PLUGIN_HPP_
#define AWB_PLUGIN_HPP_

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <iterator>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "awb/awb_plugin.h"
#include "awb/sequences.hpp"

namespace awb {

// Row-major matrices and views: the boundary's layout. Never pass these across the C ABI.
template <class T>
using RowMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class T>
using ConstMatrixView = Eigen::Map<const RowMatrix<T>, Eigen::Unaligned, Eigen::OuterStride<>>;
template <class T>
using MatrixView = Eigen::Map<RowMatrix<T>, Eigen::Unaligned, Eigen::OuterStride<>>;

enum class ScaleMode { kNone = AWB_SCALE_NONE, kInvSqrtDk = AWB_SCALE_INV_SQRT_DK };

// Thrown by plugin code to report a specific status; any other exception maps to INTERNAL.
class PluginError : public std::runtime_error {
 public:
  PluginError(awb_status status, const std::string& message)
      : std::runtime_error(message), status_(status) {}
  awb_status status() const noexcept { return status_; }

 private:
  awb_status status_;
};

struct VariantInfo {
  const char* id;
  const char* name;
  const char* description;
  uint64_t capabilities;
};

struct PluginInfo {
  const char* id;
  const char* name;
  const char* version;
  const char* author;
  const char* description;
};

namespace detail {

template <class T>
constexpr awb_scalar scalar_of() {
  return std::is_same_v<T, double> ? AWB_SCALAR_F64 : AWB_SCALAR_F32;
}

template <class T>
MatrixView<T> view2(const awb_tensor& t, int64_t plane = 0) {
  T* base = static_cast<T*>(t.data);
  if (t.rank == 3) {
    return MatrixView<T>(base + plane * t.stride[0], t.shape[1], t.shape[2],
                         Eigen::OuterStride<>(t.stride[1]));
  }
  return MatrixView<T>(base, t.shape[0], t.shape[1], Eigen::OuterStride<>(t.stride[0]));
}

}  // namespace detail

// Declarations of parameters (SDK 1.2), for a variant's static `kParams` array.
constexpr awb_param_decl int_param(const char* name, long long default_value, long long min_value,
                                   long long max_value, const char* doc) {
  return awb_param_decl{sizeof(awb_param_decl),
                        name,
                        AWB_PARAM_INT,
                        doc,
                        static_cast<double>(default_value),
                        static_cast<double>(min_value),
                        static_cast<double>(max_value),
                        0,
                        nullptr};
}
constexpr awb_param_decl float_param(const char* name, double default_value, double min_value,
                                     double max_value, const char* doc) {
  return awb_param_decl{sizeof(awb_param_decl),
                        name,
                        AWB_PARAM_FLOAT,
                        doc,
                        default_value,
                        min_value,
                        max_value,
                        0,
                        nullptr};
}
constexpr awb_param_decl bool_param(const char* name, bool default_value, const char* doc) {
  return awb_param_decl{sizeof(awb_param_decl),
                        name,
                        AWB_PARAM_BOOL,
                        doc,
                        default_value ? 1.0 : 0.0,
                        0,
                        1,
                        0,
                        nullptr};
}
// `choices` must have static storage (a static constexpr array of the variant class).
template <size_t N>
constexpr awb_param_decl enum_param(const char* name, const char* const (&choices)[N],
                                    size_t default_index, const char* doc) {
  return awb_param_decl{
      sizeof(awb_param_decl),     name, AWB_PARAM_ENUM, doc, static_cast<double>(default_index), 0,
      static_cast<double>(N - 1), N,    choices};
}

// What one forward pass costs: floating-point operations (an FMA counts 2) and bytes moved.
struct Cost {
  double flops = 0;
  double bytes = 0;
};

// The shape, flags and parameters of one problem, without its numbers: what forward() sees
// besides the tensors, and all that cost() sees.
class ProblemShape {
 public:
  // `variant` supplies the declared defaults when the host sent no values (an older host).
  explicit ProblemShape(const awb_problem& p, const awb_variant* variant = nullptr)
      : p_(p), variant_(variant) {}

  bool has_projections() const { return present(p_.w_q) && present(p_.w_k) && present(p_.w_v); }
  bool has_output_projection() const { return present(p_.w_o); }
  Eigen::Index tokens() const { return p_.x.shape[0]; }
  Eigen::Index d_model() const { return p_.x.shape[1]; }
  int heads() const { return p_.n_heads; }
  // Key/value heads (SDK 1.3): fewer than heads() in grouped-query attention, where query head j
  // reads key/value head j / (heads() / kv_heads()); heads() from an older host, or when 0.
  int kv_heads() const {
    constexpr size_t kCovers = offsetof(awb_problem, n_kv_heads) + sizeof(int32_t);
    const int g = p_.struct_size >= kCovers ? p_.n_kv_heads : 0;
    return g > 0 ? g : heads();
  }
  // Per-head key and value widths; without projections both equal d_model.
  Eigen::Index d_k() const { return has_projections() ? p_.w_q.shape[1] / heads() : d_model(); }
  Eigen::Index d_v() const { return has_projections() ? p_.w_v.shape[1] / kv_heads() : d_model(); }
  bool causal() const { return p_.causal != 0; }
  double sharpness() const { return p_.sharpness; }
  ScaleMode scale_mode() const { return static_cast<ScaleMode>(p_.scale_mode); }
  int threads() const { return p_.n_threads; }
  // d_out: W_o's columns, else h·d_v.
  Eigen::Index d_out() const {
    if (has_output_projection()) return p_.w_o.shape[1];
    return has_projections() ? heads() * d_v() : d_model();
  }
  // The factor that turns Q·Kᵀ into the softmax input: scale (if any) times sharpness.
  double score_factor_f64() const {
    double f = p_.sharpness;
    if (scale_mode() == ScaleMode::kInvSqrtDk) f /= std::sqrt(static_cast<double>(d_k()));
    return f;
  }

  // A declared parameter's value: int, long, float, double or bool (an enum's index as an int).
  // Throws INVALID_ARGUMENT for a name the variant does not declare.
  template <class U>
  U param(const char* name) const {
    const double v = value_of(name);
    if constexpr (std::is_same_v<U, bool>) {
      return v != 0;
    } else if constexpr (std::is_integral_v<U>) {
      return static_cast<U>(std::llround(v));
    } else {
      return static_cast<U>(v);
    }
  }
  // An enum parameter's choice by name ("elu+1"); needs the declaration (always there inside
  // forward() and cost()).
  std::string_view choice(const char* name) const {
    const awb_param_decl* d = declaration(name);
    if (!d || d->type != AWB_PARAM_ENUM)
      throw PluginError(AWB_ERR_INVALID_ARGUMENT, std::string(name) + " is not an enum parameter");
    const long long i = std::llround(value_of(name));
    if (i < 0 || static_cast<size_t>(i) >= d->n_choices)
      throw PluginError(AWB_ERR_INVALID_ARGUMENT, std::string(name) + ": choice out of range");
    return d->choices[i];
  }
  const awb_problem& raw() const { return p_; }

 protected:
  // Present: data, or (in a cost query, which carries no data) a rank and a non-empty shape.
  static bool present(const awb_tensor& t) {
    return t.data != nullptr || (t.rank > 0 && t.shape[0] > 0);
  }

  const awb_param_decl* declaration(const char* name) const {
    constexpr size_t kCovers = offsetof(awb_variant, params) + sizeof(void*);
    if (!variant_ || variant_->struct_size < kCovers || !variant_->params) return nullptr;
    for (size_t i = 0; i < variant_->n_params; ++i)
      if (std::strcmp(variant_->params[i]->name, name) == 0) return variant_->params[i];
    return nullptr;
  }
  double value_of(const char* name) const {
    constexpr size_t kCovers = offsetof(awb_problem, params) + sizeof(void*);
    if (p_.struct_size >= kCovers && p_.params)
      for (size_t i = 0; i < p_.n_params; ++i)
        if (p_.params[i].name && std::strcmp(p_.params[i].name, name) == 0)
          return p_.params[i].value;
    if (const awb_param_decl* d = declaration(name)) return d->default_value;
    throw PluginError(AWB_ERR_INVALID_ARGUMENT,
                      std::string("no parameter '") + name + "' is declared by this variant");
  }

  const awb_problem& p_;
  const awb_variant* variant_;
};

// A parameter's value read in a templated forward(), where `p.param<int>(...)` would need the
// `template` keyword: `awb::param<int>(p, "window")`.
template <class U>
U param(const ProblemShape& p, const char* name) {
  return p.param<U>(name);
}

// Read-only view of one problem; valid during the forward call that received it.
template <class T>
class Problem : public ProblemShape {
 public:
  explicit Problem(const awb_problem& p, const awb_variant* variant = nullptr)
      : ProblemShape(p, variant) {}

  ConstMatrixView<T> x() const { return view(p_.x, "x"); }
  ConstMatrixView<T> w_q() const { return view(p_.w_q, "w_q"); }
  ConstMatrixView<T> w_k() const { return view(p_.w_k, "w_k"); }
  ConstMatrixView<T> w_v() const { return view(p_.w_v, "w_v"); }
  ConstMatrixView<T> w_o() const { return view(p_.w_o, "w_o"); }
  T score_factor() const { return static_cast<T>(score_factor_f64()); }

 private:
  ConstMatrixView<T> view(const awb_tensor& t, const char* name) const {
    if (!t.data) throw PluginError(AWB_ERR_INVALID_ARGUMENT, std::string(name) + " is absent");
    return ConstMatrixView<T>(static_cast<const T*>(t.data), t.shape[0], t.shape[1],
                              Eigen::OuterStride<>(t.stride[0]));
  }
};

// Writable views of the host's output buffers; valid during the forward call.
template <class T>
class Results {
 public:
  explicit Results(awb_results& r) : r_(r) {}

  MatrixView<T> z() { return detail::view2<T>(r_.z); }
  // A and S are optional: when the host does not want them, do not touch them (and feel free
  // to never hold a T × T matrix).
  bool wants_weights() const { return r_.a.data != nullptr; }
  bool wants_scores() const { return r_.s.data != nullptr; }
  MatrixView<T> weights(int head) { return checked(r_.a, head, "weights (A)"); }
  MatrixView<T> scores(int head) { return checked(r_.s, head, "scores (S)"); }
  awb_results& raw() { return r_; }

 private:
  MatrixView<T> checked(const awb_tensor& t, int head, const char* what) {
    if (!t.data) throw PluginError(AWB_ERR_INTERNAL, std::string(what) + " was not requested");
    if (head < 0 || head >= t.shape[0]) throw PluginError(AWB_ERR_INTERNAL, "head out of range");
    return detail::view2<T>(t, head);
  }
  awb_results& r_;
};

// The backward pass's inputs: the forward results of the same problem and the upstream gradients.
template <class T>
class Upstream {
 public:
  Upstream(const awb_results& forward, const awb_tensor& dz, const awb_tensor* da)
      : forward_(forward), dz_(dz), da_(da) {}
  ConstMatrixView<T> z() const { return cview(forward_.z); }
  // A and S of the forward call, when the host kept them (recompute them otherwise).
  bool has_weights() const { return forward_.a.data != nullptr; }
  ConstMatrixView<T> weights(int head) const { return cview(forward_.a, head); }
  ConstMatrixView<T> dz() const { return cview(dz_); }
  // ∂L/∂A, when the loss reads the attention weights.
  bool has_da() const { return da_ && da_->data; }
  ConstMatrixView<T> da(int head) const { return cview(*da_, head); }
  // The host's tensors as they came (a class that takes batches whole splits them with them).
  const awb_results& raw_forward() const { return forward_; }
  const awb_tensor& raw_dz() const { return dz_; }
  const awb_tensor* raw_da() const { return da_; }

 private:
  static ConstMatrixView<T> cview(const awb_tensor& t, int64_t plane = 0) {
    const auto m = detail::view2<T>(t, plane);
    return ConstMatrixView<T>(m.data(), m.rows(), m.cols(), Eigen::OuterStride<>(m.outerStride()));
  }
  const awb_results& forward_;
  const awb_tensor& dz_;
  const awb_tensor* da_;
};

// Writable views of the host's gradient buffers; each present one must be filled completely.
template <class T>
class Gradients {
 public:
  explicit Gradients(awb_gradients& g) : g_(g) {}
  MatrixView<T> dx() { return detail::view2<T>(g_.dx); }
  bool has_dw_q() const { return g_.dw_q.data != nullptr; }
  bool has_dw_k() const { return g_.dw_k.data != nullptr; }
  bool has_dw_v() const { return g_.dw_v.data != nullptr; }
  bool has_dw_o() const { return g_.dw_o.data != nullptr; }
  MatrixView<T> dw_q() { return checked(g_.dw_q, "dW_q"); }
  MatrixView<T> dw_k() { return checked(g_.dw_k, "dW_k"); }
  MatrixView<T> dw_v() { return checked(g_.dw_v, "dW_v"); }
  MatrixView<T> dw_o() { return checked(g_.dw_o, "dW_o"); }
  awb_gradients& raw() { return g_; }

 private:
  MatrixView<T> checked(const awb_tensor& t, const char* what) {
    if (!t.data) throw PluginError(AWB_ERR_INTERNAL, std::string(what) + " was not requested");
    return detail::view2<T>(t);
  }
  awb_gradients& g_;
};

namespace detail {

inline void write_error(char* buf, size_t cap, const char* msg) noexcept {
  if (!buf || cap == 0) return;
  std::snprintf(buf, cap, "%s", msg);
}

// Runs `fn` and converts any exception into a status + message. Nothing escapes.
template <class Fn>
awb_status guarded(char* error, size_t cap, Fn&& fn) noexcept {
  try {
    fn();
    return AWB_OK;
  } catch (const PluginError& e) {
    write_error(error, cap, e.what());
    return e.status();
  } catch (const std::bad_alloc&) {
    write_error(error, cap, "out of memory");
    return AWB_ERR_OUT_OF_MEMORY;
  } catch (const std::exception& e) {
    write_error(error, cap, e.what());
    return AWB_ERR_INTERNAL;
  } catch (...) {
    write_error(error, cap, "unknown exception");
    return AWB_ERR_INTERNAL;
  }
}

// Detects `template <class T> void backward(const Problem<T>&, const Upstream<T>&,
// Gradients<T>&)` on a variant class (C++17: the SDK does not require C++20).
template <class V, class T, class = void>
struct HasBackward : std::false_type {};
template <class V, class T>
struct HasBackward<V, T,
                   std::void_t<decltype(std::declval<V&>().template backward<T>(
                       std::declval<const Problem<T>&>(), std::declval<const Upstream<T>&>(),
                       std::declval<Gradients<T>&>()))>> : std::true_type {};

// Detects `static Cost cost(const ProblemShape&, bool writes_weights)` on a variant class.
template <class V, class = void>
struct HasCost : std::false_type {};
template <class V>
struct HasCost<V, std::void_t<decltype(V::cost(std::declval<const ProblemShape&>(), true))>>
    : std::true_type {};

// Detects `static constexpr bool kTakesBatches = true` on a variant class: its forward() and
// backward() are given a batch whole (Problem::raw()'s batch and lengths, SDK 1.3) and write 0 at
// the padding themselves (Z, A and S; dX), the weights' gradients summed over the sequences;
// without it the C++ layer calls them once per sequence.
template <class V, class = void>
struct TakesBatches : std::false_type {};
template <class V>
struct TakesBatches<V, std::void_t<decltype(V::kTakesBatches)>>
    : std::bool_constant<V::kTakesBatches> {};

// A variant class's `kParams` (a static constexpr array of awb_param_decl), when it has one.
template <class V, class = void>
struct ParamsOf {
  static constexpr size_t kCount = 0;
  static constexpr const awb_param_decl* const* pointers() { return nullptr; }
};
template <class V>
struct ParamsOf<V, std::void_t<decltype(std::size(V::kParams))>> {
  static constexpr size_t kCount = std::size(V::kParams);
  template <size_t... I>
  static constexpr std::array<const awb_param_decl*, kCount> make(std::index_sequence<I...>) {
    return {&V::kParams[I]...};
  }
  static constexpr std::array<const awb_param_decl*, kCount> kPointers =
      make(std::make_index_sequence<kCount>{});
  static constexpr const awb_param_decl* const* pointers() { return kPointers.data(); }
};

template <class V>
struct VariantTable {
  static awb_status create(const awb_variant*, void** instance, char* error, size_t cap) noexcept {
    return guarded(error, cap, [&] { *instance = new V(); });
  }
  static void destroy(void* instance) noexcept { delete static_cast<V*>(instance); }

  static awb_status forward(void* instance, const awb_problem* problem, awb_results* results,
                            char* error, size_t cap) noexcept {
    return guarded(error, cap, [&] {
      V& v = *static_cast<V*>(instance);
      // A batch (SDK 1.3): one call of the author's forward() per sequence, unless the class
      // takes batches whole (and then its backward() too, below).
      if (batched(*problem) && !TakesBatches<V>::value)
        forward_by_sequence(*problem, *results,
                            [&](const awb_problem& p, awb_results& r) { forward_one(v, p, r); });
      else
        forward_one(v, *problem, *results);
    });
  }

  static void forward_one(V& v, const awb_problem& problem, awb_results& results) {
    constexpr uint64_t caps = V::kInfo.capabilities;
    if (problem.scalar == AWB_SCALAR_F64) {
      if constexpr ((caps & AWB_CAP_F64) != 0) {
        const Problem<double> p(problem, &kVariant);
        Results<double> r(results);
        v.template forward<double>(p, r);
        return;
      }
    } else if (problem.scalar == AWB_SCALAR_F32) {
      if constexpr ((caps & AWB_CAP_F32) != 0) {
        const Problem<float> p(problem, &kVariant);
        Results<float> r(results);
        v.template forward<float>(p, r);
        return;
      }
    }
    throw PluginError(AWB_ERR_UNSUPPORTED, "scalar type not supported by this variant");
  }

  // Whether the author's class has backward<T>(Problem, Upstream, Gradients): then, and only
  // then, the variant exports the backward extension.
  template <class T>
  static constexpr bool kHasBackward = HasBackward<V, T>::value;

  template <class T>
  static void run_backward(V& v, const awb_problem& problem, const awb_results& forward,
                           const awb_tensor& dz, const awb_tensor* da, awb_gradients& grads) {
    const Problem<T> p(problem, &kVariant);
    const Upstream<T> up(forward, dz, da);
    Gradients<T> g(grads);
    v.template backward<T>(p, up, g);
  }

  static awb_status backward(void* instance, const awb_problem* problem, const awb_results* forward,
                             const awb_tensor* dz, const awb_tensor* da, awb_gradients* grads,
                             char* error, size_t cap) noexcept {
    return guarded(error, cap, [&] {
      V& v = *static_cast<V*>(instance);
      if (batched(*problem) && !TakesBatches<V>::value)
        backward_by_sequence(
            *problem, *forward, *dz, da, *grads,
            [&](const awb_problem& p, const awb_results& f, const awb_tensor& d,
                const awb_tensor* a, awb_gradients& g) { backward_one(v, p, f, d, a, g); });
      else
        backward_one(v, *problem, *forward, *dz, da, *grads);
    });
  }

  static void backward_one(V& v, const awb_problem& problem, const awb_results& forward,
                           const awb_tensor& dz, const awb_tensor* da, awb_gradients& grads) {
    constexpr uint64_t caps = V::kInfo.capabilities;
    if (problem.scalar == AWB_SCALAR_F64) {
      if constexpr ((caps & AWB_CAP_F64) != 0 && kHasBackward<double>) {
        run_backward<double>(v, problem, forward, dz, da, grads);
        return;
      }
    } else if (problem.scalar == AWB_SCALAR_F32) {
      if constexpr ((caps & AWB_CAP_F32) != 0 && kHasBackward<float>) {
        run_backward<float>(v, problem, forward, dz, da, grads);
        return;
      }
    }
    throw PluginError(AWB_ERR_UNSUPPORTED, "scalar type not supported by this variant");
  }

  static constexpr awb_backward_ext kBackward{sizeof(awb_backward_ext), &backward};

  static awb_status cost(const awb_variant*, const awb_problem* problem, int32_t writes_weights,
                         awb_cost* out, char* error, size_t cap) noexcept {
    return guarded(error, cap, [&] {
      if constexpr (HasCost<V>::value) {
        // A batch costs the sum of its sequences, each at its own length.
        const awb_cost sum = cost_by_sequence(*problem, [&](const awb_problem& sp) {
          const Cost c = V::cost(ProblemShape(sp, &kVariant), writes_weights != 0);
          return awb_cost{sizeof(awb_cost), c.flops, c.bytes};
        });
        out->flops = sum.flops;
        out->bytes = sum.bytes;
      }
    });
  }
  static constexpr awb_cost_ext kCost{sizeof(awb_cost_ext), &cost};

  static const void* get_extension(const awb_variant*, const char* id) noexcept {
    if (!id) return nullptr;
    if constexpr (kHasBackward<double> || kHasBackward<float>) {
      if (std::strcmp(id, AWB_EXT_BACKWARD) == 0) return &kBackward;
    }
    if constexpr (HasCost<V>::value) {
      if (std::strcmp(id, AWB_EXT_COST) == 0) return &kCost;
    }
    return nullptr;
  }

  static constexpr awb_variant kVariant{sizeof(awb_variant),
                                        V::kInfo.id,
                                        V::kInfo.name,
                                        V::kInfo.description,
                                        V::kInfo.capabilities | AWB_CAP_BATCH,
                                        &create,
                                        &destroy,
                                        &forward,
                                        &get_extension,
                                        ParamsOf<V>::kCount,
                                        ParamsOf<V>::pointers()};
};

template <class... Vs>
const awb_plugin_descriptor* descriptor_for(const PluginInfo& info) noexcept {
  static const awb_variant* const variants[] = {&VariantTable<Vs>::kVariant...};
  static const awb_plugin_descriptor descriptor{sizeof(awb_plugin_descriptor),
                                                AWB_ABI_MAJOR,
                                                AWB_ABI_MINOR,
                                                info.id,
                                                info.name,
                                                info.version,
                                                info.author,
                                                info.description,
                                                sizeof...(Vs),
                                                variants};
  return &descriptor;
}

}  // namespace detail
}  // namespace awb

// Exports the entry symbol for a plugin made of the listed variant classes. `plugin_info` is a
// parenthesised awb::PluginInfo{...} expression with static-storage strings.
#define AWB_EXPORT_PLUGIN(plugin_info, ...)                                   \
  extern "C" AWB_EXPORT const awb_plugin_descriptor* awb_plugin_entry(void) { \
    return ::awb::detail::descriptor_for<__VA_ARGS__>(plugin_info);           \
  }

#endif  // AWB_PLUGIN_HPP_
