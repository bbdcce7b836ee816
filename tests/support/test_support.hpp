// test_support.hpp: shared helpers for the tests: random problems, bundled plugins, comparisons.
#ifndef AWB_TESTS_SUPPORT_TEST_SUPPORT_HPP_
#define AWB_TESTS_SUPPORT_TEST_SUPPORT_HPP_

#include <cstdint>
#include <functional>
#include <initializer_list>
#include <random>
#include <string>

#include "core/plugins/forward.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "graders/model/gradients.hpp"
#include "graders/model/problem.hpp"
#include "graders/model/run.hpp"

namespace awb::test {

// A matrix with entries uniform in [-1, 1].
Matrix random_matrix(std::mt19937_64& rng, int64_t rows, int64_t cols);
// dZ for every row and dA for every plane (head, and sequence of a batch) the problem runs.
BackwardSeed random_upstream(std::mt19937_64& rng, const ProblemSpec& problem);
// `subject`'s backward of `problem` in f64 and f32 against the reference's: f64 within 1e-11
// (absolute) and 1e-9 (relative), f32 by the f32 rule within the rounding bound; CHECKs every
// gradient and returns the f64 one.
LayerGradients check_backward(Subject& subject, const ProblemSpec& problem,
                              const BackwardSeed& upstream);

// A problem with entries uniform in [-1, 1]; projections (and W_o) when `projected`.
ProblemSpec random_problem(std::mt19937_64& rng, int64_t tokens, int64_t d_model, int heads,
                           int64_t d_k, bool projected, bool causal);

// The bundled plugins of this build, loaded once per test binary.
const core::Catalog& bundled_catalog();

// Runs a variant (from any catalog) or the matching reference on a problem, strict fit.
ForwardResult run_variant(const core::VariantRef& ref, const ProblemSpec& problem, Scalar scalar);
// The same with explicit options (A and S wanted or not, threads).
ForwardResult run_variant(const core::VariantRef& ref, const ProblemSpec& problem,
                          const core::ForwardOptions& options);
ForwardResult run_reference(uint64_t capabilities, const ProblemSpec& problem, Scalar scalar);
// The reference with the same A/S requests as `options`, in `scalar`.
ForwardResult run_forward_reference(uint64_t capabilities, const ProblemSpec& problem,
                                    core::ForwardOptions options, Scalar scalar);

// Every tensor of `got` against `expected`: f64 policy, or the f32 rule with `f32_reference`.
// Returns an empty string when they agree, else what differs.
std::string compare_f64(const ForwardResult& got, const ForwardResult& expected);
std::string compare_f32(const ForwardResult& got, const ForwardResult& f32_reference,
                        const ForwardResult& f64_reference);

// The id of the awb::Error `f` throws; empty when it throws none.
std::string thrown_error_id(const std::function<void()>& f);
// Checks that `f` throws awb::Error with `id` and a message holding `text`.
void check_refused(const std::function<void()>& f, const std::string& id, const std::string& text);

// A matrix written row by row: rows({{1, 0}, {0.5, 0.5}}).
Matrix rows(std::initializer_list<std::initializer_list<double>> values);

}  // namespace awb::test

#endif  // AWB_TESTS_SUPPORT_TEST_SUPPORT_HPP_
