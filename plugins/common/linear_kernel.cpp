// linear_kernel.cpp: the one compiled copy of the linear-attention kernel, f32 and f64.
// SPDX-License-Identifier: MIT
#define AWB_KERNELS_INSTANTIATE
#include "common/linear_kernel.hpp"

namespace awb::kernels {

// Parts of linear_forward (templates of this file alone; not in an anonymous namespace, which
// the instantiated kernel's lambdas may not capture from).

// The streaming path's per-(head, block) sums: block b of head h's K̃ᵀV (d_k × d_v) and key sum.
template <class Scalar>
struct BlockSums {
  LinearWorkspace<Scalar>& lw;
  Eigen::Index blocks, dk;
  auto kv(Eigen::Index h, Eigen::Index b) { return lw.kv.middleRows((h * blocks + b) * dk, dk); }
  auto ksum(Eigen::Index h, Eigen::Index b) { return lw.ksum.row(h * blocks + b); }
};

// Pass 2 (streaming): per head, the sums each block's queries see: with the mask, those of the
// earlier blocks (an exclusive prefix sum over the blocks); without, the total, kept in block 0.
template <class Scalar>
void sum_blocks(BlockSums<Scalar>& sums, Eigen::Index H, Eigen::Index dv, bool causal,
                ThreadTeam& team, int threads) {
  using RowVector = Eigen::Matrix<Scalar, 1, Eigen::Dynamic>;
  const Eigen::Index blocks = sums.blocks, dk = sums.dk;
  team.run(H, static_cast<int>(std::min<Eigen::Index>(threads, H)), [&](Eigen::Index h, int) {
    if (!causal) {
      for (Eigen::Index b = 1; b < blocks; ++b) {
        sums.kv(h, 0) += sums.kv(h, b);
        sums.ksum(h, 0) += sums.ksum(h, b);
      }
      return;
    }
    RowMatrix<Scalar> running_kv = RowMatrix<Scalar>::Zero(dk, dv), block_kv;
    RowVector running_ksum = RowVector::Zero(dk), block_ksum;
    for (Eigen::Index b = 0; b < blocks; ++b) {
      block_kv = sums.kv(h, b);
      block_ksum = sums.ksum(h, b);
      sums.kv(h, b) = running_kv;
      sums.ksum(h, b) = running_ksum;
      running_kv += block_kv;
      running_ksum += block_ksum;
    }
  });
}

// Pass 3 (streaming) for one block of n queries from t0 of head h: q̃ times the sums it sees,
// and with the mask the block's own keys under the diagonal (the query's own key included).
template <class Scalar, class Q, class K, class V, class Out>
void attend_streaming(BlockSums<Scalar>& sums, Eigen::Index h, Eigen::Index b, bool causal,
                      const Q& q, const K& k, const V& v, Eigen::Index t0, Scalar eps,
                      Scratch<Scalar>& w, Out out) {
  const Eigen::Index n = q.rows(), src = causal ? b : 0;
  w.out.resize(n, v.cols());
  w.row_sum.resize(n);
  multiply(q, sums.kv(h, src), w.out);
  multiply_bt(q, sums.ksum(h, src), w.row_sum);
  if (causal) {
    w.scores.resize(n, n);
    multiply_bt(q, k.middleRows(t0, n), w.scores);
    w.scores.template triangularView<Eigen::StrictlyUpper>().setZero();
    multiply_add(w.scores, v.middleRows(t0, n), w.out);
    w.row_sum += w.scores.rowwise().sum();
  }
  out = (w.out.array().colwise() / (w.row_sum.array() + eps)).matrix();
}

template <class Scalar>
void linear_forward(const Problem<Scalar>& p, Results<Scalar>& r, FeatureMap phi,
                    LinearWorkspaces& workspaces) {
  const auto [projected, causal, H, T, dk, dv, KV] =
      geometry(p, Inputs::kProjected, Mask::kAsProblemSays);
  LinearWorkspace<Scalar>& lw = workspaces.get<Scalar>();
  Workspace<Scalar>& ws = lw.base;
  const Scalar factor = score_factor(p, dk), eps = static_cast<Scalar>(kLinearEpsilon);
  const bool materialise = r.wants_weights() || r.wants_scores();
  const double work =
      double(H) * double(T) * (materialise ? double(T) * double(dk + dv) : 2.0 * double(dk * dv)) +
      double(T) * double(p.d_model()) * double(H) * double(2 * dk + dv);
  const auto [threads, direct] = prepare_heads(p, ws, workspaces.team, work, projected, H, dv);
  auto z = r.z();

  const Eigen::Index B = causal ? kLinearCausalBlock : kLinearBlock;
  const Eigen::Index blocks = (T + B - 1) / B;
  const bool streaming = !materialise;
  if (streaming) {
    lw.kv.resize(Eigen::Index(H) * blocks * dk, dv);
    lw.ksum.resize(Eigen::Index(H) * blocks, dk);
  }
  BlockSums<Scalar> sums{lw, blocks, dk};

  // Pass 1: the feature maps, q̃ = φ(c·q) and k̃ = φ(k), in place, per (head, block); streaming,
  // also each block's K̃ᵀV and key sum.
  workspaces.team.run(Eigen::Index(H) * blocks, threads, [&](Eigen::Index task, int) {
    const Eigen::Index h = task / blocks, b = task % blocks;
    const Eigen::Index t0 = b * B, n = std::min(B, T - t0);
    auto q = ws.q.block(t0, h * dk, n, dk);
    auto k = ws.k.block(t0, h * dk, n, dk);
    q *= factor;
    apply_feature_map(q, phi);
    apply_feature_map(k, phi);
    if (streaming) {
      multiply_at(k, ws.v.block(t0, h * dv, n, dv), sums.kv(h, b));
      sums.ksum(h, b) = k.colwise().sum();
    }
  });

  if (streaming) sum_blocks(sums, H, dv, causal, workspaces.team, threads);

  // Pass 3: the outputs per (head, block). Outputs land in Z directly when no W_o follows.
  workspaces.team.run(Eigen::Index(H) * blocks, threads, [&](Eigen::Index task, int slot) {
    const Eigen::Index h = task / blocks, b = task % blocks;
    const Eigen::Index t0 = b * B, n = std::min(B, T - t0);
    Scratch<Scalar>& w = ws.scratch[static_cast<size_t>(slot)];
    const auto q = ws.q.block(t0, h * dk, n, dk);
    const auto k = ws.k.middleCols(h * dk, dk);
    const auto v = ws.v.middleCols(h * dv, dv);
    auto attend = [&](auto out) {
      if (streaming) return attend_streaming(sums, h, b, causal, q, k, v, t0, eps, w, out);
      // Materialised: S over every key (the softmax's place has no mask), then each row divided
      // by its visible sum in place (in A itself when A is wanted), then A·V over visible keys.
      auto materialised = [&](auto&& a) {
        multiply_bt(q, k, a);
        if (r.wants_scores()) r.scores(h).middleRows(t0, n) = a;
        for (Eigen::Index i = 0; i < n; ++i) {
          const Eigen::Index visible = causal ? t0 + i + 1 : T;
          auto row = a.row(i);
          row.head(visible) /= row.head(visible).sum() + eps;
          row.tail(T - visible).setZero();
        }
        const Eigen::Index keys = causal ? t0 + n : T;
        multiply(a.leftCols(keys), v.topRows(keys), out);
      };
      with_weight_rows(r, static_cast<int>(h), t0, n, T, w.scores, materialised);
    };
    with_head_rows(direct, z, ws.heads_out, t0, n, h * dv, dv, attend);
  });

  if (!direct) project_output(p, ws.heads_out, z, workspaces.team, threads, ws.projection);
}

template void linear_forward<float>(const Problem<float>&, Results<float>&, FeatureMap,
                                    LinearWorkspaces&);
template void linear_forward<double>(const Problem<double>&, Results<double>&, FeatureMap,
                                     LinearWorkspaces&);

}  // namespace awb::kernels
