// problem_file.tests.cpp: YAML problem files parse, and bad ones fail with id and position.
#include "core/exercises/problem_file.hpp"

#include <catch2/catch.hpp>

#include "graders/model/error.hpp"

using namespace awb;

namespace {

Error parse_error(const std::string& yaml) {
  try {
    core::parse_problem_yaml(yaml, "p.yaml");
  } catch (const Error& e) {
    return e;
  }
  FAIL("expected an error");
  return Error("none", "");
}

}  // namespace

TEST_CASE("a complete problem file parses", "[problem]") {
  const auto p = core::parse_problem_yaml(
      "tokens: [a, b]\n"
      "x: [[1, 0], [0, 1]]\n"
      "w_q: [[1, 0], [0, 1]]\nw_k: [[1, 0], [0, 1]]\nw_v: [[1, 0], [0, 1]]\n"
      "heads: 2\ncausal: true\nsharpness: 2.5\nscale: none\n",
      "p.yaml");
  CHECK(p.heads == 2);
  CHECK(p.causal);
  CHECK(p.sharpness == 2.5);
  CHECK(p.resolved_scale() == ScaleMode::kNone);
  CHECK(p.d_k() == 1);
}

TEST_CASE("problem file errors carry id and file:line:column", "[problem]") {
  auto e = parse_error("x: [[1, 2], [3]]\n");
  CHECK(e.id() == "problem.shape");
  CHECK(e.location() == "p.yaml:1:13");
  e = parse_error("x: [[1, 2]]\nsharpnes: 2\n");
  CHECK(e.id() == "problem.unknown_key");
  CHECK(e.location() == "p.yaml:2:1");
  e = parse_error("x: [[1, two]]\n");
  CHECK(e.id() == "problem.type");
  CHECK(e.location() == "p.yaml:1:9");
  e = parse_error("x: [[1, 2]\n");
  CHECK(e.id() == "problem.yaml");
  e = parse_error("tokens: [a]\nx: [[1, 2], [3, 4]]\n");
  CHECK(e.id() == "problem.shape");
  CHECK_THAT(e.message(), Catch::Contains("1 tokens but x has 2 rows"));
  e = parse_error("x: [[1, 2]]\nw_q: [[1]]\nw_k: [[1]]\nw_v: [[1]]\n");
  CHECK_THAT(e.message(), Catch::Contains("needs d_model = 2 rows"));
}

TEST_CASE("problem files report every problem at once, as exercises do", "[problem]") {
  const auto l = core::read_problem_yaml(
      "x: [[1, \"2\"]]\nsharpnes: 2\ncausal: 'true'\nheads: 65\n", "p.yaml");
  CHECK_FALSE(l.problem.has_value());
  std::vector<std::string> got;
  for (const auto& e : l.errors) got.push_back(e.id() + " " + e.location());
  CHECK(got == std::vector<std::string>{"problem.unknown_key p.yaml:2:1", "problem.type p.yaml:1:9",
                                        "problem.limit p.yaml:4:8", "problem.type p.yaml:3:9"});
}

TEST_CASE("problem files have the exercises' caps and one document", "[problem]") {
  std::string row = "[1";
  for (int i = 1; i < 4096; ++i) row += ",1";
  CHECK(core::read_problem_yaml("x: [" + row + "]]\n", "p.yaml").errors.empty());
  auto e = parse_error("x: [" + row + ",1]]\n");
  CHECK(e.id() == "problem.limit");
  CHECK(e.location() == "p.yaml:1:5");
  e = parse_error("x: [[1]]\n---\nx: [[2]]\n");
  CHECK(e.id() == "problem.several_documents");
  CHECK(e.location() == "p.yaml:2:1");
  e = parse_error("x: [[1]]\n" + std::string(size_t(8) << 20, '#'));
  CHECK(e.id() == "problem.too_large");
}
