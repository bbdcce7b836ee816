// runner_protocol.tests.cpp: the runner's messages survive a round trip, and anything truncated,
// oversized or out of range is refused rather than read past its end; the shared region for
// large frames.
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "runner/protocol.hpp"
#include "runner/shared_region.hpp"

using namespace awb;

namespace {

awb_tensor matrix(std::vector<double>& data, int64_t rows, int64_t cols, int64_t stride) {
  awb_tensor t{};
  t.data = data.data();
  t.rank = 2;
  t.shape[0] = rows;
  t.shape[1] = cols;
  t.shape[2] = 1;
  t.stride[0] = stride;
  t.stride[1] = 1;
  return t;
}

}  // namespace

TEST_CASE("a forward request round-trips, strided inputs packed row by row", "[runner]") {
  // X is 2 × 3 inside a buffer with row stride 4 (the padding must not travel).
  std::vector<double> x = {1, 2, 3, -1, 4, 5, 6, -1};
  std::vector<double> z(6), a(4);
  awb_problem p{};
  p.struct_size = sizeof p;
  p.scalar = AWB_SCALAR_F64;
  p.n_heads = 1;
  p.causal = 1;
  p.scale_mode = AWB_SCALE_INV_SQRT_DK;
  p.sharpness = 2.5;
  p.x = matrix(x, 2, 3, 4);
  awb_results r{};
  r.struct_size = sizeof r;
  r.z = matrix(z, 2, 3, 3);
  r.a = matrix(a, 2, 2, 2);
  const auto payload = runner::encode_forward(7, p, r);
  const auto d = runner::decode_forward(payload);
  REQUIRE(d);
  CHECK(d->variant_index == 7);
  CHECK(d->problem.causal == 1);
  CHECK(d->problem.sharpness == 2.5);
  CHECK(d->problem.scale_mode == AWB_SCALE_INV_SQRT_DK);
  const auto* dx = static_cast<const double*>(d->problem.x.data);
  CHECK(std::vector<double>(dx, dx + 6) == std::vector<double>{1, 2, 3, 4, 5, 6});
  CHECK(d->problem.w_q.data == nullptr);
  CHECK(d->results.s.data == nullptr);
  REQUIRE(d->results.a.data != nullptr);
  CHECK(std::isnan(static_cast<const double*>(d->results.z.data)[5]));  // unwritten stays NaN

  // The runner's answer lands in the host's buffers, whatever their strides.
  auto* rz = static_cast<double*>(d->results.z.data);
  auto* ra = static_cast<double*>(d->results.a.data);
  for (int i = 0; i < 6; ++i) rz[i] = 10 + i;
  for (int i = 0; i < 4; ++i) ra[i] = 0.25;
  const auto answer = runner::encode_result(AWB_OK, false, "", *d);
  const auto head = runner::decode_result(answer, AWB_SCALAR_F64, r);
  REQUIRE(head);
  CHECK(head->status == AWB_OK);
  CHECK(z == std::vector<double>{10, 11, 12, 13, 14, 15});
  CHECK(a == std::vector<double>{0.25, 0.25, 0.25, 0.25});

  SECTION("a truncated or padded answer is malformed") {
    auto shorter = answer;
    shorter.pop_back();
    CHECK_FALSE(runner::decode_result(shorter, AWB_SCALAR_F64, r));
    auto longer = answer;
    longer.push_back(0);
    CHECK_FALSE(runner::decode_result(longer, AWB_SCALAR_F64, r));
  }
  SECTION("a truncated request is refused") {
    for (size_t n : {size_t{0}, size_t{3}, payload.size() / 2, payload.size() - 1}) {
      const std::vector<uint8_t> cut(payload.begin(), payload.begin() + static_cast<long>(n));
      CHECK_FALSE(runner::decode_forward(cut));
    }
  }
  SECTION("an error answer carries the status and message only") {
    const auto err = runner::encode_result(AWB_ERR_OUT_OF_MEMORY, true, "no room", *d);
    const auto h = runner::decode_result(err, AWB_SCALAR_F64, r);
    REQUIRE(h);
    CHECK(h->status == AWB_ERR_OUT_OF_MEMORY);
    CHECK(h->allocation_failed);
    CHECK(h->message == "no room");
  }
  SECTION("an unknown status is malformed") {
    auto bad = answer;
    bad[0] = 99;
    CHECK_FALSE(runner::decode_result(bad, AWB_SCALAR_F64, r));
  }
}

