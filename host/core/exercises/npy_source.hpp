// npy_source.hpp: inside the NumPy readers: where one array's bytes come from (memory, a file, an
// archive's entry) and the reader that takes the array from it, shared by numpy_arrays.cpp and
// npz_archive.cpp.
#ifndef AWB_CORE_EXERCISES_NPY_SOURCE_HPP_
#define AWB_CORE_EXERCISES_NPY_SOURCE_HPP_

#include <cstddef>
#include <cstdint>
#include <string>

#include "core/exercises/numpy_arrays.hpp"

namespace awb::core {

// `read` fills `n` bytes unless the source ends first and returns how many it filled (it throws
// awb::Error when reading fails); `size` is the bytes in all, known before anything is read.
class NpySource {
 public:
  virtual ~NpySource() = default;
  virtual size_t read(char* out, size_t n) = 0;
  virtual uint64_t size() const = 0;
};

// One .npy array from `src`, its header checked before its data is read: errors are located at
// `location` (the file) and their messages open with `what` ("array 'W_q': " in an archive).
Matrix npy_matrix_from(NpySource& src, const std::string& location, const std::string& what,
                       const NpyOptions& opts);
double npy_scalar_from(NpySource& src, const std::string& location, const std::string& what,
                       const NpyOptions& opts);

}  // namespace awb::core

#endif  // AWB_CORE_EXERCISES_NPY_SOURCE_HPP_
