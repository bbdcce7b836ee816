// numpy_arrays.cpp: the .npy header parser (a Python dict literal), and the data checked against
// it before anything is allocated, from memory or a file (.npz entries: npz_archive.cpp).
#include "core/exercises/numpy_arrays.hpp"

#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <optional>

#include "core/base/regular_file.hpp"
#include "core/exercises/npy_source.hpp"
#include "graders/model/error.hpp"

namespace awb::core {
namespace {

static_assert(std::endian::native == std::endian::little, "'<f8' data is read as in memory");

constexpr std::string_view kNpyMagic = "\x93NUMPY";
// numpy writes headers of a few hundred bytes; anything past this is not one of its files, and
// must not make the reader allocate what a uint32 length could claim.
constexpr uint32_t kMaxNpyHeaderBytes = 65536;

class NpyMemorySource : public NpySource {
 public:
  explicit NpyMemorySource(std::string_view bytes) : bytes_(bytes) {}
  size_t read(char* out, size_t n) override {
    const size_t k = std::min(n, bytes_.size() - at_);
    std::memcpy(out, bytes_.data() + at_, k);
    at_ += k;
    return k;
  }
  uint64_t size() const override { return bytes_.size(); }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

// What the data holds, from `descr`.
struct NpyDtype {
  char kind = 'f';  // 'f' float, 'i' signed integer, 'b' bool
  int bytes = 8;
};

struct NpyHeader {
  std::string descr;
  NpyDtype dtype;
  bool fortran_order = false;
  std::vector<int64_t> shape;
  uint64_t data_offset = 0;  // the preamble and the header: where the data starts
};

// The header's dict: string keys, and values that are strings, True/False or tuples of
// integers, as numpy.lib.format writes them (and ast.literal_eval would read them).
class NpyDictParser {
 public:
  explicit NpyDictParser(std::string_view text) : s_(text) {}

  void skip_space() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r'))
      ++i_;
  }
  bool eat(char c) {
    skip_space();
    if (i_ < s_.size() && s_[i_] == c) return ++i_, true;
    return false;
  }
  char peek() {
    skip_space();
    return i_ < s_.size() ? s_[i_] : '\0';
  }
  bool at_end() {
    skip_space();
    return i_ == s_.size();
  }
  std::optional<std::string> string() {
    const char q = peek();
    if (q != '\'' && q != '"') return std::nullopt;
    const size_t end = s_.find(q, i_ + 1);
    if (end == std::string_view::npos) return std::nullopt;
    std::string out(s_.substr(i_ + 1, end - i_ - 1));
    if (out.find('\\') != std::string::npos) return std::nullopt;  // no escapes in numpy's keys
    i_ = end + 1;
    return out;
  }
  std::optional<bool> boolean() {
    skip_space();
    for (auto [word, value] : {std::pair{"True", true}, {"False", false}})
      if (s_.substr(i_).starts_with(word)) {
        i_ += std::strlen(word);
        return value;
      }
    return std::nullopt;
  }
  // "(512, 64)", "(5,)", "()"; Python 2's numpy wrote "(3L, 4L)".
  std::optional<std::vector<int64_t>> tuple() {
    if (!eat('(')) return std::nullopt;
    std::vector<int64_t> out;
    while (!eat(')')) {
      skip_space();
      size_t digits = 0;
      int64_t v = 0;
      while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9' && digits < 18) {
        v = v * 10 + (s_[i_++] - '0');
        ++digits;
      }
      if (digits == 0 || (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9')) return std::nullopt;
      if (i_ < s_.size() && s_[i_] == 'L') ++i_;
      out.push_back(v);
      if (out.size() > 64) return std::nullopt;  // numpy's own limit on dimensions
      if (!eat(',') && peek() != ')') return std::nullopt;
    }
    return out;
  }

 private:
  std::string_view s_;
  size_t i_ = 0;
};

std::string npy_shape_text(const std::vector<int64_t>& shape) {
  std::string out = "(";
  for (size_t k = 0; k < shape.size(); ++k) out += (k ? ", " : "") + std::to_string(shape[k]);
  return out + (shape.size() == 1 ? ",)" : ")");
}

// Reads one array from a source: `location` places its errors (the file), `what` opens their
// messages ("array 'W_q': " in an archive).
class NpyArrayReader {
 public:
  NpyArrayReader(NpySource& src, std::string location, std::string what, const NpyOptions& opts)
      : src_(src), location_(std::move(location)), what_(std::move(what)), opts_(opts) {}

  Error fail(const std::string& suffix, const std::string& message) const {
    return Error(opts_.id_prefix + "." + suffix, location_, what_ + message);
  }

