// numpy_arrays.hpp: NumPy's .npy arrays and .npz archives of them read as the host's matrices,
// for problem files that hold real data.
//
// NPY (numpy.lib.format): the magic "\x93NUMPY", a major and a minor version byte (1.0, 2.0 or
// 3.0), the header's length as a little-endian uint16 (1.0) or uint32 (2.0, 3.0), the header: a
// Python dict literal "{'descr': '<f8', 'fortran_order': False, 'shape': (R, C), }" padded with
// spaces and ended by '\n', then the data. An .npz is a ZIP archive of NAME.npy entries, stored
// (np.savez) or deflated (np.savez_compressed); libzip reads it.
//
// Every check that bounds memory is made from the header, before the data is allocated: the
// number of dimensions, each dimension against the caller's cap, and the data's size against the
// bytes the file (or the archive's entry) holds, so a header that claims more than is there is
// refused, never read past its end.
#ifndef AWB_CORE_EXERCISES_NUMPY_ARRAYS_HPP_
#define AWB_CORE_EXERCISES_NUMPY_ARRAYS_HPP_

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "graders/model/tensor.hpp"

namespace awb::core {

// How an array is read. Errors are awb::Error with ids <id_prefix>.<suffix>, located at the
// file (FORMAT.md, "NumPy arrays"):
//   npy    not an .npy (magic, version, header), or its data is not the size the header says
//   npz    not a ZIP archive, no such array in it, or an entry that does not read back
//   dtype  not little-endian float64 '<f8' or float32 '<f4' (a scalar may also be an integer
//          '<i8', '<i4' or a bool '|b1')
//   shape  not 2-D (a scalar: more than one element), or a dimension of 0
//   limit  a dimension over `max_dim`
//   not_finite  NaN or Inf in the data
//   io, not_a_file  the file cannot be read, or is not a regular file
struct NpyOptions {
  std::string id_prefix = "npy";
  int64_t max_dim = 4096;
};

// One .npy file's bytes as a 2-D matrix (C order as it is, Fortran order transposed into rows;
// float32 widened). `label` names the array in messages.
Matrix parse_npy_matrix(std::string_view bytes, const std::string& label, const NpyOptions& opts);
// One .npy holding a single number (shape (), (1,) or (1, 1)): float, integer or bool.
double parse_npy_scalar(std::string_view bytes, const std::string& label, const NpyOptions& opts);

// A .npy file read piece by piece: the header first, the data only once it has passed.
Matrix read_npy_matrix(const std::filesystem::path& file, const NpyOptions& opts);

// An open .npz archive; arrays are named without their ".npy".
class NpzArchive {
 public:
  NpzArchive(const std::filesystem::path& file, const std::string& id_prefix);
  ~NpzArchive();
  NpzArchive(const NpzArchive&) = delete;
  NpzArchive& operator=(const NpzArchive&) = delete;

  std::vector<std::string> names() const;
  bool has(const std::string& name) const;
  // Throws <id_prefix>.npz, with the archive's names, when there is no such array.
  Matrix matrix(const std::string& name, const NpyOptions& opts) const;
  double scalar(const std::string& name, const NpyOptions& opts) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_NUMPY_ARRAYS_HPP_
