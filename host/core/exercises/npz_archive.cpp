// npz_archive.cpp: .npz archives (np.savez: stored entries; np.savez_compressed: deflated) read
// through libzip, each entry an .npy array streamed into the .npy reader.
#include <unistd.h>
#include <zip.h>

#include <functional>

#include "core/base/regular_file.hpp"
#include "core/exercises/npy_source.hpp"
#include "core/exercises/numpy_arrays.hpp"
#include "graders/model/error.hpp"

namespace awb::core {

struct NpzArchive::Impl {
  zip_t* zip = nullptr;
  std::string location, prefix;
  ~Impl() {
    if (zip) zip_discard(zip);  // read only: nothing to write back
  }
  Error fail(const std::string& message) const { return Error(prefix + ".npz", location, message); }
};

namespace {

// One entry of an archive, inflated as it is read; libzip checks its CRC at the end.
class NpzEntrySource : public NpySource {
 public:
  NpzEntrySource(zip_file_t* f, uint64_t size, std::function<Error(std::string)> fail)
      : f_(f), size_(size), fail_(std::move(fail)) {}
  ~NpzEntrySource() override { zip_fclose(f_); }
  size_t read(char* out, size_t n) override {
    size_t got = 0;
    while (got < n) {
      const zip_int64_t k = zip_fread(f_, out + got, n - got);
      if (k < 0) throw fail_(std::string("cannot read it: ") + zip_file_strerror(f_));
      if (k == 0) break;
      got += size_t(k);
    }
    return got;
  }
  uint64_t size() const override { return size_; }
  // After the data: the entry must end there (a deflated stream longer than its recorded size
  // is refused), and reading to the end makes libzip check the CRC.
  void expect_end() {
    char extra;
    if (read(&extra, 1) != 0) throw fail_("the entry holds more bytes than it records");
  }

 private:
  zip_file_t* f_;
  uint64_t size_;
  std::function<Error(std::string)> fail_;
};

}  // namespace

NpzArchive::NpzArchive(const std::filesystem::path& file, const std::string& id_prefix)
    : impl_(std::make_unique<Impl>()) {
  impl_->location = file.string();
  impl_->prefix = id_prefix;
  const OpenRegularFile f = open_regular_file(file, id_prefix);
  int code = 0;
  impl_->zip = zip_fdopen(f.fd, ZIP_CHECKCONS, &code);  // owns the descriptor once it opens
  if (!impl_->zip) {
    ::close(f.fd);
    if (code == ZIP_ER_NOZIP)
      throw impl_->fail("not a ZIP archive (an .npz is one, as np.savez writes it)");
    zip_error_t err;
    zip_error_init_with_code(&err, code);
    const std::string why = zip_error_strerror(&err);
    zip_error_fini(&err);
    throw impl_->fail("cannot read the archive: " + why);
  }
}

NpzArchive::~NpzArchive() = default;

std::vector<std::string> NpzArchive::names() const {
  std::vector<std::string> out;
  const zip_int64_t n = zip_get_num_entries(impl_->zip, 0);
  for (zip_int64_t k = 0; k < n; ++k) {
    const char* name = zip_get_name(impl_->zip, zip_uint64_t(k), 0);
    if (!name) continue;
    const std::string_view s = name;
    if (s.ends_with(".npy")) out.emplace_back(s.substr(0, s.size() - 4));
  }
  return out;
}

bool NpzArchive::has(const std::string& name) const {
  return zip_name_locate(impl_->zip, (name + ".npy").c_str(), 0) >= 0;
}

namespace {

template <class Read>
auto read_npz_entry(zip_t* zip, const NpzArchive& archive, const std::string& location,
                    const std::string& name, const NpyOptions& opts, Read&& read) {
  const std::string what = "array '" + name + "': ";
  auto fail = [&](std::string message) {
    return Error(opts.id_prefix + ".npz", location, what + message);
  };
  const zip_int64_t index = zip_name_locate(zip, (name + ".npy").c_str(), 0);
  if (index < 0) {
    std::string have;
    for (const auto& n : archive.names()) have += (have.empty() ? "" : ", ") + n;
    throw Error(
        opts.id_prefix + ".npz", location,
        "no array '" + name + "' (the archive holds: " + (have.empty() ? "none" : have) + ")");
  }
  zip_stat_t st;
  zip_stat_init(&st);
  if (zip_stat_index(zip, zip_uint64_t(index), 0, &st) != 0 || !(st.valid & ZIP_STAT_SIZE))
    throw fail(std::string("cannot read its size: ") + zip_strerror(zip));
  zip_file_t* f = zip_fopen_index(zip, zip_uint64_t(index), 0);
  if (!f) throw fail(std::string("cannot open it: ") + zip_strerror(zip));
  NpzEntrySource src(f, st.size, fail);
  auto out = read(src, what);
  src.expect_end();
  return out;
}

}  // namespace

Matrix NpzArchive::matrix(const std::string& name, const NpyOptions& opts) const {
  return read_npz_entry(impl_->zip, *this, impl_->location, name, opts,
                        [&](NpySource& src, const std::string& what) {
                          return npy_matrix_from(src, impl_->location, what, opts);
                        });
}

double NpzArchive::scalar(const std::string& name, const NpyOptions& opts) const {
  return read_npz_entry(impl_->zip, *this, impl_->location, name, opts,
                        [&](NpySource& src, const std::string& what) {
                          return npy_scalar_from(src, impl_->location, what, opts);
                        });
}

}  // namespace awb::core