  NpyHeader header() {
    NpyHeader h;
    char pre[12] = {};
    if (src_.read(pre, 8) < 8 || std::string_view(pre, 6) != kNpyMagic)
      throw fail("npy", "not an .npy file (it does not start with \\x93NUMPY)");
    const int major = static_cast<unsigned char>(pre[6]),
              minor = static_cast<unsigned char>(pre[7]);
    if ((major != 1 && major != 2 && major != 3) || minor != 0)
      throw fail("npy", "NPY format version " + std::to_string(major) + "." +
                            std::to_string(minor) + " is not read (1.0, 2.0 and 3.0 are)");
    const size_t len_bytes = major == 1 ? 2 : 4;
    if (src_.read(pre + 8, len_bytes) < len_bytes)
      throw fail("npy", "the file ends inside the .npy preamble");
    uint32_t len = 0;
    for (size_t k = 0; k < len_bytes; ++k)
      len |= uint32_t(static_cast<unsigned char>(pre[8 + k])) << (8 * k);
    if (len > kMaxNpyHeaderBytes)
      throw fail("npy", "a header of " + std::to_string(len) + " bytes; at most " +
                            std::to_string(kMaxNpyHeaderBytes) + " are read");
    h.data_offset = 8 + len_bytes + len;
    if (h.data_offset > src_.size())
      throw fail("npy", "the file ends inside the header (" + std::to_string(src_.size()) +
                            " bytes, the header needs " + std::to_string(h.data_offset) + ")");
    std::string text(len, '\0');
    if (src_.read(text.data(), len) < len) throw fail("npy", "the file ends inside the header");
    parse_dict(text, h);
    return h;
  }

  // `count` values of the header's dtype, in file order, as doubles.
  std::vector<double> values(const NpyHeader& h, int64_t count) {
    const uint64_t bytes = uint64_t(count) * uint64_t(h.dtype.bytes);
    const uint64_t held = src_.size() - h.data_offset;
    if (held != bytes)
      throw fail("npy", "the header declares " + npy_shape_text(h.shape) + " " + h.descr + ", " +
                            std::to_string(bytes) + " bytes of data, but the file holds " +
                            std::to_string(held) + (held < bytes ? " (truncated)" : ""));
    std::vector<double> out(size_t(count), 0.0);
    auto read_all = [&](char* to, size_t n) {
      if (src_.read(to, n) < n) throw fail("npy", "the data ends early (truncated)");
    };
    if (h.dtype.kind == 'f' && h.dtype.bytes == 8) {
      read_all(reinterpret_cast<char*>(out.data()), size_t(bytes));
    } else {
      std::string raw(size_t(bytes), '\0');
      read_all(raw.data(), raw.size());
      for (size_t k = 0; k < out.size(); ++k)
        out[k] = element(h.dtype, raw.data() + k * h.dtype.bytes);
    }
    return out;
  }

 private:
  static double element(const NpyDtype& d, const char* p) {
    if (d.kind == 'f') {  // float32; float64 is read in place
      float f;
      std::memcpy(&f, p, 4);
      return f;
    }
    if (d.kind == 'b') return *p != 0 ? 1.0 : 0.0;
    if (d.bytes == 4) {
      int32_t v;
      std::memcpy(&v, p, 4);
      return v;
    }
    int64_t v;
    std::memcpy(&v, p, 8);
    return double(v);
  }

  void parse_dict(const std::string& text, NpyHeader& h) const {
    NpyDictParser p(text);
    auto bad = [&](const std::string& why) {
      return fail("npy", "the header is not a dict numpy writes (" + why + ")");
    };
    bool has_descr = false, has_order = false, has_shape = false;
    if (!p.eat('{')) throw bad("no '{'");
    while (!p.eat('}')) {
      const auto key = p.string();
      if (!key) throw bad("a key that is not a quoted string");
      if (!p.eat(':')) throw bad("no ':' after '" + *key + "'");
      bool* seen = *key == "descr"           ? &has_descr
                   : *key == "fortran_order" ? &has_order
                   : *key == "shape"         ? &has_shape
                                             : nullptr;
      if (!seen) throw bad("unknown key '" + *key + "'");
      if (*seen) throw bad("'" + *key + "' twice");
      *seen = true;
      if (*key == "descr") {
        if (p.peek() == '[')
          throw fail("dtype", "a structured dtype (a list of fields); only plain numbers are read");
        const auto d = p.string();
        if (!d) throw bad("'descr' is not a string");
        h.descr = *d;
      } else if (*key == "fortran_order") {
        const auto b = p.boolean();
        if (!b) throw bad("'fortran_order' is not True or False");
        h.fortran_order = *b;
      } else {
        const auto t = p.tuple();
        if (!t) throw bad("'shape' is not a tuple of whole numbers");
        h.shape = *t;
      }
      if (!p.eat(',') && p.peek() != '}') throw bad("no ',' after '" + *key + "'");
    }
    if (!p.at_end()) throw bad("text after the '}'");
    if (!has_descr || !has_order || !has_shape)
      throw bad("it needs 'descr', 'fortran_order' and 'shape'");
    h.dtype = dtype(h.descr);
  }

