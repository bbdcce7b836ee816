// fused_gemm.hpp: the projections' matrix products (Q, K, V = X·W_q, X·W_k, X·W_v and Z =
// heads·W_o) on the streaming kernel's micro-kernel (fused_attention.hpp) in the AVX2 + FMA and
// AVX-512 worlds. With its 6 × kPanelKeys block of accumulators (24 vector registers with
// AVX-512, through the whole depth) the attention kernel ran at 75-83 % of the FMA peak, softmax
// included, where Eigen's GEMM (a block of 12 with AVX-512) reached 65-75 % on the same machine;
// the projections, half the FLOPs of 8 heads at T = 1024, ran at Eigen's speed. On this kernel
// the 8 heads took 0.95 of the time.
//
// The products that share A (X for Q, K and V) pack it once: by micro-block, each block's kRows
// rows interleaved by depth, as the micro-kernel reads queries. A task is a product and a chunk
// of kChunkPanels panels of B's columns: it packs its chunk (panels of kPanelKeys columns, each
// panel's k rows one after the other: B's own rows, cut), which then stays in the second-level
// cache while every micro-block of A goes past it.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_FUSED_GEMM_HPP_
#define AWB_PLUGINS_COMMON_FUSED_GEMM_HPP_

#include <algorithm>
#include <awb/plugin.hpp>
#include <span>
#include <vector>

#include "common/fused_attention.hpp"
#include "common/thread_team.hpp"

namespace awb::kernels::fused {

// Kept between calls (fresh buffers cost a page fault per 4 KiB at every call): A packed, and
// per thread its chunk of B and a block for the ragged edges of C.
// Bands of rows [first, first + count) of A and C (a batch's sequences without their padding).
using RowBands = std::span<const std::pair<Eigen::Index, Eigen::Index>>;

template <class Scalar>
struct GemmScratch {
  AlignedVector<Scalar> a;
  std::vector<AlignedVector<Scalar>> b, edge;
  std::vector<std::pair<Eigen::Index, Eigen::Index>> blocks;  // each micro-block's first row, rows
};

// c[i] = a · b[i] for every i: a is m × k, b[i] k × n_i, c[i] m × n_i, all row-major (unit inner
// stride); only the rows of `bands` when given (the others of c are left as they were). The
// products run as tasks on `threads` threads of `team`.
template <class Scalar>
void multiply_shared_lhs(ConstMatrixView<Scalar> a, std::span<const ConstMatrixView<Scalar>> b,
                         std::span<const MatrixView<Scalar>> c, ThreadTeam& team, int threads,
                         GemmScratch<Scalar>& w, RowBands bands = {}) {
  using B = Blocking<Scalar>;
  constexpr Eigen::Index kChunkPanels = 2;
  const Eigen::Index k = a.cols();
  // The micro-blocks of every band (all of A's rows as one band when none is given).
  w.blocks.clear();
  auto add_band = [&](Eigen::Index first, Eigen::Index count) {
    for (Eigen::Index r = first; r < first + count; r += B::kRows)
      w.blocks.emplace_back(r, std::min<Eigen::Index>(B::kRows, first + count - r));
  };
  if (bands.empty())
    add_band(0, a.rows());
  else
    for (const auto& [first, count] : bands) add_band(first, count);
  const auto micro = static_cast<Eigen::Index>(w.blocks.size());
  if (micro == 0) return;

  // A by micro-block (detail::pack_micro_blocks), a few blocks per task.
  w.a.resize(static_cast<size_t>(micro * k * B::kRows));
  constexpr Eigen::Index kPackBlocks = 16;
  team.run((micro + kPackBlocks - 1) / kPackBlocks, threads, [&](Eigen::Index task, int) {
    for (Eigen::Index i = task * kPackBlocks; i < std::min(micro, (task + 1) * kPackBlocks); ++i) {
      const auto [row0, rows] = w.blocks[static_cast<size_t>(i)];
      detail::pack_micro_blocks(a.data() + row0 * a.outerStride(), a.outerStride(), rows, k,
                                Scalar(1), 0, 1, w.a.data() + i * k * B::kRows);
    }
  });

  // The tasks: (product, chunk of panels).
  struct Task {
    size_t product;
    Eigen::Index first_panel, panels;
  };
  std::vector<Task> tasks;
  for (size_t i = 0; i < b.size(); ++i) {
    const Eigen::Index panels = (b[i].cols() + B::kPanelKeys - 1) / B::kPanelKeys;
    for (Eigen::Index j = 0; j < panels; j += kChunkPanels)
      tasks.push_back({i, j, std::min(kChunkPanels, panels - j)});
  }
  if (w.b.size() < static_cast<size_t>(threads)) {
    w.b.resize(static_cast<size_t>(threads));
    w.edge.resize(static_cast<size_t>(threads));
  }
  team.run(static_cast<Eigen::Index>(tasks.size()), threads, [&](Eigen::Index t, int slot) {
    const Task& task = tasks[static_cast<size_t>(t)];
    const ConstMatrixView<Scalar>& rhs = b[task.product];
    MatrixView<Scalar> out = c[task.product];  // a copy of the view: written through
    const Eigen::Index n = rhs.cols(), col0 = task.first_panel * B::kPanelKeys;
    const Eigen::Index width = task.panels * B::kPanelKeys, cols = std::min(width, n - col0);
    AlignedVector<Scalar>& packed = w.b[static_cast<size_t>(slot)];
    packed.resize(static_cast<size_t>(task.panels * k * B::kPanelKeys));
    for (Eigen::Index j = 0; j < task.panels; ++j) {
      const Eigen::Index c0 = col0 + j * B::kPanelKeys;
      const Eigen::Index here = std::clamp<Eigen::Index>(n - c0, 0, B::kPanelKeys);
      Scalar* dst = packed.data() + j * k * B::kPanelKeys;
      for (Eigen::Index p = 0; p < k; ++p, dst += B::kPanelKeys) {
        std::copy_n(rhs.data() + p * rhs.outerStride() + c0, here, dst);
        std::fill(dst + here, dst + B::kPanelKeys, Scalar(0));
      }
    }
    AlignedVector<Scalar>& edge = w.edge[static_cast<size_t>(slot)];
    edge.resize(static_cast<size_t>(B::kRows * width));
    Scalar unused_max[B::kRows];
    for (Eigen::Index i = 0; i < micro; ++i) {
      const auto [row0, rows] = w.blocks[static_cast<size_t>(i)];
      const Scalar* lhs = w.a.data() + i * k * B::kRows;
      if (rows == B::kRows && cols == width) {
        detail::micro_scores<Scalar>(lhs, packed.data(), k, task.panels, 0,
                                     out.data() + row0 * out.outerStride() + col0,
                                     out.outerStride(), unused_max);
        continue;
      }
      // A ragged block (the last rows, the last panel's columns) through one of its own.
      detail::micro_scores<Scalar>(lhs, packed.data(), k, task.panels, 0, edge.data(), width,
                                   unused_max);
      for (Eigen::Index r = 0; r < rows; ++r)
        std::copy_n(edge.data() + r * width, cols,
                    out.data() + (row0 + r) * out.outerStride() + col0);
    }
  });
}

}  // namespace awb::kernels::fused

#endif  // AWB_PLUGINS_COMMON_FUSED_GEMM_HPP_
