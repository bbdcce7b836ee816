// expect_checks.tests.cpp: each `expect` predicate on hand-made outputs, once passing and once
// failing, with the summary naming what it found.
#include <catch2/catch.hpp>
#include <cmath>

#include "graders/checks/check.hpp"
#include "support/hand_outputs.hpp"

using namespace awb;
using namespace awb::grade;
using awb::test::FixedSubject;
using awb::test::four_tokens;
using awb::test::output_of;
using awb::test::peaked;

namespace {

// Row t puts all its weight on key (t + 1) % 4.
Matrix one_hot() {
  Matrix a(4, 4, 0.0);
  for (int64_t t = 0; t < 4; ++t) a(t, (t + 1) % 4) = 1.0;
  return a;
}

// Weights = row softmax of sharpness · log(peaked()): sharper with the sharpness, as the sweep
// of a `monotone` check expects.
class SharpeningSubject : public Subject {
 public:
  std::optional<std::string> cannot_run(const RunInput&, Scalar) const override {
    return std::nullopt;
  }
  RunOutput run(const RunInput& in, Scalar) override {
    const Matrix base = peaked();
    Matrix a(4, 4);
    for (int64_t t = 0; t < 4; ++t) {
      double sum = 0;
      for (int64_t j = 0; j < 4; ++j)
        sum += a(t, j) = std::exp(in.params.sharpness * std::log(base(t, j)));
      for (int64_t j = 0; j < 4; ++j) a(t, j) /= sum;
    }
    return output_of(in, a);
  }
};

CheckResult grade_with(Subject& subject, const CheckSpec& spec, const RunInput& in) {
  FixedSubject reference(output_of(in, peaked()));
  CheckContext ctx(subject, reference, in, Scalar::kF64, 2);
  return evaluate(spec, ctx);
}

CheckResult grade_one(const CheckSpec& spec, const Matrix& a, const RunInput& in = four_tokens()) {
  FixedSubject subject(output_of(in, a));
  return grade_with(subject, spec, in);
}

CheckSpec expect(const std::string& predicate) {
  CheckSpec s;
  s.id = predicate;  // (a literal here trips GCC 12's false -Wrestrict, bug 105329)
  s.kind = CheckKind::kExpect;
  s.name = predicate;
  s.query = 0;
  s.key = 1;
  return s;
}

bool says(const CheckResult& r, const std::string& text) {
  return r.summary.find(text) != std::string::npos;
}

}  // namespace

TEST_CASE("expect argmax_is", "[grader][expect]") {
  CheckSpec s = expect("argmax_is");
  const CheckResult pass = grade_one(s, peaked());
  CHECK(pass.status == Status::kPassed);
  CHECK(says(pass, "'a' attends most to 'b' (0.4)"));
  s.key = 2;
  const CheckResult fail = grade_one(s, peaked());
  CHECK(fail.status == Status::kFailed);
  CHECK(says(fail, "'a' attends most to 'b' (0.4)"));
  CHECK(says(fail, "expected 'c' (0.2)"));
}

TEST_CASE("expect in_top_k", "[grader][expect]") {
  CheckSpec s = expect("in_top_k");
  s.k = 1;
  CHECK(grade_one(s, peaked()).status == Status::kPassed);
  s.key = 2;  // 0.2, tied with two other keys below the peak
  const CheckResult fail = grade_one(s, peaked());
  CHECK(fail.status == Status::kFailed);
  CHECK(says(fail, "'c' is number 4 in the weights of 'a'"));
  CHECK(says(fail, "expected within the top 1"));
}

TEST_CASE("expect weight_above and weight_below", "[grader][expect]") {
  CheckSpec above = expect("weight_above");
  above.value = 0.3;
  CHECK(grade_one(above, peaked()).status == Status::kPassed);
  above.value = 0.5;
  const CheckResult not_above = grade_one(above, peaked());
  CHECK(not_above.status == Status::kFailed);
  CHECK(says(not_above, "A['a', 'b'] = 0.4"));
  CHECK(says(not_above, "is not above 0.5"));

  CheckSpec below = expect("weight_below");
  below.value = 0.5;
  CHECK(grade_one(below, peaked()).status == Status::kPassed);
  below.value = 0.3;
  const CheckResult not_below = grade_one(below, peaked());
  CHECK(not_below.status == Status::kFailed);
  CHECK(says(not_below, "is not below 0.3"));
}