namespace {

// A backward request on a 2-token, d_model 3, one-head problem with W_q only (so dX and dW_q
// are asked for), its forward results and dZ, all in the host's own buffers.
struct BackwardFixture {
  std::vector<double> x = {1, 2, 3, 4, 5, 6}, w_q = {1, 0, 0, 1, 1, 1}, z = {1, 1, 1, 2, 2, 2},
                      a = {1, 0, 0.5, 0.5}, dz = {0.1, 0.2, 0.3, 0.4, 0.5, 0.6};
  std::vector<double> dx = std::vector<double>(6, -1), dw_q = std::vector<double>(6, -1);
  awb_problem p{};
  awb_results f{};
  awb_tensor dz_t{};
  awb_gradients g{};
  BackwardFixture() {
    p.struct_size = sizeof p;
    p.scalar = AWB_SCALAR_F64;
    p.n_heads = 1;
    p.sharpness = 1;
    p.x = matrix(x, 2, 3, 3);
    p.w_q = matrix(w_q, 3, 2, 2);
    f.struct_size = sizeof f;
    f.z = matrix(z, 2, 3, 3);
    f.a = matrix(a, 2, 2, 2);
    f.a.rank = 3;  // h × T × T
    f.a.shape[0] = 1, f.a.shape[1] = 2, f.a.shape[2] = 2;
    f.a.stride[0] = 4, f.a.stride[1] = 2, f.a.stride[2] = 1;
    dz_t = matrix(dz, 2, 3, 3);
    g.struct_size = sizeof g;
    g.dx = matrix(dx, 2, 3, 3);
    g.dw_q = matrix(dw_q, 3, 2, 2);
  }
};

}  // namespace

