// reference_check.cpp: the `reference` check: outputs against the trusted kernels, with the
// largest differences, a map of where they are, and a diagnosis.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "graders/checks/check.hpp"
#include "graders/checks/diagnosis.hpp"
#include "graders/checks/measures.hpp"

namespace awb::grade {
namespace {

struct Miss {
  std::string where;
  double got, expected, diff;
};

// Compares one matrix (optionally only some rows). Returns whether it matches; appends misses.
bool compare_matrix(const std::string& name, const Matrix& got, const Matrix& expected,
                    const Matrix* f32_reference, const std::vector<int>& rows,
                    const F64Tolerance& tol, std::vector<Miss>& misses, std::string& map) {
  std::vector<int64_t> which;
  if (rows.empty()) {
    for (int64_t r = 0; r < got.rows; ++r) which.push_back(r);
  } else {
    which.assign(rows.begin(), rows.end());
  }
  std::vector<double> g, e, e32;
  for (int64_t r : which) {
    for (int64_t c = 0; c < got.cols; ++c) {
      g.push_back(got(r, c));
      e.push_back(expected(r, c));
      if (f32_reference) e32.push_back((*f32_reference)(r, c));
    }
  }
  const bool ok = f32_reference ? within_f32(g, e32, e) : within_f64(g, e, tol);
  if (ok) return true;
  // Element-wise threshold for the report: the f64 rule, or the f32 bound for the tensor.
  const double bound32 = f32_reference ? f32_bound(e32, e) : 0;
  std::vector<Miss> local;
  std::vector<std::vector<bool>> bad(static_cast<size_t>(got.rows),
                                     std::vector<bool>(static_cast<size_t>(got.cols), false));
  for (int64_t r : which) {
    for (int64_t c = 0; c < got.cols; ++c) {
      const double gv = got(r, c), ev = expected(r, c);
      const double diff = std::isfinite(gv) ? std::fabs(gv - ev) : INFINITY;
      const double allowed = f32_reference ? bound32 : tol.atol + tol.rtol * std::fabs(ev);
      if (!(diff <= allowed)) {
        local.push_back(
            {name + "[" + std::to_string(r) + "][" + std::to_string(c) + "]", gv, ev, diff});
        bad[static_cast<size_t>(r)][static_cast<size_t>(c)] = true;
      }
    }
  }
  misses.insert(misses.end(), local.begin(), local.end());
  if (got.rows <= 16 && got.cols <= 16) {
    map += "  where " + name + " differs (X) from the reference:\n";
    for (int64_t r = 0; r < got.rows; ++r) {
      map += "    ";
      for (int64_t c = 0; c < got.cols; ++c) map += bad[size_t(r)][size_t(c)] ? " X" : " .";
      map += '\n';
    }
  }
  return false;
}

Judgement judge_reference(const CheckSpec& spec, CheckContext& ctx) {
  const RunOutput& got = ctx.subject_run();
  const RunOutput& ref = ctx.reference_run(Scalar::kF64);
  const RunOutput* ref32 =
      ctx.scalar() == Scalar::kF32 ? &ctx.reference_run(Scalar::kF32) : nullptr;
  const LayerRun& g = layer_of(got, spec.layer);
  const LayerRun& e = layer_of(ref, spec.layer);
  const LayerRun* e32 = ref32 ? &layer_of(*ref32, spec.layer) : nullptr;
  const std::string layer_tag =
      ctx.base().layers.size() > 1
          ? "layer " + std::to_string(spec.layer < 0 ? int(got.layers.size()) - 1 : spec.layer) +
                " "
          : "";
  std::vector<Miss> misses;
  std::string map;
  int matched = 0, compared = 0;
  for (Output out : spec.outputs) {
    if (out == Output::kContext) {
      ++compared;
      matched += compare_matrix("Z", g.result.z, e.result.z, e32 ? &e32->result.z : nullptr,
                                spec.rows, spec.tolerance, misses, map);
      continue;
    }
    const auto& gm = out == Output::kWeights ? g.result.weights : g.result.scores;
    const auto& em = out == Output::kWeights ? e.result.weights : e.result.scores;
    for (size_t h = 0; h < em.size(); ++h) {
      ++compared;
      const Matrix* m32 = nullptr;
      if (e32) m32 = out == Output::kWeights ? &e32->result.weights[h] : &e32->result.scores[h];
      const std::string name = std::string(out == Output::kWeights ? "A" : "S") +
                               (em.size() > 1 ? "(head " + std::to_string(h) + ")" : "");
      matched += compare_matrix(name, gm.at(h), em[h], m32, spec.rows, spec.tolerance, misses, map);
    }
  }
  Judgement j;
  std::string what;
  for (Output o : spec.outputs) what += (what.empty() ? "" : ", ") + std::string(to_string(o));
  j.passed = matched == compared;
  j.partial = compared ? double(matched) / compared : 0;
  if (j.passed) {
    j.summary = layer_tag + what + " match the reference";
    return j;
  }
  j.summary = layer_tag + what + ": " + std::to_string(compared - matched) + " of " +
              std::to_string(compared) + " tensors differ from the reference (" +
              std::to_string(misses.size()) + " entries)";
  std::sort(misses.begin(), misses.end(),
            [](const Miss& a, const Miss& b) { return a.diff > b.diff; });
  std::ostringstream d;
  d << "  largest differences (entry: got vs expected):\n";
  for (size_t i = 0; i < misses.size() && i < 5; ++i)
    d << "    " << misses[i].where << ": " << format_value(misses[i].got) << " vs "
      << format_value(misses[i].expected) << " (|diff| " << format_value(misses[i].diff) << ")\n";
  j.details = d.str() + map;
  j.diagnosis = diagnose(g, &e,
                         ctx.base().layer_problem(
                             spec.layer < 0 ? got.layers.size() - 1 : size_t(spec.layer), g.input));
  return j;
}

}  // namespace

void register_reference_checks(Registry& r) {
  r.add({.kind = CheckKind::kReference,
         .name = "reference",
         .description = "weights, scores and context vectors match the trusted reference kernels",
         .keys = {{"outputs", KeyType::kOutputs},
                  {"rows", KeyType::kTokenList},
                  {"tolerance", KeyType::kTolerance}},
         .judge = judge_reference});
}

}  // namespace awb::grade