TEST_CASE("expect only_query_above: the query's weight on key, and no other row's",
          "[grader][expect]") {
  // peaked(): A[a, b] = 0.4; every other row gives b 0.2.
  CheckSpec s = expect("only_query_above");
  s.value = 0.3;
  const CheckResult pass = grade_one(s, peaked());
  CHECK(pass.status == Status::kPassed);
  CHECK(says(pass, "A['a', 'b'] = 0.4 > 0.3; every other row's is below 0.3"));
  s.value = 0.5;  // the query's own weight falls short
  const CheckResult own = grade_one(s, peaked());
  CHECK(own.status == Status::kFailed);
  CHECK(says(own, "A['a', 'b'] = 0.4 is not above 0.5"));
  s.value = 0.3;
  Matrix a = peaked();
  a(2, 1) = 0.4;  // 'c' looks at 'b' as much as 'a' does
  a(2, 3) = 0.2;
  const CheckResult shared = grade_one(s, a);
  CHECK(shared.status == Status::kFailed);
  CHECK(says(shared, "but A['c', 'b'] = 0.4 is not below 0.3 either"));
}

TEST_CASE("expect weight_greater", "[grader][expect]") {
  CheckSpec s = expect("weight_greater");
  s.than = 2;
  CHECK(grade_one(s, peaked()).status == Status::kPassed);
  s.key = 2;
  s.than = 1;
  const CheckResult fail = grade_one(s, peaked());
  CHECK(fail.status == Status::kFailed);
  CHECK(says(fail, "'a' gives 'c' 0.2"));
  CHECK(says(fail, "and 'b' 0.4"));
}

TEST_CASE("expect entropy_below and entropy_above", "[grader][expect]") {
  // A peaked row has entropy 1.3322 nats; a uniform row of four, ln 4 = 1.3863.
  Matrix a = peaked();
  for (int64_t j = 0; j < 4; ++j) a(2, j) = 0.25;
  CheckSpec below = expect("entropy_below");
  below.value = 1.35;
  CHECK(grade_one(below, a).status == Status::kPassed);  // only the row of a is read
  below.all_rows = true;
  const CheckResult uniform_row = grade_one(below, a);
  CHECK(uniform_row.status == Status::kFailed);
  CHECK(says(uniform_row, "entropy of the row of 'c' is 1.38629"));
  below.all_rows = false;
  below.value = 1.3;
  CHECK(grade_one(below, a).status == Status::kFailed);

  CheckSpec above = expect("entropy_above");
  above.value = 1.3;
  above.all_rows = true;
  CHECK(grade_one(above, a).status == Status::kPassed);
  above.value = 1.35;
  const CheckResult fail = grade_one(above, a);
  CHECK(fail.status == Status::kFailed);
  CHECK(says(fail, "entropy of the row of 'a' is 1.33218"));
  CHECK(says(fail, "expected above 1.35"));
}

TEST_CASE("expect uniform_rows", "[grader][expect]") {
  CheckSpec s = expect("uniform_rows");
  s.tolerance = {.atol = 1e-9, .rtol = 0};
  CHECK(grade_one(s, Matrix(4, 4, 0.25)).status == Status::kPassed);
  const CheckResult fail = grade_one(s, peaked());
  CHECK(fail.status == Status::kFailed);
  CHECK(says(fail, "of the uniform 1/4"));
  // Under a causal mask a row is uniform over the keys it may see.
  Matrix causal(4, 4, 0.0);
  for (int64_t t = 0; t < 4; ++t)
    for (int64_t j = 0; j <= t; ++j) causal(t, j) = 1.0 / double(t + 1);
  CHECK(grade_one(s, causal, four_tokens(true)).status == Status::kPassed);
  CHECK(grade_one(s, causal).status == Status::kFailed);
}

TEST_CASE("expect one_hot_rows", "[grader][expect]") {
  CheckSpec s = expect("one_hot_rows");
  s.tolerance = {.atol = 1e-6, .rtol = 0};
  CHECK(grade_one(s, one_hot()).status == Status::kPassed);
  const CheckResult fail = grade_one(s, peaked());
  CHECK(fail.status == Status::kFailed);
  CHECK(says(fail, "the largest weight of 'a' is 0.4"));
}