TEST_CASE("a backward request round-trips, exactly the asked gradients come back", "[runner]") {
  BackwardFixture fx;
  const auto payload = runner::encode_backward(2, fx.p, fx.f, fx.dz_t, nullptr, fx.g);
  auto d = runner::decode_backward(payload);
  REQUIRE(d);
  CHECK(d->variant_index == 2);
  CHECK(d->da.data == nullptr);
  REQUIRE(d->forward.a.data != nullptr);
  CHECK(d->forward.a.rank == 3);
  const auto* dz = static_cast<const double*>(d->dz.data);
  CHECK(std::vector<double>(dz, dz + 6) == fx.dz);
  REQUIRE(d->grads.dx.data != nullptr);
  REQUIRE(d->grads.dw_q.data != nullptr);
  CHECK(d->grads.dw_k.data == nullptr);
  CHECK(std::isnan(static_cast<const double*>(d->grads.dx.data)[0]));  // unwritten stays NaN

  auto* rdx = static_cast<double*>(d->grads.dx.data);
  auto* rdw = static_cast<double*>(d->grads.dw_q.data);
  for (int i = 0; i < 6; ++i) rdx[i] = 10 + i, rdw[i] = 20 + i;
  rdx[1] = std::numeric_limits<double>::quiet_NaN();  // NaN is data, not a transport fault
  const auto answer = runner::encode_backward_result(AWB_OK, false, "", *d, d->grads);
  std::string why;
  const auto head = runner::decode_backward_result(answer, AWB_SCALAR_F64, fx.g, why);
  REQUIRE(head);
  CHECK(why.empty());
  CHECK(fx.dx[0] == 10);
  CHECK(std::isnan(fx.dx[1]));
  CHECK(fx.dw_q == std::vector<double>{20, 21, 22, 23, 24, 25});
  CHECK(answer.size() <= runner::max_backward_result_size(fx.g, AWB_SCALAR_F64));

  SECTION("truncated, padded or wrongly counted answers are refused, naming what was wrong") {
    auto shorter = answer;
    shorter.pop_back();
    CHECK_FALSE(runner::decode_backward_result(shorter, AWB_SCALAR_F64, fx.g, why));
    CHECK(why.find("dW_q is cut short") != std::string::npos);
    auto longer = answer;
    longer.push_back(0);
    CHECK_FALSE(runner::decode_backward_result(longer, AWB_SCALAR_F64, fx.g, why));
    CHECK(why.find("follow the last gradient") != std::string::npos);
    // The plugin rewrote the descriptor it was handed: dX one row shorter (a lying count).
    awb_gradients lying = d->grads;
    lying.dx.shape[0] = 1;
    const auto short_dx = runner::encode_backward_result(AWB_OK, false, "", *d, lying);
    CHECK_FALSE(runner::decode_backward_result(short_dx, AWB_SCALAR_F64, fx.g, why));
    CHECK(why == "dX has 3 values; the host shaped it 2 x 3 (6)");
    // ... or claims far more than its buffer: the runner sends what it owns, no more.
    lying.dx.shape[0] = int64_t{1} << 40;
    const auto huge = runner::encode_backward_result(AWB_OK, false, "", *d, lying);
    CHECK(huge.size() <= answer.size());
    CHECK_FALSE(runner::decode_backward_result(huge, AWB_SCALAR_F64, fx.g, why));
    CHECK(why.find("dX has") == 0);
    // ... or dropped a gradient.
    awb_gradients dropped = d->grads;
    dropped.dw_q.data = nullptr;
    const auto missing = runner::encode_backward_result(AWB_OK, false, "", *d, dropped);
    CHECK_FALSE(runner::decode_backward_result(missing, AWB_SCALAR_F64, fx.g, why));
    CHECK(why == "the backward returned 1 gradients; the request asked for 2 (dX, dW_q)");
    // A forged count byte: more gradients than were asked for.
    auto extra = answer;
    const size_t count_at = 4 + 1 + 4;  // status, allocation flag, empty message
    extra[count_at] = 3;
    CHECK_FALSE(runner::decode_backward_result(extra, AWB_SCALAR_F64, fx.g, why));
    CHECK(why.find("returned 3 gradients") != std::string::npos);
    // A gradient in the wrong slot.
    auto swapped = answer;
    swapped[count_at + 1] = 1;
    CHECK_FALSE(runner::decode_backward_result(swapped, AWB_SCALAR_F64, fx.g, why));
    CHECK(why == "the backward returned dW_q where dX was due");
  }
  SECTION("an error answer carries the status and message only") {
    const auto err = runner::encode_backward_result(AWB_ERR_UNSUPPORTED, false,
                                                    runner::kNotTrainable, *d, d->grads);
    const auto h = runner::decode_backward_result(err, AWB_SCALAR_F64, fx.g, why);
    REQUIRE(h);
    CHECK(h->status == AWB_ERR_UNSUPPORTED);
    CHECK(h->message == "not trainable: the plugin exports no backward pass");
  }
  SECTION("a truncated request is refused") {
    for (size_t n : {size_t{0}, size_t{3}, payload.size() / 2, payload.size() - 1}) {
      const std::vector<uint8_t> cut(payload.begin(), payload.begin() + static_cast<long>(n));
      CHECK_FALSE(runner::decode_backward(cut));
    }
  }
  SECTION("gradient shapes that do not match the problem are refused before allocating") {
    // dX asked as 2 × 4 for an X of 2 × 3.
    fx.g.dx.shape[1] = 4;
    CHECK_FALSE(
        runner::decode_backward(runner::encode_backward(0, fx.p, fx.f, fx.dz_t, nullptr, fx.g)));
    fx.g.dx.shape[1] = 3;
    // dW_k asked for although the problem has no W_k.
    fx.g.dw_k = fx.g.dw_q;
    CHECK_FALSE(
        runner::decode_backward(runner::encode_backward(0, fx.p, fx.f, fx.dz_t, nullptr, fx.g)));
    fx.g.dw_k = awb_tensor{};
    // A gradient of 2^40 elements: refused from its header alone.
    fx.g.dw_q.shape[0] = int64_t{1} << 40;
    CHECK_FALSE(
        runner::decode_backward(runner::encode_backward(0, fx.p, fx.f, fx.dz_t, nullptr, fx.g)));
  }
  SECTION("dZ and dA must fit Z and the heads") {
    awb_tensor wrong_dz = fx.dz_t;
    wrong_dz.shape[0] = 1;
    CHECK_FALSE(
        runner::decode_backward(runner::encode_backward(0, fx.p, fx.f, wrong_dz, nullptr, fx.g)));
    awb_tensor da = fx.f.a;
    const auto with_da =
        runner::decode_backward(runner::encode_backward(0, fx.p, fx.f, fx.dz_t, &da, fx.g));
    REQUIRE(with_da);
    CHECK(with_da->da.data != nullptr);
    // Two heads of dA for a one-head problem, in a buffer that holds them (the encoder reads
    // every element its shape names).
    std::vector<double> two_heads(8, 0.25);
    da.data = two_heads.data();
    da.shape[0] = 2;
    CHECK_FALSE(
        runner::decode_backward(runner::encode_backward(0, fx.p, fx.f, fx.dz_t, &da, fx.g)));
  }
}

