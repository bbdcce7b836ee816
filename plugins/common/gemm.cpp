// gemm.cpp: the one compiled copy of the kernels' matrix product (gemm.hpp), f32 and f64.
// SPDX-License-Identifier: MIT
#define AWB_KERNELS_INSTANTIATE
#include "common/gemm.hpp"

namespace awb::kernels {

template <class Scalar>
void gemm(ConstMatrixView<Scalar> a, Op op_a, ConstMatrixView<Scalar> b, Op op_b,
          MatrixView<Scalar> c, Scalar alpha, bool accumulate) {
  if (!accumulate) c.setZero();
  // One product expression per pair of operations: Eigen picks GEMM, GEMV or its small-size
  // product at run time from the shapes.
  auto run = [&](const auto& lhs, const auto& rhs) { c.noalias() += alpha * (lhs * rhs); };
  eigen_assert(op_a == Op::kAsIs || op_b == Op::kAsIs);
  if (op_a == Op::kTransposed)
    run(a.transpose(), b);
  else if (op_b == Op::kTransposed)
    run(a, b.transpose());
  else
    run(a, b);
}

template void gemm<float>(ConstMatrixView<float>, Op, ConstMatrixView<float>, Op, MatrixView<float>,
                          float, bool);
template void gemm<double>(ConstMatrixView<double>, Op, ConstMatrixView<double>, Op,
                           MatrixView<double>, double, bool);

}  // namespace awb::kernels
