// matrix_export.cpp: the .npy writer and labelled CSV.
#include "core/compare/matrix_export.hpp"

#include <bit>
#include <charconv>
#include <cstdint>
#include <cstring>

#include "graders/report/format.hpp"

namespace awb::core {

std::string matrix_npy(const Matrix& m) {
  static_assert(std::endian::native == std::endian::little, "'<f8' is written as in memory");
  std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (" +
                     std::to_string(m.rows) + ", " + std::to_string(m.cols) + "), }";
  // magic (6) + version (2) + header length (2) + dict + padding + '\n' ≡ 0 (mod 64).
  const size_t preamble = 10;
  const size_t total = (preamble + dict.size() + 1 + 63) / 64 * 64;
  dict.append(total - preamble - dict.size() - 1, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  const auto len = static_cast<uint16_t>(dict.size());
  out += static_cast<char>(len & 0xff);
  out += static_cast<char>(len >> 8);
  out += dict;
  const size_t bytes = m.data.size() * sizeof(double);
  const size_t at = out.size();
  out.resize(at + bytes);
  if (bytes > 0) std::memcpy(out.data() + at, m.data.data(), bytes);
  return out;
}

std::string matrix_csv(const Matrix& m, const std::vector<std::string>& row_labels,
                       const std::vector<std::string>& col_labels, const std::string& corner) {
  auto label = [](const std::vector<std::string>& labels, int64_t i, char prefix) {
    return i < static_cast<int64_t>(labels.size())
               ? grade::csv_field(labels[static_cast<size_t>(i)])
               : prefix + std::to_string(i);
  };
  std::string out = grade::csv_field(corner);
  for (int64_t c = 0; c < m.cols; ++c) out += ',' + label(col_labels, c, 'c');
  out += '\n';
  for (int64_t r = 0; r < m.rows; ++r) {
    out += label(row_labels, r, 'r');
    for (int64_t c = 0; c < m.cols; ++c) {
      char buf[32];
      const auto end = std::to_chars(buf, buf + sizeof buf, m(r, c)).ptr;
      out += ',';
      out.append(buf, end);
    }
    out += '\n';
  }
  return out;
}

}  // namespace awb::core
