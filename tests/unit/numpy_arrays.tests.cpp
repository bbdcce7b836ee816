// numpy_arrays.tests.cpp: .npy and .npz read back what the .npy writer and the zip writer wrote;
// malformed, truncated, over-cap and foreign files are refused with their ids before any data is
// allocated; problem files name NumPy files and are told where a bad one is named.
#include "core/exercises/numpy_arrays.hpp"

#include <sys/resource.h>
#include <unistd.h>
#include <zip.h>

#include <catch2/catch.hpp>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "core/base/zip_writer.hpp"
#include "core/compare/matrix_export.hpp"
#include "core/exercises/problem_file.hpp"
#include "core/exercises/seeded.hpp"
#include "graders/model/error.hpp"
#include "support/test_support.hpp"

using namespace awb;
namespace fs = std::filesystem;

namespace {

const core::NpyOptions kOpts{"problem", 4096};

Matrix sample() { return test::rows({{1.5, -2}, {0.25, 3}, {1e-300, -7.125}}); }

// The writer's file with its header dict replaced by `dict` (padded to the same length, so the
// data stays where it was) and, when given, its data by `data`.
std::string with_header(std::string npy, const std::string& dict,
                        std::optional<std::string> data = std::nullopt) {
  const size_t len = size_t(uint8_t(npy[8])) | size_t(uint8_t(npy[9])) << 8;
  REQUIRE(dict.size() + 1 <= len);
  npy.replace(10, len, dict + std::string(len - dict.size() - 1, ' ') + '\n');
  if (data) npy = npy.substr(0, 10 + len) + *data;
  return npy;
}

std::string floats(std::initializer_list<float> values) {
  std::string out(values.size() * 4, '\0');
  std::memcpy(out.data(), std::data(values), out.size());
  return out;
}

Error refusal(const std::string& bytes) {
  try {
    core::parse_npy_matrix(bytes, "a.npy", kOpts);
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected an error");
  return Error("none", "");
}

// A folder of its own for files, removed at the end of the test.
struct Scratch {
  fs::path dir = fs::temp_directory_path() / ("awb-npy-tests-" + std::to_string(::getpid()));
  Scratch() {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() { fs::remove_all(dir); }
  fs::path write(const std::string& name, const std::string& bytes) const {
    std::ofstream(dir / name, std::ios::binary) << bytes;
    return dir / name;
  }
};

// An .npz as np.savez_compressed writes it: every entry deflated (libzip writes it).
void write_deflated(const fs::path& file, const std::vector<core::ZipEntry>& entries) {
  int code = 0;
  zip_t* z = zip_open(file.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  REQUIRE(z != nullptr);
  for (const auto& e : entries) {
    zip_source_t* src = zip_source_buffer(z, e.content.data(), e.content.size(), 0);
    REQUIRE(src != nullptr);
    const zip_int64_t i = zip_file_add(z, e.name.c_str(), src, ZIP_FL_OVERWRITE);
    REQUIRE(i >= 0);
    REQUIRE(zip_set_file_compression(z, zip_uint64_t(i), ZIP_CM_DEFLATE, 9) == 0);
  }
  REQUIRE(zip_close(z) == 0);
}

}  // namespace

TEST_CASE("an .npy of float64 reads back as written", "[numpy]") {
  const Matrix m = sample();
  const Matrix got = core::parse_npy_matrix(core::matrix_npy(m), "a.npy", kOpts);
  CHECK(got.rows == 3);
  CHECK(got.cols == 2);
  CHECK(got.data == m.data);
}

TEST_CASE("float32 is widened, Fortran order transposed into rows, version 2.0 read", "[numpy]") {
  const std::string npy = core::matrix_npy(Matrix(2, 3));
  const Matrix c = core::parse_npy_matrix(
      with_header(npy, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
                  floats({0.5f, -1.25f, 3, 4, 5, 6.0625f})),
      "a.npy", kOpts);
  CHECK(c.data == std::vector<double>{0.5, -1.25, 3, 4, 5, 6.0625});
  const Matrix f = core::parse_npy_matrix(
      with_header(npy, "{'descr': '<f4', 'fortran_order': True, 'shape': (2, 3), }",
                  floats({1, 4, 2, 5, 3, 6})),
      "a.npy", kOpts);
  CHECK(f.data == std::vector<double>{1, 2, 3, 4, 5, 6});
  // 2.0: the same dict after a uint32 length.
  std::string v2 = "\x93NUMPY\x02";
  v2 += '\0';
  const std::string dict = "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 1)}\n";
  for (int k = 0; k < 4; ++k) v2 += char((dict.size() >> (8 * k)) & 0xff);
  const double one = 1.0;
  v2 += dict + std::string(reinterpret_cast<const char*>(&one), 8);
  CHECK(core::parse_npy_matrix(v2, "a.npy", kOpts).data == std::vector<double>{1.0});
}

TEST_CASE("single values: float, integer or bool, of one element", "[numpy]") {
  const std::string npy = core::matrix_npy(Matrix(1, 1, 0.5));
  CHECK(core::parse_npy_scalar(npy, "a.npy", kOpts) == 0.5);
  const int64_t four = 4;
  CHECK(core::parse_npy_scalar(
            with_header(npy, "{'descr': '<i8', 'fortran_order': False, 'shape': (), }",
                        std::string(reinterpret_cast<const char*>(&four), 8)),
            "a.npy", kOpts) == 4);
  CHECK(core::parse_npy_scalar(
            with_header(npy, "{'descr': '|b1', 'fortran_order': False, 'shape': (1,), }", "\x01"),
            "a.npy", kOpts) == 1);
  test::check_refused(
      [&] {
        core::parse_npy_scalar(
            with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (2,), }",
                        std::string(16, '\0')),
            "a.npy", kOpts);
      },
      "problem.shape", "shape (2,) is not a single value");
}

TEST_CASE("malformed .npy files are refused with their ids", "[numpy]") {
  const std::string npy = core::matrix_npy(sample());
  auto e = refusal("PK\x03\x04 not an npy at all");
  CHECK(e.id() == "problem.npy");
  CHECK(e.location() == "a.npy");
  CHECK_THAT(e.message(), Catch::Contains("not an .npy file"));
  e = refusal("\x93NUMPX" + npy.substr(6));
  CHECK(e.id() == "problem.npy");
  e = refusal(npy.substr(0, 7));
  CHECK(e.id() == "problem.npy");
  std::string v9 = npy;
  v9[6] = 9;
  CHECK_THAT(refusal(v9).message(), Catch::Contains("version 9.0 is not read"));
  // Truncated data, or more than the header declares: never read past the end, never padded.
  e = refusal(npy.substr(0, npy.size() - 8));
  CHECK(e.id() == "problem.npy");
  CHECK_THAT(e.message(), Catch::Contains("48 bytes of data, but the file holds 40 (truncated)"));
  CHECK(refusal(npy + "x").id() == "problem.npy");
  // A header that says nothing numpy writes.
  e = refusal(with_header(npy, "{'descr': '<f8', 'fortran_order': False}"));
  CHECK(e.id() == "problem.npy");
  CHECK_THAT(e.message(), Catch::Contains("needs 'descr', 'fortran_order' and 'shape'"));
  CHECK(refusal(with_header(npy,
                            "{'descr': '<f8', 'fortran_order': False, 'shape': (3, 2), "
                            "'extra': 1}"))
            .id() == "problem.npy");
  CHECK(
      refusal(with_header(npy, "{'descr': '<f8', 'fortran_order': maybe, 'shape': (3, 2)}")).id() ==
      "problem.npy");
  CHECK(refusal(with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (3, -2)}"))
            .id() == "problem.npy");
}

TEST_CASE("dtypes other than little-endian f8 and f4 are refused", "[numpy]") {
  const std::string npy = core::matrix_npy(sample());
  auto e = refusal(with_header(npy, "{'descr': '>f8', 'fortran_order': False, 'shape': (3, 2), }"));
  CHECK(e.id() == "problem.dtype");
  CHECK_THAT(e.message(), Catch::Contains("big-endian"));
  e = refusal(with_header(npy, "{'descr': '<i8', 'fortran_order': False, 'shape': (3, 2), }"));
  CHECK(e.id() == "problem.dtype");
  CHECK_THAT(e.message(), Catch::Contains("'<i8' is not read for a matrix"));
  e = refusal(with_header(npy, "{'descr': '<c16', 'fortran_order': False, 'shape': (3, 1), }"));
  CHECK(e.id() == "problem.dtype");
  e = refusal(with_header(npy, "{'descr': [('a', '<f8')], 'fortran_order': False, 'shape': (3,)}"));
  CHECK(e.id() == "problem.dtype");
}

TEST_CASE("shapes: 2-D only, not empty, within the caps", "[numpy]") {
  const std::string npy = core::matrix_npy(sample());
  auto e =
      refusal(with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 3, 2), }"));
  CHECK(e.id() == "problem.shape");
  CHECK_THAT(e.message(), Catch::Contains("shape (1, 3, 2) has 3 dimensions; a matrix has 2"));
  e = refusal(with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }"));
  CHECK(e.id() == "problem.shape");
  e = refusal(with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (0, 2), }", ""));
  CHECK(e.id() == "problem.shape");
  e = refusal(with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (4097, 1), }"));
  CHECK(e.id() == "problem.limit");
  CHECK_THAT(e.message(), Catch::Contains("over the cap of 4096"));
}

