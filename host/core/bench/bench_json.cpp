// bench_json.cpp: a measured point's statistics as JSON.
#include "core/bench/bench_json.hpp"

#include <cmath>

namespace awb::core {
namespace {

nlohmann::json or_null(double v) { return std::isnan(v) ? nlohmann::json() : nlohmann::json(v); }

std::vector<double> milliseconds(const std::vector<double>& seconds) {
  std::vector<double> out;
  for (double s : seconds) out.push_back(s * 1e3);
  return out;
}

}  // namespace

nlohmann::json measure_json(const BenchMeasure& m) {
  nlohmann::json j{
      {"flops", or_null(m.flops)},
      {"cost_bytes", or_null(m.cost_bytes)},
      {"gbytes_per_s", or_null(m.gbytes_per_s())},
      {"first_call_ms", m.first_call * 1e3},
      {"median_ms", m.median * 1e3},
      {"n", m.interval.n},
      {"ci_low_ms", m.interval.low * 1e3},
      {"ci_high_ms", m.interval.high * 1e3},
      {"ci_coverage", m.interval.coverage},
      {"min_ms", m.min * 1e3},
      {"max_ms", m.max * 1e3},
      {"gflops", or_null(m.gflops())},
      {"gemm_median_ms", m.gemm_median * 1e3},
      {"gemm_gflops", m.gemm_gflops()},
      {"gemm_ratio", or_null(m.gemm_ratio())},
      {"blas_gflops", or_null(m.blas_gflops > 0 ? m.blas_gflops : BenchMeasure::kNone)},
      {"blas_ratio", or_null(m.blas_ratio())},
      {"fma_peak_gflops", m.fma_peak_gflops},
      {"peak_share", or_null(m.peak_share())},
      {"io_bytes", m.io_bytes},
      {"peak_first_bytes", m.peak_first},
      {"peak_warm_bytes", m.peak_warm},
      {"samples_ms", milliseconds(m.samples)}};
  if (!m.forward_samples.empty()) {
    j["forward_median_ms"] = m.forward_median * 1e3;
    j["forward_samples_ms"] = milliseconds(m.forward_samples);
    j["backward_per_forward"] = or_null(m.backward_per_forward());
  }
  return j;
}

nlohmann::json peer_json(const PeerInfo& p) {
  nlohmann::json j{{"name", p.name}, {"interpreter", p.interpreter}};
  if (!p.skipped.empty()) {
    j["skipped"] = p.skipped;
    return j;
  }
  j.update({{"version", p.version},
            {"threads", p.threads},
            {"threads_rule", p.threads_rule},
            {"interop_threads", p.interop_threads},
            {"parallel_backend", p.parallel_backend},
            {"cpu_capability", p.cpu_capability},
            {"blas", p.blas},
            {"mkldnn", p.mkldnn},
            {"dtype", "each point's scalar: f32 as torch.float32, f64 as torch.float64"},
            {"grad_mode", p.grad_mode},
            {"timing", p.timing},
            {"ratio", "peer_ratio = torch's median / awb's (above 1: awb is faster)"}});
  return j;
}

void read_peer(const nlohmann::json& j, PeerInfo& p) {
  auto read = [&](const char* key, auto& field) { field = j.value(key, field); };
  read("name", p.name);
  read("interpreter", p.interpreter);
  read("skipped", p.skipped);
  read("version", p.version);
  read("threads", p.threads);
  read("threads_rule", p.threads_rule);
  read("interop_threads", p.interop_threads);
  read("parallel_backend", p.parallel_backend);
  read("cpu_capability", p.cpu_capability);
  read("blas", p.blas);
  read("mkldnn", p.mkldnn);
  read("grad_mode", p.grad_mode);
  read("timing", p.timing);
}

}  // namespace awb::core
