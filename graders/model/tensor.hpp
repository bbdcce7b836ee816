// tensor.hpp: the host's plain row-major matrix of doubles (no Eigen in the host's model).
#ifndef AWB_GRADERS_MODEL_TENSOR_HPP_
#define AWB_GRADERS_MODEL_TENSOR_HPP_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace awb {

struct Matrix {
  int64_t rows = 0;
  int64_t cols = 0;
  std::vector<double> data;  // rows * cols, row-major

  Matrix() = default;
  Matrix(int64_t r, int64_t c, double fill = 0.0)
      : rows(r), cols(c), data(static_cast<std::size_t>(r * c), fill) {}
  double& operator()(int64_t r, int64_t c) { return data[static_cast<std::size_t>(r * cols + c)]; }
  double operator()(int64_t r, int64_t c) const {
    return data[static_cast<std::size_t>(r * cols + c)];
  }
  bool empty() const { return data.empty(); }
  // Columns [first, first + count) as a new matrix.
  Matrix column_block(int64_t first, int64_t count) const {
    Matrix out(rows, count);
    for (int64_t r = 0; r < rows; ++r)
      for (int64_t c = 0; c < count; ++c) out(r, c) = (*this)(r, first + c);
    return out;
  }
};

}  // namespace awb

#endif  // AWB_GRADERS_MODEL_TENSOR_HPP_
