// matrix_export.hpp: matrices as files another tool reads back: NumPy's .npy and CSV with the
// tokens as row and column headers.
//
// NPY format version 1.0 (numpy.lib.format): the magic "\x93NUMPY", bytes 1 and 0, a
// little-endian uint16 header length, then an ASCII dict
// "{'descr': '<f8', 'fortran_order': False, 'shape': (R, C), }" padded with spaces and ended by
// '\n' so that the data starts at a multiple of 64 bytes, then R·C little-endian doubles in row
// order. numpy.load reads it as a float64 array of shape (R, C).
#ifndef AWB_CORE_COMPARE_MATRIX_EXPORT_HPP_
#define AWB_CORE_COMPARE_MATRIX_EXPORT_HPP_

#include <string>
#include <vector>

#include "graders/model/tensor.hpp"

namespace awb::core {

// The .npy file's bytes.
std::string matrix_npy(const Matrix& m);

// CSV: a header line `corner,col_0,...`, then one line per row `row_label,v,...`, values in the
// shortest form that reads back to the same double, whatever the locale. Labels holding a comma, a
// quote or a line break are quoted, quotes doubled (RFC 4180). Missing labels are written as r<i> /
// c<j>.
std::string matrix_csv(const Matrix& m, const std::vector<std::string>& row_labels,
                       const std::vector<std::string>& col_labels, const std::string& corner);

}  // namespace awb::core

#endif  // AWB_CORE_COMPARE_MATRIX_EXPORT_HPP_