TEST_CASE("hello and load reports round-trip, a lying variant count is refused", "[runner]") {
  runner::Hello h;
  h.level = runner::Isolation::kConfined;
  h.notes = "landlock ABI 6";
  h.descriptor.present = true;
  h.descriptor.id = "org.example.x";
  h.descriptor.n_variants = 1;
  h.descriptor.has_variants = true;
  h.descriptor.variants.push_back({true, 64, "v", "V", "", AWB_CAP_F64, true, true, true, true});
  const auto bytes = runner::encode(h);
  const auto back = runner::decode_hello(bytes);
  REQUIRE(back);
  CHECK(back->level == runner::Isolation::kConfined);
  CHECK(back->descriptor.variants.at(0).id == "v");
  CHECK(back->descriptor.variants.at(0).has_forward);
  CHECK(back->descriptor.variants.at(0).has_backward);  // the host knows before calling

  auto lying = bytes;  // claim 100000 variants where one follows
  // The one variant's fields (the last: its parameter count, none), then the variant count.
  const size_t count_at = bytes.size() - (1 + 8 + 4 + 1 + 4 + 1 + 4 + 0 + 8 + 1 + 4) - 4;
  lying[count_at] = 0xA0;
  lying[count_at + 1] = 0x86;
  lying[count_at + 2] = 0x01;
  CHECK_FALSE(runner::decode_hello(lying));

  const runner::LoadFailed f{"entry-symbol", "no entry", "undefined symbol"};
  const auto fb = runner::decode_load_failed(runner::encode(f));
  REQUIRE(fb);
  CHECK(fb->stage == "entry-symbol");
  CHECK(fb->system_error == "undefined symbol");
}

TEST_CASE("isolation levels are ordered and named", "[runner]") {
  CHECK(runner::Isolation::kInProcess < runner::Isolation::kProcess);
  CHECK(runner::Isolation::kLimited < runner::Isolation::kConfined);
  for (const char* n : {"in-process", "process", "limited", "confined"})
    CHECK(runner::to_string(*runner::parse_isolation(n)) == std::string(n));
  CHECK_FALSE(runner::parse_isolation("jail"));
}