TEST_CASE("a header that claims more than the caps or the file is refused before allocating",
          "[numpy]") {
  const std::string npy = core::matrix_npy(sample());
  const std::string huge =
      with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (100000, 100000), }");
  const std::string within =
      with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (4096, 4096), }");
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  // With the address space at what the process uses plus 64 MiB, allocating the 128 MiB that
  // the second header claims, or the 80 GB of the first, throws std::bad_alloc instead of the
  // refusals below.
  rlimit before{};
  REQUIRE(::getrlimit(RLIMIT_AS, &before) == 0);
  std::ifstream status("/proc/self/status");
  rlim_t used_kib = 0;
  for (std::string line; std::getline(status, line);)
    if (line.starts_with("VmSize:")) used_kib = std::stoull(line.substr(7));
  REQUIRE(used_kib > 0);
  rlimit tight = before;
  tight.rlim_cur = std::min<rlim_t>(before.rlim_cur, (used_kib << 10) + (rlim_t(64) << 20));
  REQUIRE(::setrlimit(RLIMIT_AS, &tight) == 0);
#endif
  std::string id_huge, id_within, message_within;
  try {
    core::parse_npy_matrix(huge, "a.npy", kOpts);
  } catch (const Error& e) {
    id_huge = e.id();
  } catch (const std::bad_alloc&) {
    id_huge = "bad_alloc";
  }
  try {
    core::parse_npy_matrix(within, "a.npy", kOpts);
  } catch (const Error& e) {
    id_within = e.id();
    message_within = e.message();
  } catch (const std::bad_alloc&) {
    id_within = "bad_alloc";
  }
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  REQUIRE(::setrlimit(RLIMIT_AS, &before) == 0);
#endif
  CHECK(id_huge == "problem.limit");
  CHECK(id_within == "problem.npy");
  CHECK_THAT(message_within, Catch::Contains("134217728 bytes of data, but the file holds 48"));
}