  NpyDtype dtype(const std::string& descr) const {
    if (descr == "<f8") return {'f', 8};
    if (descr == "<f4") return {'f', 4};
    if (descr == "<i8") return {'i', 8};
    if (descr == "<i4") return {'i', 4};
    if (descr == "|b1") return {'b', 1};
    if (descr.starts_with(">"))
      throw fail("dtype",
                 "dtype '" + descr + "' is big-endian; save it little-endian (a.astype('<f8'))");
    throw fail("dtype", "dtype '" + descr +
                            "' is not read; save float64 ('<f8') or float32 ('<f4') numbers");
  }

  NpySource& src_;
  std::string location_, what_;
  const NpyOptions& opts_;
};

Matrix npy_reader_matrix(NpyArrayReader& rd, const NpyOptions& opts) {
  const NpyHeader h = rd.header();
  if (h.dtype.kind != 'f')
    throw rd.fail("dtype", "dtype '" + h.descr +
                               "' is not read for a matrix; save float64 ('<f8') or float32 "
                               "('<f4') numbers");
  if (h.shape.size() != 2)
    throw rd.fail("shape", "shape " + npy_shape_text(h.shape) + " has " +
                               std::to_string(h.shape.size()) + " dimensions; a matrix has 2");
  const int64_t rows = h.shape[0], cols = h.shape[1];
  if (rows < 1 || cols < 1)
    throw rd.fail("shape", "shape " + npy_shape_text(h.shape) + " is empty");
  if (rows > opts.max_dim || cols > opts.max_dim)
    throw rd.fail("limit", "shape " + npy_shape_text(h.shape) + " is over the cap of " +
                               std::to_string(opts.max_dim) + " rows and columns");
  const std::vector<double> v = rd.values(h, rows * cols);
  Matrix m(rows, cols);
  for (int64_t r = 0; r < rows; ++r)
    for (int64_t c = 0; c < cols; ++c) {
      const double x = v[size_t(h.fortran_order ? c * rows + r : r * cols + c)];
      if (!std::isfinite(x))
        throw rd.fail("not_finite", "element [" + std::to_string(r) + ", " + std::to_string(c) +
                                        "] is " + (std::isnan(x) ? "NaN" : "infinite"));
      m(r, c) = x;
    }
  return m;
}

double npy_reader_scalar(NpyArrayReader& rd) {
  const NpyHeader h = rd.header();
  if (!std::all_of(h.shape.begin(), h.shape.end(), [](int64_t d) { return d == 1; }))
    throw rd.fail("shape", "shape " + npy_shape_text(h.shape) + " is not a single value");
  const double x = rd.values(h, 1).front();
  if (!std::isfinite(x)) throw rd.fail("not_finite", "the value is not finite");
  return x;
}

// A file descriptor, closed on every path out.
struct NpyFileSource : NpySource {
  OpenRegularFile file;
  std::string location, prefix;
  ~NpyFileSource() override { ::close(file.fd); }
  size_t read(char* out, size_t n) override {
    size_t got = 0;
    while (got < n) {
      const ssize_t k = ::read(file.fd, out + got, n - got);
      if (k < 0 && errno == EINTR) continue;
      if (k < 0)
        throw Error(prefix + ".io", location, std::string("cannot read: ") + std::strerror(errno));
      if (k == 0) break;
      got += size_t(k);
    }
    return got;
  }
  uint64_t size() const override { return file.size; }
};

}  // namespace

Matrix npy_matrix_from(NpySource& src, const std::string& location, const std::string& what,
                       const NpyOptions& opts) {
  NpyArrayReader rd(src, location, what, opts);
  return npy_reader_matrix(rd, opts);
}

double npy_scalar_from(NpySource& src, const std::string& location, const std::string& what,
                       const NpyOptions& opts) {
  NpyArrayReader rd(src, location, what, opts);
  return npy_reader_scalar(rd);
}

Matrix parse_npy_matrix(std::string_view bytes, const std::string& label, const NpyOptions& opts) {
  NpyMemorySource src(bytes);
  return npy_matrix_from(src, label, "", opts);
}

double parse_npy_scalar(std::string_view bytes, const std::string& label, const NpyOptions& opts) {
  NpyMemorySource src(bytes);
  return npy_scalar_from(src, label, "", opts);
}

Matrix read_npy_matrix(const std::filesystem::path& file, const NpyOptions& opts) {
  NpyFileSource src;
  src.file = open_regular_file(file, opts.id_prefix);
  src.location = file.string();
  src.prefix = opts.id_prefix;
  return npy_matrix_from(src, src.location, "", opts);
}

}  // namespace awb::core
