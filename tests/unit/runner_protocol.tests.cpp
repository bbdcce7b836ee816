// runner_protocol.tests.cpp: the runner's messages survive a round trip, and anything truncated,
// oversized or out of range is refused rather than read past its end.
#include <catch2/catch.hpp>
#include <cmath>
#include <vector>

#include "runner/protocol.hpp"

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

TEST_CASE("hello and load reports round-trip; a lying variant count is refused", "[runner]") {
  runner::Hello h;
  h.level = runner::Isolation::kConfined;
  h.notes = "landlock ABI 6";
  h.descriptor.present = true;
  h.descriptor.id = "org.example.x";
  h.descriptor.n_variants = 1;
  h.descriptor.has_variants = true;
  h.descriptor.variants.push_back({true, 64, "v", "V", "", AWB_CAP_F64, true, true, true});
  const auto bytes = runner::encode(h);
  const auto back = runner::decode_hello(bytes);
  REQUIRE(back);
  CHECK(back->level == runner::Isolation::kConfined);
  CHECK(back->descriptor.variants.at(0).id == "v");
  CHECK(back->descriptor.variants.at(0).has_forward);

  auto lying = bytes;  // claim 100000 variants where one follows
  const size_t count_at = bytes.size() - (1 + 8 + 4 + 1 + 4 + 1 + 4 + 0 + 8 + 1) - 4;
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
