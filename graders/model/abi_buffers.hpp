// abi_buffers.hpp: host matrices laid out as ABI tensors of one scalar type, for the forward and
// backward marshalling of plugins and of the reference (the buffers live as long as the object).
#ifndef AWB_GRADERS_MODEL_ABI_BUFFERS_HPP_
#define AWB_GRADERS_MODEL_ABI_BUFFERS_HPP_

#include <awb/awb_plugin.h>

#include <array>
#include <optional>
#include <type_traits>
#include <vector>

#include "graders/model/gradients.hpp"
#include "graders/model/problem.hpp"
#include "graders/model/tensor.hpp"

namespace awb {

// A dense row-major tensor header over `data`: rank 2 (rows × cols) or 3 (planes × rows × cols).
inline awb_tensor make_tensor(void* data, int32_t rank, std::array<int64_t, 3> shape) {
  awb_tensor t{};
  t.data = data;
  t.rank = rank;
  for (int i = 0; i < 3; ++i) t.shape[i] = i < rank ? shape[i] : 1;
  if (rank == 2) {
    t.stride[0] = shape[1];
    t.stride[1] = 1;
  } else {
    t.stride[0] = shape[1] * shape[2];
    t.stride[1] = shape[2];
    t.stride[2] = 1;
  }
  return t;
}

// Buffers of one scalar type; `bind` copies a matrix in and returns its tensor.
template <class T>
class AbiBuffers {
 public:
  awb_tensor bind(const Matrix& m) {
    auto& buf = store_.emplace_back(m.data.begin(), m.data.end());
    return make_tensor(buf.data(), 2, {m.rows, m.cols, 1});
  }
  awb_tensor bind(const std::optional<Matrix>& m) { return m ? bind(*m) : awb_tensor{}; }
  // h planes of T × T (h = planes.size()), or an absent tensor when there are none.
  awb_tensor bind_planes(const std::vector<Matrix>& planes) {
    if (planes.empty()) return awb_tensor{};
    auto& buf = store_.emplace_back();
    for (const auto& m : planes) buf.insert(buf.end(), m.data.begin(), m.data.end());
    return make_tensor(buf.data(), 3,
                       {static_cast<int64_t>(planes.size()), planes[0].rows, planes[0].cols});
  }
  // An output buffer of `count` elements filled with `fill`.
  T* output(size_t count, T fill) { return store_.emplace_back(count, fill).data(); }

  // Gradient buffers shaped like p's X and weights (absent where p has no such weight).
  awb_gradients gradients_like(const ProblemSpec& p, T fill) {
    auto like = [&](const std::optional<Matrix>& m) {
      if (!m) return awb_tensor{};
      return make_tensor(output(m->data.size(), fill), 2, {m->rows, m->cols, 1});
    };
    awb_gradients g{};
    g.struct_size = sizeof(awb_gradients);
    g.dx = like(p.x);
    g.dw_q = like(p.w_q);
    g.dw_k = like(p.w_k);
    g.dw_v = like(p.w_v);
    g.dw_o = like(p.w_o);
    return g;
  }

  // The ABI problem for `p` (already validated and fitted), with its inputs bound here, and the
  // parameters `decls` declares with their `values` (resolve_params), in declaration order.
  awb_problem problem(const ProblemSpec& p, int threads, const std::vector<ParamDecl>& decls = {},
                      const std::vector<double>& values = {}) {
    awb_problem prob{};
    prob.struct_size = sizeof(awb_problem);
    prob.scalar = std::is_same_v<T, double> ? AWB_SCALAR_F64 : AWB_SCALAR_F32;
    prob.n_heads = p.heads;
    prob.n_kv_heads = p.kv_head_count();
    prob.batch = p.batch;
    lengths_ = p.lengths;
    prob.lengths = lengths_.empty() ? nullptr : lengths_.data();
    prob.causal = p.causal ? 1 : 0;
    prob.scale_mode =
        p.resolved_scale() == ScaleMode::kNone ? AWB_SCALE_NONE : AWB_SCALE_INV_SQRT_DK;
    prob.n_threads = threads;
    prob.sharpness = p.sharpness;
    prob.x = bind(p.x);
    prob.w_q = bind(p.w_q);
    prob.w_k = bind(p.w_k);
    prob.w_v = bind(p.w_v);
    prob.w_o = bind(p.w_o);
    params_.clear();
    for (size_t i = 0; i < decls.size() && i < values.size(); ++i)
      params_.push_back(awb_param_value{decls[i].name.c_str(), values[i]});
    prob.n_params = params_.size();
    prob.params = params_.empty() ? nullptr : params_.data();
    return prob;
  }

 private:
  std::vector<std::vector<T>> store_;    // vectors move, their heap blocks do not
  std::vector<awb_param_value> params_;  // names point into the caller's declarations
  std::vector<int64_t> lengths_;         // the padding mask the problem points to
};

// A rank-2 tensor's contents as a host matrix.
template <class T>
Matrix to_matrix(const awb_tensor& t) {
  Matrix m(t.shape[0], t.shape[1]);
  const T* src = static_cast<const T*>(t.data);
  for (int64_t r = 0; r < m.rows; ++r)
    for (int64_t c = 0; c < m.cols; ++c) m(r, c) = static_cast<double>(src[r * t.stride[0] + c]);
  return m;
}

// Gradient tensors as host matrices.
template <class T>
LayerGradients to_gradients(const awb_gradients& g) {
  LayerGradients out;
  out.dx = to_matrix<T>(g.dx);
  if (g.dw_q.data) out.dw_q = to_matrix<T>(g.dw_q);
  if (g.dw_k.data) out.dw_k = to_matrix<T>(g.dw_k);
  if (g.dw_v.data) out.dw_v = to_matrix<T>(g.dw_v);
  if (g.dw_o.data) out.dw_o = to_matrix<T>(g.dw_o);
  return out;
}

// A rank-3 tensor's planes as host matrices.
template <class T>
std::vector<Matrix> to_planes(const awb_tensor& t) {
  std::vector<Matrix> out;
  const T* src = static_cast<const T*>(t.data);
  for (int64_t h = 0; h < t.shape[0]; ++h) {
    Matrix m(t.shape[1], t.shape[2]);
    for (int64_t r = 0; r < m.rows; ++r)
      for (int64_t c = 0; c < m.cols; ++c)
        m(r, c) = static_cast<double>(src[h * t.stride[0] + r * t.stride[1] + c]);
    out.push_back(std::move(m));
  }
  return out;
}

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_ABI_BUFFERS_HPP_