TEST_CASE("non-finite numbers are refused as inline ones are", "[numpy]") {
  Matrix m = sample();
  m(2, 1) = std::numeric_limits<double>::quiet_NaN();
  const Error e = refusal(core::matrix_npy(m));
  CHECK(e.id() == "problem.not_finite");
  CHECK_THAT(e.message(), Catch::Contains("element [2, 1] is NaN"));
}

TEST_CASE(".npy files and .npz archives, stored and deflated, read from disk", "[numpy]") {
  const Scratch s;
  const Matrix m = sample();
  CHECK(core::read_npy_matrix(s.write("a.npy", core::matrix_npy(m)), kOpts).data == m.data);
  const std::vector<core::ZipEntry> entries = {{"X.npy", core::matrix_npy(m)},
                                               {"heads.npy", core::matrix_npy(Matrix(1, 1, 2))}};
  s.write("stored.npz", core::zip_archive(entries));
  write_deflated(s.dir / "deflated.npz", entries);
  for (const char* name : {"stored.npz", "deflated.npz"}) {
    INFO(name);
    const core::NpzArchive a(s.dir / name, "problem");
    CHECK(a.names() == std::vector<std::string>{"X", "heads"});
    CHECK(a.matrix("X", kOpts).data == m.data);
    CHECK(a.scalar("heads", kOpts) == 2);
    test::check_refused([&] { a.matrix("W_q", kOpts); }, "problem.npz",
                        "no array 'W_q' (the archive holds: X, heads)");
    test::check_refused([&] { a.scalar("X", kOpts); }, "problem.shape", "not a single value");
  }
  test::check_refused([&] { core::NpzArchive(s.write("no.npz", "just text"), "problem"); },
                      "problem.npz", "not a ZIP archive");
  test::check_refused([&] { core::NpzArchive(s.dir / "missing.npz", "problem"); }, "problem.io",
                      "cannot open");
  test::check_refused([&] { core::read_npy_matrix(s.dir, kOpts); }, "problem.not_a_file",
                      "a folder");
  // A deflated entry whose bytes were damaged: an error, never a crash or a short matrix.
  std::ifstream in(s.dir / "deflated.npz", std::ios::binary);
  std::string bytes((std::istreambuf_iterator<char>(in)), {});
  const size_t data_at = bytes.find("X.npy") + 5;
  for (size_t k = data_at + 40; k < data_at + 60; ++k) bytes[k] = char(bytes[k] ^ 0x5a);
  s.write("damaged.npz", bytes);
  const std::string id = test::thrown_error_id(
      [&] { core::NpzArchive(s.dir / "damaged.npz", "problem").matrix("X", kOpts); });
  CHECK((id == "problem.npz" || id == "problem.npy" || id == "problem.not_finite"));
}

