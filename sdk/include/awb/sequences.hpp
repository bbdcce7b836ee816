// sequences.hpp: a batch of padded sequences (SDK 1.3: awb_problem's batch and lengths) as one
// problem per sequence. The C++ layer (plugin.hpp) runs a batched problem through these for every
// variant it exports (a class that takes batches whole, kTakesBatches, excepted), and a host
// does the same for a variant without AWB_CAP_BATCH. Sequence b's tensors are views into the
// batched ones (its first L_b rows, the top-left L_b × L_b of its planes): nothing is copied but
// the weights' gradients, which add up over the sequences. C++17, no Eigen.
// SPDX-License-Identifier: MIT
#ifndef AWB_SEQUENCES_HPP_
#define AWB_SEQUENCES_HPP_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "awb/awb_plugin.h"

namespace awb {

// B: problem.batch where struct_size covers it and it is set, else 1.
inline int64_t batch_size(const awb_problem& p) {
  constexpr size_t kCovers = offsetof(awb_problem, batch) + sizeof(int32_t);
  return p.struct_size >= kCovers && p.batch > 1 ? p.batch : 1;
}
// The lengths, or NULL when every sequence is whole (or the host predates them).
inline const int64_t* sequence_lengths(const awb_problem& p) {
  constexpr size_t kCovers = offsetof(awb_problem, lengths) + sizeof(void*);
  return p.struct_size >= kCovers ? p.lengths : nullptr;
}
// Whether the problem is more than one whole sequence.
inline bool batched(const awb_problem& p) {
  return batch_size(p) > 1 || sequence_lengths(p) != nullptr;
}
// T, the tokens of every sequence (padding included).
inline int64_t sequence_tokens(const awb_problem& p) { return p.x.shape[0] / batch_size(p); }
// L_b, the real tokens of sequence b.
inline int64_t sequence_length(const awb_problem& p, int64_t b) {
  const int64_t* lengths = sequence_lengths(p);
  return lengths ? lengths[b] : sequence_tokens(p);
}

namespace detail {

inline size_t element_bytes(const awb_problem& p) {
  return p.scalar == AWB_SCALAR_F64 ? sizeof(double) : sizeof(float);
}
// Rows [first, first + count) of a rank-2 tensor (a view; an absent tensor stays absent, and a
// shapes-only one, data NULL, keeps NULL).
inline awb_tensor rows_of(const awb_tensor& t, int64_t first, int64_t count, size_t bytes) {
  if (t.rank == 0) return t;
  awb_tensor out = t;
  if (t.data) out.data = static_cast<char*>(t.data) + first * t.stride[0] * int64_t(bytes);
  out.shape[0] = count;
  return out;
}
// Planes [first, first + count) of a rank-3 tensor, each cut to its top-left n × n.
inline awb_tensor planes_of(const awb_tensor& t, int64_t first, int64_t count, int64_t n,
                            size_t bytes) {
  if (!t.data && t.rank == 0) return t;
  awb_tensor out = t;
  if (t.data) out.data = static_cast<char*>(t.data) + first * t.stride[0] * int64_t(bytes);
  out.shape[0] = count;
  out.shape[1] = n;
  out.shape[2] = n;
  return out;
}
// Zeroes rows [first, end) of a rank-2 tensor.
inline void zero_rows(const awb_tensor& t, int64_t first, int64_t end, size_t bytes) {
  if (!t.data) return;
  for (int64_t r = first; r < end; ++r)
    std::memset(static_cast<char*>(t.data) + r * t.stride[0] * int64_t(bytes), 0,
                size_t(t.shape[1]) * bytes);
}
// Zeroes what lies outside the top-left n × n of planes [first, first + count) of a T × T tensor.
inline void zero_plane_padding(const awb_tensor& t, int64_t first, int64_t count, int64_t n,
                               size_t bytes) {
  if (!t.data) return;
  const int64_t T = t.shape[1];
  for (int64_t h = first; h < first + count; ++h)
    for (int64_t r = 0; r < T; ++r) {
      char* row = static_cast<char*>(t.data) + (h * t.stride[0] + r * t.stride[1]) * int64_t(bytes);
      const int64_t from = r < n ? n : 0;
      std::memset(row + from * int64_t(bytes), 0, size_t(T - from) * bytes);
    }
}

}  // namespace detail

// Sequence b as a problem of its own: its L_b tokens, the shared weights, no batch.
inline awb_problem sequence_problem(const awb_problem& p, int64_t b) {
  awb_problem out = p;
  const int64_t T = sequence_tokens(p);
  out.x = detail::rows_of(p.x, b * T, sequence_length(p, b), detail::element_bytes(p));
  out.batch = 0;
  out.lengths = nullptr;
  return out;
}

// Calls `one(sequence_problem(p, b), b)` for every sequence b of the batch (once, b = 0, with the
// problem itself as its only sequence when it is not batched).
template <class One>
void for_each_sequence(const awb_problem& p, One&& one) {
  for (int64_t b = 0; b < batch_size(p); ++b) one(sequence_problem(p, b), b);
}

// Sequence b's outputs within the batched ones; `heads` planes per sequence.
inline awb_results sequence_results(const awb_results& r, const awb_problem& p, int64_t b) {
  const int64_t T = sequence_tokens(p), n = sequence_length(p, b), heads = p.n_heads;
  const size_t bytes = detail::element_bytes(p);
  awb_results out = r;
  out.z = detail::rows_of(r.z, b * T, n, bytes);
  out.a = detail::planes_of(r.a, b * heads, heads, n, bytes);
  out.s = detail::planes_of(r.s, b * heads, heads, n, bytes);
  return out;
}

// Runs `one(problem, results)` on every sequence, then writes 0 at the padded positions.
template <class One>
void forward_by_sequence(const awb_problem& p, awb_results& r, One&& one) {
  const size_t bytes = detail::element_bytes(p);
  const int64_t T = sequence_tokens(p), heads = p.n_heads;
  for_each_sequence(p, [&](const awb_problem& sp, int64_t b) {
    awb_results sr = sequence_results(r, p, b);
    one(sp, sr);
    const int64_t n = sp.x.shape[0];
    detail::zero_rows(r.z, b * T + n, (b + 1) * T, bytes);
    detail::zero_plane_padding(r.a, b * heads, heads, n, bytes);
    detail::zero_plane_padding(r.s, b * heads, heads, n, bytes);
  });
}

// The sum of `one(problem)`'s costs (awb_cost) over the sequences, each at its own length.
template <class One>
awb_cost cost_by_sequence(const awb_problem& p, One&& one) {
  awb_cost sum{sizeof(awb_cost), 0, 0};
  for_each_sequence(p, [&](const awb_problem& sp, int64_t) {
    const awb_cost c = one(sp);
    sum.flops += c.flops;
    sum.bytes += c.bytes;
  });
  return sum;
}

// Runs `one(problem, forward, dz, da, grads)` on every sequence: dX's rows are the sequence's (0
// at padded positions), the weights' gradients the sums over the sequences (the first sequence
// writes the host's buffers, each later one a buffer of its own that is then added in).
template <class One>
void backward_by_sequence(const awb_problem& p, const awb_results& forward, const awb_tensor& dz,
                          const awb_tensor* da, awb_gradients& g, One&& one) {
  const size_t bytes = detail::element_bytes(p);
  const int64_t T = sequence_tokens(p), heads = p.n_heads;
  awb_tensor awb_gradients::*const weights[] = {&awb_gradients::dw_q, &awb_gradients::dw_k,
                                                &awb_gradients::dw_v, &awb_gradients::dw_o};
  std::vector<std::vector<char>> own(4);
  for_each_sequence(p, [&](const awb_problem& sp, int64_t b) {
    const int64_t n = sp.x.shape[0];
    const awb_results sf = sequence_results(forward, p, b);
    const awb_tensor sdz = detail::rows_of(dz, b * T, n, bytes);
    awb_tensor sda{};
    if (da && da->data) sda = detail::planes_of(*da, b * heads, heads, n, bytes);
    awb_gradients sg = g;
    sg.dx = detail::rows_of(g.dx, b * T, n, bytes);
    for (int i = 0; i < 4 && b > 0; ++i) {
      awb_tensor& w = sg.*weights[i];
      if (!w.data) continue;
      own[size_t(i)].resize(size_t(w.shape[0] * w.shape[1]) * bytes);  // written whole
      w.data = own[size_t(i)].data();
      w.stride[0] = w.shape[1];
    }
    one(sp, sf, sdz, sda.data ? &sda : nullptr, sg);
    detail::zero_rows(g.dx, b * T + n, (b + 1) * T, bytes);
    for (int i = 0; i < 4 && b > 0; ++i) {
      const awb_tensor& into = g.*weights[i];
      if (!into.data) continue;
      const char* from = own[size_t(i)].data();
      for (int64_t r = 0; r < into.shape[0]; ++r)
        for (int64_t c = 0; c < into.shape[1]; ++c) {
          char* to = static_cast<char*>(into.data) + (r * into.stride[0] + c) * int64_t(bytes);
          const char* add = from + (r * into.shape[1] + c) * int64_t(bytes);
          if (p.scalar == AWB_SCALAR_F64)
            *reinterpret_cast<double*>(to) += *reinterpret_cast<const double*>(add);
          else
            *reinterpret_cast<float*>(to) += *reinterpret_cast<const float*>(add);
        }
    }
  });
}

}  // namespace awb

#endif  // AWB_SEQUENCES_HPP_