TEST_CASE("expect context_close", "[grader][expect]") {
  const RunInput in = four_tokens();
  const RunOutput out = output_of(in, peaked());
  CheckSpec s = expect("context_close");
  s.tolerance = {.atol = 1e-9, .rtol = 0};
  s.vector_value = {out.layers[0].result.z(0, 0), out.layers[0].result.z(0, 1)};
  CHECK(grade_one(s, peaked()).status == Status::kPassed);
  s.vector_value[1] += 0.01;
  const CheckResult off = grade_one(s, peaked());
  CHECK(off.status == Status::kFailed);
  CHECK(says(off, "context vector of 'a' is ["));
  CHECK(says(off, "max difference 0.01"));
  s.vector_value = {out.layers[0].result.z(0, 0)};  // too short: no entry stands in for another
  const CheckResult short_value = grade_one(s, peaked());
  CHECK(short_value.status == Status::kFailed);
  CHECK(says(short_value, "max difference Inf"));
}

TEST_CASE("expect cosine_closer_to", "[grader][expect]") {
  // One-hot: the context vector of a is exactly x_b.
  CheckSpec s = expect("cosine_closer_to");
  s.to = 1;
  s.than = 2;
  const CheckResult pass = grade_one(s, one_hot());
  CHECK(pass.status == Status::kPassed);
  CHECK(says(pass, "has cosine 1 with 'b'"));
  s.to = 2;
  s.than = 1;
  CHECK(grade_one(s, one_hot()).status == Status::kFailed);
}

TEST_CASE("expect scores_asymmetric and scores_symmetric", "[grader][expect]") {
  CheckSpec asym = expect("scores_asymmetric");
  asym.margin = 0.1;  // S[a, b] - S[b, a] = 0.4 - 0.2
  CHECK(grade_one(asym, peaked()).status == Status::kPassed);
  asym.margin = 0.3;
  const CheckResult small = grade_one(asym, peaked());
  CHECK(small.status == Status::kFailed);
  CHECK(says(small, "S['a', 'b'] = 0.4, S['b', 'a'] = 0.2 (margin wanted 0.3)"));

  CheckSpec sym = expect("scores_symmetric");
  sym.tolerance = {.atol = 1e-9, .rtol = 0};
  CHECK(grade_one(sym, Matrix(4, 4, 0.25)).status == Status::kPassed);
  const CheckResult fail = grade_one(sym, peaked());
  CHECK(fail.status == Status::kFailed);
  CHECK(says(fail, "S['a', 'b'] = 0.4 but S['b', 'a'] = 0.2"));
}

TEST_CASE("expect monotone over a sharpness sweep", "[grader][expect]") {
  const RunInput in = four_tokens();
  CheckSpec s = expect("monotone");
  s.sweep = {"sharpness", {0.5, 1, 2, 4}};
  SharpeningSubject sharpening;
  SECTION("entropy falls as the weights sharpen") {
    s.measure = {"entropy", 0, -1};
    s.direction = Direction::kDecreasing;
    const CheckResult pass = grade_with(sharpening, s, in);
    CHECK(pass.status == Status::kPassed);
    CHECK(says(pass, "entropy is decreasing: sharpness 0.5 -> "));
    s.direction = Direction::kIncreasing;
    CHECK(grade_with(sharpening, s, in).status == Status::kFailed);
  }
  SECTION("the top weight and one key's weight rise") {
    s.direction = Direction::kIncreasing;
    s.measure = {"max_weight", 0, -1};
    CHECK(grade_with(sharpening, s, in).status == Status::kPassed);
    s.measure = {"weight", 0, 1};
    CHECK(grade_with(sharpening, s, in).status == Status::kPassed);
    s.measure = {"weight", 0, 2};  // a key off the peak loses weight
    CHECK(grade_with(sharpening, s, in).status == Status::kFailed);
  }
  SECTION("a plugin that ignores the sharpness is not monotone either way") {
    s.measure = {"entropy", 0, -1};
    FixedSubject fixed(output_of(in, peaked()));
    for (Direction d : {Direction::kIncreasing, Direction::kDecreasing}) {
      s.direction = d;
      const CheckResult r = grade_with(fixed, s, in);
      CHECK(r.status == Status::kFailed);
      CHECK(says(r, "entropy is not"));
    }
  }
}