TEST_CASE("the shared region is sealed, seen by both ends, and carries only large frames",
          "[runner]") {
  auto region = runner::SharedRegion::create(300 << 10);
  REQUIRE(region.valid());
  CHECK(region.size() % static_cast<size_t>(::sysconf(_SC_PAGESIZE)) == 0);
  const int fd = region.descriptor();
  REQUIRE(fd >= 0);
  // Neither end can change its size again, nor lift the seals that say so.
  const int seals = ::fcntl(fd, F_GET_SEALS);
  CHECK((seals & F_SEAL_SHRINK) != 0);
  CHECK((seals & F_SEAL_GROW) != 0);
  CHECK((seals & F_SEAL_SEAL) != 0);
  CHECK(::ftruncate(fd, 0) != 0);
  CHECK(::ftruncate(fd, static_cast<off_t>(region.size() * 2)) != 0);

  // The runner's mapping is the same memory; adopting closes the descriptor it was given.
  const int copy = ::dup(fd);
  auto adopted = runner::SharedRegion::adopt(copy);
  REQUIRE(adopted.valid());
  CHECK(adopted.size() == region.size());
  CHECK(::fcntl(copy, F_GETFD) == -1);
  region.data()[12345] = 0x5A;
  CHECK(adopted.data()[12345] == 0x5A);
  region.close_descriptor();
  CHECK(region.descriptor() == -1);
  CHECK(region.valid());  // the mapping outlives the descriptor

  // Anything else on the runner's descriptor is ignored (and closed).
  int pipe_fds[2];
  REQUIRE(::pipe(pipe_fds) == 0);
  const int not_a_region = ::dup(pipe_fds[0]);
  CHECK_FALSE(runner::SharedRegion::adopt(not_a_region).valid());
  CHECK(::fcntl(not_a_region, F_GETFD) == -1);

  CHECK_FALSE(region.carries(wire::kSharedRegionThreshold - 1));
  CHECK(region.carries(wire::kSharedRegionThreshold));
  CHECK(region.carries(region.size()));
  CHECK_FALSE(region.carries(region.size() + 1));
  CHECK(region.holds(region.size()));
  CHECK_FALSE(region.holds(region.size() + 1));
  CHECK_FALSE(runner::SharedRegion().carries(wire::kSharedRegionThreshold));

  // A large payload goes to the region and the pipe gets the marked header alone; a small one
  // follows its header in the pipe.
  std::vector<uint8_t> large(200 << 10);
  for (size_t i = 0; i < large.size(); ++i) large[i] = static_cast<uint8_t>(i * 7);
  REQUIRE(adopted.send(pipe_fds[1], wire::Type::kResult, 7, 99, large));
  wire::Header h;
  REQUIRE(wire::read_all(pipe_fds[0], &h, sizeof h));
  CHECK(h.type == (static_cast<uint16_t>(wire::Type::kResult) | wire::kInSharedRegion));
  CHECK(h.request_id == 7);
  CHECK(h.nonce == 99);
  CHECK(h.payload_size == large.size());
  const auto seen = region.payload(h.payload_size);
  CHECK(std::equal(seen.begin(), seen.end(), large.begin(), large.end()));
  const std::vector<uint8_t> small = {1, 2, 3};
  REQUIRE(adopted.send(pipe_fds[1], wire::Type::kResult, 8, 1, small));
  REQUIRE(wire::read_all(pipe_fds[0], &h, sizeof h));
  CHECK(h.type == static_cast<uint16_t>(wire::Type::kResult));
  std::vector<uint8_t> tail(3);
  REQUIRE(wire::read_all(pipe_fds[0], tail.data(), tail.size()));
  CHECK(tail == small);
  ::close(pipe_fds[0]);
  ::close(pipe_fds[1]);

  CHECK(runner::shared_region_bytes(1024) == size_t{128} << 20);
  CHECK(runner::shared_region_bytes(16384) == size_t{256} << 20);
  CHECK(runner::shared_region_bytes(0) == size_t{256} << 20);
}
