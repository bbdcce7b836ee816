// bench_report.cpp: writes `awb bench` results; the count and the method are stated in each.
#include "cli/bench_report.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "core/base/version.hpp"
#include "graders/report/format.hpp"

namespace awb::cli {
namespace {

constexpr const char* kFlopCount =
    "2 per multiply-add: attention 4*T^2*d per head (causal: 4*d*T(T+1)/2, the unmasked pairs), "
    "projections 2*T*d_in*d_out each; softmax not counted";
constexpr const char* kMemoryMethod =
    "resident high water (VmHWM, reset via /proc/self/clear_refs after malloc_trim) above the "
    "resident size with the inputs and outputs already allocated and written";

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

std::string mib(int64_t bytes) { return bytes < 0 ? "n/a" : fixed(bytes / 1048576.0, 1); }

std::string shape_label(const BenchRow& r) {
  const auto& s = r.shape;
  return r.variant + " " + to_string(s.scalar) + " d=" + std::to_string(s.d) +
         " h=" + std::to_string(s.heads) + (s.causal ? " causal" : "") +
         (s.want_weights ? " A" : "") + (s.want_scores ? "S" : "");
}

nlohmann::json row_json(const BenchRow& r) {
  const auto& s = r.shape;
  const auto& m = r.measure;
  nlohmann::json j{{"plugin", r.plugin},
                   {"variant", r.variant},
                   {"scalar", to_string(s.scalar)},
                   {"tokens", s.tokens},
                   {"d", s.d},
                   {"heads", s.heads},
                   {"causal", s.causal},
                   {"want_a", s.want_weights},
                   {"want_s", s.want_scores},
                   {"status", r.status}};
  if (!r.goal.empty()) j["goal"] = r.goal;
  if (!r.note.empty()) j["note"] = r.note;
  if (r.status != "ok") return j;
  j.update({{"flops", m.flops},
            {"first_call_ms", m.first_call * 1e3},
            {"median_ms", m.median * 1e3},
            {"min_ms", m.min * 1e3},
            {"max_ms", m.max * 1e3},
            {"gflops", m.gflops()},
            {"gemm_gflops", m.gemm_gflops()},
            {"gemm_ratio", m.gemm_ratio()},
            {"fma_peak_gflops", m.fma_peak_gflops},
            {"peak_share", m.peak_share()},
            {"io_bytes", m.io_bytes},
            {"peak_first_bytes", m.peak_first},
            {"peak_warm_bytes", m.peak_warm}});
  return j;
}

void write_json(std::ostream& out, const BenchRun& run) {
  nlohmann::json rows = nlohmann::json::array(), fits = nlohmann::json::array();
  for (const auto& r : run.rows) rows.push_back(row_json(r));
  for (const auto& f : scaling_fits(run))
    fits.push_back({{"label", f.label},
                    {"from", f.from},
                    {"to", f.to},
                    {"points", f.points},
                    {"time_slope", f.time_slope},
                    {"memory_slope", f.memory_slope}});
  nlohmann::json doc{{"awb_version", AWB_VERSION},
                     {"threads", run.threads},
                     {"warmup", run.warmup},
                     {"reps", run.reps},
                     {"gemm_n", run.gemm_n},
                     {"fma_isa", run.fma_isa},
                     {"flop_count", kFlopCount},
                     {"memory_method", kMemoryMethod},
                     {"points", rows},
                     {"scaling", fits}};
  out << doc.dump(2) << '\n';
}

void write_csv(std::ostream& out, const BenchRun& run) {
  const char* keys[] = {"plugin",
                        "variant",
                        "scalar",
                        "tokens",
                        "d",
                        "heads",
                        "causal",
                        "want_a",
                        "want_s",
                        "status",
                        "flops",
                        "first_call_ms",
                        "median_ms",
                        "min_ms",
                        "max_ms",
                        "gflops",
                        "gemm_gflops",
                        "gemm_ratio",
                        "fma_peak_gflops",
                        "peak_share",
                        "io_bytes",
                        "peak_first_bytes",
                        "peak_warm_bytes",
                        "goal",
                        "note"};
  for (size_t i = 0; i < std::size(keys); ++i) out << (i ? "," : "") << keys[i];
  out << '\n';
  for (const auto& r : run.rows) {
    const nlohmann::json j = row_json(r);
    for (size_t i = 0; i < std::size(keys); ++i) {
      if (i) out << ',';
      if (!j.contains(keys[i])) continue;
      const auto& v = j[keys[i]];
      if (v.is_string()) {
        out << grade::csv_quoted(v.get<std::string>());
      } else if (v.is_boolean()) {
        out << (v.get<bool>() ? "1" : "0");
      } else {
        out << v.dump();
      }
    }
    out << '\n';
  }
}

void write_table(std::ostream& out, const BenchRun& run) {
  out << "threads " << run.threads << ", " << run.warmup << " warm-up + " << run.reps
      << " timed calls per point; yardsticks: Eigen GEMM n=" << run.gemm_n
      << " (interleaved with the calls), FMA loop (" << run.fma_isa << ")\n"
      << "FLOPs: " << kFlopCount << "\nmemory: " << kMemoryMethod << "\n\n";
  char line[512];
  std::snprintf(line, sizeof line,
                "%-16s %-4s %6s %4s %2s %-3s %-2s %9s %9s %19s %8s %8s %6s %6s %8s %8s  %s\n",
                "variant", "type", "T", "d", "h", "msk", "A", "first ms", "median ms",
                "min..max ms", "GFLOP/s", "GEMM", "xGEMM", "%peak", "mem MiB", "warm MiB",
                "goal / note");
  out << line;
  for (const auto& r : run.rows) {
    const auto& s = r.shape;
    const auto& m = r.measure;
    const std::string tail = r.goal + (r.goal.empty() || r.note.empty() ? "" : "; ") + r.note;
    if (r.status != "ok") {
      std::snprintf(line, sizeof line, "%-16s %-4s %6lld %4lld %2d %-3s %-2s %s: %s\n",
                    r.variant.c_str(), to_string(s.scalar), static_cast<long long>(s.tokens),
                    static_cast<long long>(s.d), s.heads, s.causal ? "yes" : "no",
                    s.want_weights ? "yes" : "no", r.status.c_str(), tail.c_str());
    } else {
      const std::string spread = fixed(m.min * 1e3, 2) + ".." + fixed(m.max * 1e3, 2);
      std::snprintf(line, sizeof line,
                    "%-16s %-4s %6lld %4lld %2d %-3s %-2s %9.2f %9.2f %19s %8.1f %8.1f %6.2f "
                    "%5.1f%% %8s %8s  %s\n",
                    r.variant.c_str(), to_string(s.scalar), static_cast<long long>(s.tokens),
                    static_cast<long long>(s.d), s.heads, s.causal ? "yes" : "no",
                    s.want_weights ? "yes" : "no", m.first_call * 1e3, m.median * 1e3,
                    spread.c_str(), m.gflops(), m.gemm_gflops(), m.gemm_ratio(),
                    100 * m.peak_share(), mib(m.peak_first).c_str(), mib(m.peak_warm).c_str(),
                    tail.c_str());
    }
    out << line;
  }
  const auto fits = scaling_fits(run);
  if (!fits.empty()) out << "\nscaling (log-log slope, T >= 1024):\n";
  for (const auto& f : fits)
    out << "  " << f.label << ": T " << f.from << ".." << f.to << " (" << f.points
        << " points): time slope " << fixed(f.time_slope, 2) << ", memory slope "
        << fixed(f.memory_slope, 2) << '\n';
}

}  // namespace

std::vector<ScalingFit> scaling_fits(const BenchRun& run) {
  using Key = std::tuple<std::string, std::string, int, int64_t, int, bool, bool, bool>;
  std::map<Key, std::vector<const BenchRow*>> groups;
  for (const auto& r : run.rows) {
    const auto& s = r.shape;
    if (r.status != "ok" || s.tokens < 1024) continue;
    groups[{r.plugin, r.variant, static_cast<int>(s.scalar), s.d, s.heads, s.causal, s.want_weights,
            s.want_scores}]
        .push_back(&r);
  }
  std::vector<ScalingFit> out;
  for (const auto& [key, rows] : groups) {
    if (rows.size() < 2) continue;
    std::vector<double> t, time, memory;
    for (const BenchRow* r : rows) {
      t.push_back(static_cast<double>(r->shape.tokens));
      time.push_back(r->measure.median);
      memory.push_back(r->measure.footprint_bytes());
    }
    ScalingFit f;
    f.label = shape_label(*rows.front());
    f.from = static_cast<int64_t>(*std::min_element(t.begin(), t.end()));
    f.to = static_cast<int64_t>(*std::max_element(t.begin(), t.end()));
    if (f.from == f.to) continue;
    f.points = static_cast<int>(rows.size());
    f.time_slope = core::loglog_slope(t, time);
    f.memory_slope = core::loglog_slope(t, memory);
    out.push_back(f);
  }
  return out;
}

void write_bench(std::ostream& out, const BenchRun& run, const std::string& format) {
  if (format == "json")
    write_json(out, run);
  else if (format == "csv")
    write_csv(out, run);
  else
    write_table(out, run);
}

}  // namespace awb::cli
