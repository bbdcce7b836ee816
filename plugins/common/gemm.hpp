// gemm.hpp: the one matrix product of the bundled kernels, C (+)= α·op(A)·op(B) on row-major
// views. Every product in the kernels goes through it, so Eigen's product machinery (the GEMM
// packing and micro-kernels, the GEMV and small-size paths) is instantiated once per world and
// scalar in gemm.cpp, not once per block expression at each call site: that instantiation was
// most of the kernels' compile time. The speed is Eigen's, as before.
// SPDX-License-Identifier: MIT
#ifndef AWB_PLUGINS_COMMON_GEMM_HPP_
#define AWB_PLUGINS_COMMON_GEMM_HPP_

#include <awb/plugin.hpp>

namespace awb::kernels {

// Whether an operand enters the product as it is or transposed.
enum class Op : bool { kAsIs, kTransposed };

// c = alpha · op(a) · op(b), or c += … when `accumulate`; at most one operand transposed. `c` must
// not overlap `a` or `b`, and has op(a)·op(b)'s shape (a view does not resize).
template <class Scalar>
void gemm(ConstMatrixView<Scalar> a, Op op_a, ConstMatrixView<Scalar> b, Op op_b,
          MatrixView<Scalar> c, Scalar alpha = Scalar(1), bool accumulate = false);

// A row-major view (mutable, or const) of a dense row-major matrix or block (rows contiguous), or
// of a column vector (one column, its elements one apart).
template <class E>
Eigen::OuterStride<> row_stride(const E& e) {
  static_assert(E::IsRowMajor || E::ColsAtCompileTime == 1, "row-major operands only");
  eigen_assert(e.innerStride() == 1);
  return Eigen::OuterStride<>(E::IsRowMajor ? e.outerStride() : e.innerStride());
}
template <class E, class T = std::remove_cvref_t<E>>
MatrixView<typename T::Scalar> view(E&& e) {
  return {e.data(), e.rows(), e.cols(), row_stride(e)};
}
template <class E>
ConstMatrixView<typename E::Scalar> cview(const E& e) {
  return {e.data(), e.rows(), e.cols(), row_stride(e)};
}

// The common shapes, by name.
template <class A, class B, class C>
void multiply(const A& a, const B& b, C&& c, typename A::Scalar alpha = 1) {  // c = α·a·b
  gemm(cview(a), Op::kAsIs, cview(b), Op::kAsIs, view(c), alpha);
}
template <class A, class B, class C>
void multiply_add(const A& a, const B& b, C&& c) {  // c += a·b
  gemm(cview(a), Op::kAsIs, cview(b), Op::kAsIs, view(c), typename A::Scalar(1), true);
}
template <class A, class B, class C>
void multiply_bt(const A& a, const B& b, C&& c, typename A::Scalar alpha = 1) {  // c = α·a·bᵀ
  gemm(cview(a), Op::kAsIs, cview(b), Op::kTransposed, view(c), alpha);
}
template <class A, class B, class C>
void multiply_add_bt(const A& a, const B& b, C&& c) {  // c += a·bᵀ
  gemm(cview(a), Op::kAsIs, cview(b), Op::kTransposed, view(c), typename A::Scalar(1), true);
}
template <class A, class B, class C>
void multiply_at(const A& a, const B& b, C&& c) {  // c = aᵀ·b
  gemm(cview(a), Op::kTransposed, cview(b), Op::kAsIs, view(c));
}

#ifndef AWB_KERNELS_INSTANTIATE
extern template void gemm<float>(ConstMatrixView<float>, Op, ConstMatrixView<float>, Op,
                                 MatrixView<float>, float, bool);
extern template void gemm<double>(ConstMatrixView<double>, Op, ConstMatrixView<double>, Op,
                                  MatrixView<double>, double, bool);
#endif

}  // namespace awb::kernels

#endif  // AWB_PLUGINS_COMMON_GEMM_HPP_