TEST_CASE("problem files name .npy and .npz arrays beside them, and seeded matrices", "[numpy]") {
  const Scratch s;
  const Matrix x = sample(), w = test::rows({{1, 0}, {0, 1}});
  s.write("x.npy", core::matrix_npy(x));
  s.write("w.npz", core::zip_archive({{"W_q.npy", core::matrix_npy(w)},
                                      {"W_k.npy", core::matrix_npy(w)},
                                      {"W_v.npy", core::matrix_npy(w)}}));
  const auto l = core::read_problem_file(
      s.write("p.yaml",
              "x: {npy: x.npy}\nw_q: {npz: w.npz, key: W_q}\nw_k: {npz: w.npz, key: W_k}\n"
              "w_v: {npz: w.npz, key: W_v}\nw_o: {seed: 7, rows: 2, cols: 3}\n"));
  REQUIRE(l.errors.empty());
  CHECK(l.problem->x.data == x.data);
  CHECK(l.problem->w_k->data == w.data);
  core::SeededSpec spec;
  spec.seed = 7;
  CHECK(l.problem->w_o->data == core::seeded_matrix(spec, 2, 3).data);
}

TEST_CASE("a bad NumPy file in a problem file is reported at its name, with file:line:column",
          "[numpy]") {
  const Scratch s;
  const std::string npy = core::matrix_npy(sample());
  s.write("cube.npy",
          with_header(npy, "{'descr': '<f8', 'fortran_order': False, 'shape': (1, 3, 2), }"));
  s.write("short.npy", npy.substr(0, npy.size() - 3));
  s.write("x.npz", core::zip_archive({{"X.npy", npy}}));
  const auto l = core::read_problem_file(s.write("p.yaml",
                                                 "x: {npy: missing.npy}\n"
                                                 "w_q: {npy: cube.npy}\n"
                                                 "w_k:   {npy: short.npy}\n"
                                                 "w_v: {npz: x.npz, key: Q}\n"
                                                 "w_o: {npy: x.npy, key: X}\n"));
  std::vector<std::string> got;
  for (const auto& e : l.errors) got.push_back(e.id() + " " + e.location());
  const std::string p = (s.dir / "p.yaml").string();
  CHECK(got == std::vector<std::string>{"problem.io " + p + ":1:10", "problem.shape " + p + ":2:12",
                                        "problem.npy " + p + ":3:14", "problem.npz " + p + ":4:24",
                                        "problem.unknown_key " + p + ":5:24"});
  REQUIRE(l.errors.size() == 5);
  CHECK_THAT(l.errors[0].message(),
             Catch::Contains("x.npy: " + (s.dir / "missing.npy").string() + ": cannot open"));
  CHECK_THAT(l.errors[1].message(), Catch::Contains("has 3 dimensions"));
  CHECK_THAT(l.errors[2].message(), Catch::Contains("(truncated)"));
  CHECK_THAT(l.errors[3].message(), Catch::Contains("no array 'Q' (the archive holds: X)"));
  // A misspelt file key is told as such, alone.
  const auto typo = core::read_problem_yaml("x: {npyy: x.npy}\n", "p.yaml");
  REQUIRE(typo.errors.size() == 1);
  CHECK(typo.errors[0].id() == "problem.unknown_key");
  CHECK_THAT(typo.errors[0].message(), Catch::Contains("did you mean 'npy'?"));
  // A value of neither form: every form is named.
  const auto t = core::read_problem_yaml("x: 3\n", "p.yaml");
  REQUIRE(t.errors.size() == 1);
  CHECK(t.errors[0].id() == "problem.type");
  CHECK_THAT(t.errors[0].message(), Catch::Contains("{npy: FILE}"));
}

