// predicates.tests.cpp: every property and expect check, and the diagnoses, on hand-made NaN,
// Inf, tied and constant outputs: none of them passes, and each says what it found.
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

#include "graders/checks/check.hpp"
#include "graders/checks/diagnosis.hpp"
#include "graders/checks/measures.hpp"
#include "support/hand_outputs.hpp"

using namespace awb;
using namespace awb::grade;
using awb::test::FixedSubject;
using awb::test::four_tokens;
using awb::test::output_of;
using awb::test::peaked;

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

CheckResult grade_one(const CheckSpec& spec, const RunOutput& got, RunInput in = four_tokens()) {
  FixedSubject subject(got);
  FixedSubject reference(output_of(in, peaked()));
  CheckContext ctx(subject, reference, in, Scalar::kF64, 2);
  return evaluate(spec, ctx);
}

CheckSpec predicate_spec(const std::string& predicate) {
  CheckSpec s;
  s.id = "c";
  s.kind = CheckKind::kExpect;
  s.name = predicate;
  s.query = 0;
  s.key = 1;
  s.than = 2;
  s.to = 1;
  s.k = 2;
  s.value = 0.1;
  s.tolerance = {.atol = 0.5, .rtol = 0};
  s.vector_value = {0.0, 0.0};
  return s;
}

CheckSpec property(const std::string& name) {
  CheckSpec s;
  s.id = "c";
  s.kind = CheckKind::kProperty;
  s.name = name;
  return s;
}

// Every expect predicate that reads one output (not the sweep) and every property.
std::vector<CheckSpec> all_checks() {
  std::vector<CheckSpec> out;
  for (const char* p :
       {"argmax_is", "in_top_k", "weight_above", "weight_below", "only_query_above",
        "weight_greater", "entropy_below", "entropy_above", "uniform_rows", "one_hot_rows",
        "context_close", "cosine_closer_to", "scores_asymmetric", "scores_symmetric"})
    out.push_back(predicate_spec(p));
  out.back().tolerance.atol = 1e9;  // scores_symmetric: any finite S would pass
  for (const char* p : {"rows_sum_to_one", "finite", "shape", "masked_zero", "deterministic",
                        "causal_no_leak", "context_alone", "permutation_equivariant"})
    out.push_back(property(p));
  return out;
}

}  // namespace

TEST_CASE("ranks count ties against the key", "[grader][predicates]") {
  Matrix a(3, 4);
  const double tied[] = {0.4, 0.4, 0.1, 0.1};
  for (int c = 0; c < 4; ++c) {
    a(0, c) = tied[c];
    a(1, c) = 0.25;
    a(2, c) = c == 2 ? kNaN : 0.25;
  }
  CHECK(rank_in_row(a, 0, 0) == 1);  // tied with key 1: not strictly the largest
  CHECK(rank_in_row(a, 0, 1) == 1);
  CHECK(rank_in_row(a, 0, 2) == 3);
  for (int c = 0; c < 4; ++c) CHECK(rank_in_row(a, 1, c) == 3);  // constant: nobody in the top 3
  CHECK(rank_in_row(a, 2, 2) == 3);                              // a NaN key ranks below everything
}

TEST_CASE("no check passes on NaN, Inf or a degenerate output", "[grader][predicates]") {
  const RunInput in = four_tokens();
  SECTION("NaN everywhere") {
    const RunOutput got = output_of(in, Matrix(4, 4, kNaN));
    for (const auto& spec : all_checks()) {
      const CheckResult r = grade_one(spec, got);
      INFO(spec.name << ": " << r.summary);
      CHECK(r.status == Status::kFailed);
      CHECK(r.summary.find("contain NaN at (0, 0)") != std::string::npos);
      CHECK(r.diagnosis.find("contain NaN at (0, 0)") != std::string::npos);
    }
  }
  SECTION("one Inf weight, the rest valid") {
    Matrix a = peaked();
    a(2, 3) = kInf;
    RunOutput got = output_of(in, peaked());
    got.layers[0].result.weights[0] = a;
    got.layers[0].result.scores[0] = a;
    got.layers[0].result.z(2, 1) = kInf;
    for (const auto& spec : all_checks()) {
      const CheckResult r = grade_one(spec, got);
      INFO(spec.name << ": " << r.summary);
      CHECK(r.status == Status::kFailed);
      CHECK(r.summary.find("Inf at (2, ") != std::string::npos);
    }
  }
  SECTION("a constant (subnormal) Z with uniform weights") {
    RunOutput got = output_of(in, Matrix(4, 4, 0.25));
    got.layers[0].result.z = Matrix(4, 2, std::numeric_limits<double>::denorm_min());
    for (const auto& spec : all_checks()) {
      const CheckResult r = grade_one(spec, got);
      INFO(spec.name << ": " << r.summary);
      CHECK(r.status == Status::kFailed);
      CHECK(r.summary.find("in every entry although the input rows differ") != std::string::npos);
    }
  }
}

TEST_CASE("argmax and top-k on tied and constant rows", "[grader][predicates]") {
  const RunInput in = four_tokens();
  Matrix a = peaked();
  a(0, 0) = a(0, 1) = 0.3;  // row 0: keys 0 and 1 tie for the top
  a(0, 2) = a(0, 3) = 0.2;
  a(3, 0) = a(3, 1) = a(3, 2) = a(3, 3) = 0.25;  // row 3: constant
  const RunOutput got = output_of(in, a);
  CheckSpec argmax = predicate_spec("argmax_is");
  const CheckResult tie = grade_one(argmax, got);
  CHECK(tie.status == Status::kFailed);
  CHECK(tie.summary.find("a tie is no argmax") != std::string::npos);
  argmax.query = 3;
  CHECK(grade_one(argmax, got).status == Status::kFailed);
  argmax.query = 1;
  argmax.key = 2;
  CHECK(grade_one(argmax, got).status == Status::kPassed);  // row 1 peaks at key 2 alone

  CheckSpec top = predicate_spec("in_top_k");
  top.k = 1;  // a key tied for first is not the top 1
  CHECK(grade_one(top, got).status == Status::kFailed);
  top.k = 2;
  CHECK(grade_one(top, got).status == Status::kPassed);
  top.query = 3;  // constant row: in the top k only when k >= T
  for (int k = 1; k < 4; ++k) {
    top.k = k;
    INFO("k = " << k);
    CHECK(grade_one(top, got).status == Status::kFailed);
  }
  top.k = 4;
  CHECK(grade_one(top, got).status == Status::kPassed);
}

TEST_CASE("context_close is not fooled by a NaN entry", "[grader][predicates]") {
  const RunInput in = four_tokens();
  RunOutput got = output_of(in, peaked());
  CheckSpec s = predicate_spec("context_close");
  s.vector_value = {got.layers[0].result.z(0, 0), got.layers[0].result.z(0, 1)};
  s.tolerance = {.atol = 1e-9, .rtol = 0};
  CHECK(grade_one(s, got).status == Status::kPassed);
  got.layers[0].result.z(0, 1) = kNaN;
  const CheckResult r = grade_one(s, got);
  CHECK(r.status == Status::kFailed);
  CHECK(r.summary.find("the context vectors contain NaN at (0, 1)") != std::string::npos);
}

TEST_CASE("a diagnosis names a cause only with its evidence", "[grader][predicates][diagnosis]") {
  const RunInput in = four_tokens();
  const ProblemSpec problem = in.layer_problem(0, in.x);
  RunOutput got = output_of(in, peaked());
  auto& r = got.layers[0].result;
  SECTION("a NaN row whose scores sum to 0: dividing by the row sum, not an overflow") {
    for (int64_t c = 0; c < 4; ++c) {
      r.scores[0](1, c) = 0.0;
      r.weights[0](1, c) = kNaN;
    }
    const std::string d = diagnose(got.layers[0], nullptr, problem);
    CHECK(d.find("The weights contain NaN at (1, 0)") == 0);
    CHECK(d.find("divided by their row sum") != std::string::npos);
    CHECK(d.find("overflow") == std::string::npos);
  }
  SECTION("a NaN row with a score of 300: exp() overflowed") {
    r.scores[0](1, 2) = 300;
    r.weights[0](1, 0) = kNaN;
    const std::string d = diagnose(got.layers[0], nullptr, problem);
    CHECK(d.find("exp() of a large score (300) overflows") != std::string::npos);
  }
  SECTION("a NaN row with small scores: neither cause is claimed") {
    r.weights[0](1, 0) = kNaN;
    const std::string d = diagnose(got.layers[0], nullptr, problem);
    CHECK(d.find("The weights contain NaN at (1, 0)") == 0);
    CHECK(d.find("overflow") == std::string::npos);
    CHECK(d.find("divided by their row sum") == std::string::npos);
  }
  SECTION("NaN scores: the NaN comes before the softmax") {
    r.scores[0](2, 3) = kNaN;
    r.weights[0](2, 3) = kNaN;
    const std::string d = diagnose(got.layers[0], nullptr, problem);
    CHECK(d.find("before the softmax") != std::string::npos);
    CHECK(d.find("overflow") == std::string::npos);
  }
}

TEST_CASE("a causal mask off by one is told from a missing one",
          "[grader][predicates][diagnosis]") {
  const RunInput in = four_tokens(true);
  const ProblemSpec problem = in.layer_problem(0, in.x);
  // Query t sees keys 0..t+1 (off by one), uniformly.
  Matrix off(4, 4);
  for (int64_t t = 0; t < 4; ++t) {
    const int64_t visible = std::min<int64_t>(t + 2, 4);
    for (int64_t j = 0; j < visible; ++j) off(t, j) = 1.0 / double(visible);
  }
  const std::string d_off = diagnose(output_of(in, off).layers[0], nullptr, problem);
  CHECK(d_off.find("off by one") != std::string::npos);
  CHECK(d_off.find("missing") == std::string::npos);
  const std::string d_none =
      diagnose(output_of(in, Matrix(4, 4, 0.25)).layers[0], nullptr, problem);
  CHECK(d_none.find("the mask is missing") != std::string::npos);
  CHECK(d_none.find("off by one") == std::string::npos);
}