TEST_CASE("an .npz archive is a problem of its own", "[numpy]") {
  const Scratch s;
  const Matrix x = sample(), w = test::rows({{1, 0, 0.5, 0}, {0, 1, 0, 0.5}});
  auto one = [](double v) { return core::matrix_npy(Matrix(1, 1, v)); };
  const auto l =
      core::read_problem_file(s.write("p.npz", core::zip_archive({{"X.npy", core::matrix_npy(x)},
                                                                  {"W_q.npy", core::matrix_npy(w)},
                                                                  {"W_k.npy", core::matrix_npy(w)},
                                                                  {"W_v.npy", core::matrix_npy(w)},
                                                                  {"heads.npy", one(2)},
                                                                  {"causal.npy", one(1)},
                                                                  {"sharpness.npy", one(0.5)}})));
  REQUIRE(l.errors.empty());
  CHECK(l.problem->x.data == x.data);
  CHECK(l.problem->heads == 2);
  CHECK(l.problem->causal);
  CHECK(l.problem->sharpness == 0.5);
  CHECK(l.problem->d_k() == 2);
  CHECK(l.problem->tokens.empty());  // printed as t0, t1, ...
  // Every problem of the archive at once, at the archive.
  const auto bad = core::read_problem_file(
      s.write("bad.npz", core::zip_archive({{"x.npy", core::matrix_npy(x)},
                                            {"W_q.npy", core::matrix_npy(w)},
                                            {"heads.npy", one(2.5)}})));
  std::vector<std::string> got;
  for (const auto& e : bad.errors) got.push_back(e.id() + " " + e.location() + " " + e.message());
  const std::string p = (s.dir / "bad.npz").string();
  CHECK(got == std::vector<std::string>{
                   "problem.npz " + p +
                       " array 'x' is not read (did you mean 'X'?); a problem's arrays are X, W_q, "
                       "W_k, W_v, W_o, heads, causal, sharpness",
                   "problem.npz " + p + " no array 'X' (the archive holds: x, W_q, heads)",
                   "problem.value " + p + " array 'heads': must be a whole number from 1 to 64"});
  // A lone .npy is X alone.
  const auto lone = core::read_problem_file(s.write("x.npy", core::matrix_npy(x)));
  REQUIRE(lone.errors.empty());
  CHECK(lone.problem->x.data == x.data);
  CHECK_FALSE(lone.problem->has_projections());
  // Shapes across arrays: the model's rules, at the archive.
  const auto shape = core::read_problem_file(
      s.write("shape.npz", core::zip_archive({{"X.npy", core::matrix_npy(x)},
                                              {"W_q.npy", core::matrix_npy(Matrix(3, 2))},
                                              {"W_k.npy", core::matrix_npy(Matrix(3, 2))},
                                              {"W_v.npy", core::matrix_npy(Matrix(3, 2))}})));
  REQUIRE(shape.errors.size() == 1);
  CHECK(shape.errors[0].id() == "problem.shape");
  CHECK(shape.errors[0].location() == (s.dir / "shape.npz").string());
}
