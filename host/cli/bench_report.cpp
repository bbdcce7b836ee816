// bench_report.cpp: writes `awb bench` results; the count and the method are stated in each.
#include "cli/bench_report.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string_view>
#include <tuple>

#include "core/bench/bench_json.hpp"
#include "core/bench/bench_plan.hpp"
#include "graders/model/error.hpp"
#include "graders/report/format.hpp"

namespace awb::cli {
namespace {

constexpr const char* kFlopCount =
    "the variant's own cost model (org.awb.cost/1, 2 per multiply-add, its parameters included); "
    "without one, GFLOP/s, xGEMM, xBLAS and %peak are left empty, and so are they when the model "
    "claims more than the measured FMA peak; a fwd+bwd point (--backward) counts 3.5 times the "
    "forward's FLOPs, the backward as 2.5 forwards (FlashAttention-2's count)";
constexpr const char* kMemoryMethod =
    "resident high water (VmHWM, reset via /proc/self/clear_refs after malloc_trim) above the "
    "resident size with the inputs and outputs already allocated and written";

std::string fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// "4.47e+13": a figure of any size in a note.
std::string general(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

std::string mib(int64_t bytes) { return bytes < 0 ? "n/a" : fixed(bytes / 1048576.0, 1); }

// A throughput figure, or "n/a" when there is none (no cost model, or one above the peak).
std::string figure(double v, int decimals, const char* suffix = "") {
  return std::isfinite(v) ? fixed(v, decimals) + suffix : "n/a";
}

// "window=16 feature_map=relu", or "-" without parameters.
std::string params_label(const ParamValues& params) {
  std::string s;
  for (const auto& [name, value] : params) s += (s.empty() ? "" : " ") + name + "=" + value;
  return s.empty() ? "-" : s;
}

// NaN (no cost model, or a figure above the peak) as JSON null, so CSV leaves the cell empty.

// A number of a saved point that may be null (NaN when written: no cost model).
double number_or_none(const nlohmann::json& p, const char* key) {
  const auto it = p.find(key);
  if (it == p.end() || it->is_null()) return core::BenchMeasure::kNone;
  return it->get<double>();
}

// The table's proj column: "-" (no weights read), "QKV", or "QKVO" (W_o given too).
const char* projections(const BenchRow& r) {
  if (!core::bench_projected(r.capabilities)) return "-";
  return r.shape.w_o ? "QKVO" : "QKV";  // a variant without W_o skips a point that gives it
}

std::vector<double> scaled(const std::vector<double>& v, double factor) {
  std::vector<double> out;
  for (double x : v) out.push_back(x * factor);
  return out;
}

// "±0.8%" of the median, or "±n/a" below the six calls a 95 % interval needs.
std::string interval_text(const core::MedianInterval& ci) {
  if (ci.coverage < 0.95) return "±n/a";
  return "±" + fixed(100 * ci.relative_half_width(), 1) + "%";
}

// A seconds figure in milliseconds, or null.
nlohmann::json ms_or_null(double seconds) {
  return std::isfinite(seconds) ? nlohmann::json(seconds * 1e3) : nlohmann::json(nullptr);
}

// `peer`: the run asked for a peer, so every row says what it got from it.
nlohmann::json row_json(const BenchRow& r, bool peer) {
  const auto& s = r.shape;
  const auto& m = r.measure;
  nlohmann::json j{{"plugin", r.plugin},
                   {"variant", r.variant},
                   {"mode", r.mode},
                   {"scalar", to_string(s.scalar)},
                   {"tokens", s.tokens},
                   {"d", s.d},
                   {"heads", s.heads},
                   {"kv_heads", s.kv_head_count()},
                   {"batch", s.batch},
                   {"padding", s.padding},
                   {"causal", s.causal},
                   {"want_a", s.want_weights},
                   {"want_s", s.want_scores},
                   {"projections", core::bench_projected(r.capabilities)},
                   {"w_o", s.w_o},
                   {"backward", s.backward},
                   {"d_out", core::bench_d_out(s, r.capabilities)},
                   {"status", r.status},
                   // Every parameter of the variant, defaults filled in; part of the point's
                   // identity.
                   {"params", s.params},
                   {"capabilities", r.capabilities}};
  if (!r.plugin_file.empty()) j["plugin_file"] = r.plugin_file;
  if (!r.plugin_sha256.empty()) j["plugin_sha256"] = r.plugin_sha256;
  if (!r.goal.empty()) j["goal"] = r.goal;
  if (!r.note.empty()) j["note"] = r.note;
  if (peer) {
    j["peer_median_ms"] = ms_or_null(r.peer_median);
    j["peer_n"] = r.peer_n;
    const double ratio = r.peer_ratio();
    j["peer_ratio"] = std::isfinite(ratio) ? nlohmann::json(ratio) : nlohmann::json(nullptr);
    if (!r.peer_op.empty()) j["peer_op"] = r.peer_op;
    if (!r.peer_note.empty()) j["peer_note"] = r.peer_note;
  }
  if (r.status != "ok") return j;
  j.update(core::measure_json(m));
  return j;
}

}  // namespace

nlohmann::json machine_json(const core::MachineInfo& m) {
  return {{"cpu_model", m.cpu_model},
          {"isa", m.isa},
          {"logical_cpus", m.logical_cpus},
          {"compiler", m.compiler},
          {"build_type", m.build_type},
          {"flags", m.flags},
          {"kernels", m.kernels}};
}

namespace {

void write_json(std::ostream& out, const BenchRun& run) { out << bench_json(run).dump(2) << '\n'; }

void write_csv(std::ostream& out, const BenchRun& run) {
  const bool peer = !run.peer.name.empty();
  const char* keys[] = {"plugin",
                        "variant",
                        "mode",
                        "scalar",
                        "tokens",
                        "d",
                        "heads",
                        "kv_heads",
                        "batch",
                        "padding",
                        "causal",
                        "want_a",
                        "want_s",
                        "projections",
                        "w_o",
                        "d_out",
                        "params",
                        "status",
                        "flops",
                        "cost_bytes",
                        "gbytes_per_s",
                        "first_call_ms",
                        "median_ms",
                        "n",
                        "ci_low_ms",
                        "ci_high_ms",
                        "min_ms",
                        "max_ms",
                        "gflops",
                        "gemm_gflops",
                        "gemm_ratio",
                        "blas_gflops",
                        "blas_ratio",
                        "fma_peak_gflops",
                        "peak_share",
                        "io_bytes",
                        "peak_first_bytes",
                        "peak_warm_bytes",
                        "goal",
                        "note"};
  std::vector<const char*> cols(std::begin(keys), std::end(keys));
  if (peer)
    cols.insert(cols.end(), {"peer_median_ms", "peer_n", "peer_ratio", "peer_op", "peer_note"});
  // The run's provenance on every row, so that a row copied out of the file still says where it
  // was measured.
  const auto& m = run.machine;
  std::string isa;
  for (const auto& f : m.isa) isa += (isa.empty() ? "" : " ") + f;
  const std::string provenance =
      "," + grade::csv_quoted(run.awb_version) + "," + grade::csv_quoted(m.cpu_model) + "," +
      grade::csv_quoted(isa) + "," + std::to_string(m.logical_cpus) + "," +
      grade::csv_quoted(m.kernels) + "," + grade::csv_quoted(m.compiler + " " + m.flags);
  for (size_t i = 0; i < cols.size(); ++i) out << (i ? "," : "") << cols[i];
  out << ",plugin_sha256,awb_version,cpu_model,isa,logical_cpus,kernels,build"
      << (peer ? ",peer_version" : "") << "\n";
  const std::string peer_version =
      peer ? "," + grade::csv_quoted(run.peer.skipped.empty() ? run.peer.version : "") : "";
  for (const auto& r : run.rows) {
    const nlohmann::json j = row_json(r, peer);
    for (size_t i = 0; i < cols.size(); ++i) {
      if (i) out << ',';
      if (!j.contains(cols[i])) continue;
      const auto& v = j[cols[i]];
      if (std::string_view(cols[i]) == "params") {
        if (!r.shape.params.empty()) out << grade::csv_quoted(params_label(r.shape.params));
      } else if (v.is_array() || v.is_object() || v.is_null()) {
        continue;  // samples: JSON only; null: an empty figure
      } else if (v.is_string()) {
        out << grade::csv_quoted(v.get<std::string>());
      } else if (v.is_boolean()) {
        out << (v.get<bool>() ? "1" : "0");
      } else {
        out << v.dump();
      }
    }
    out << ',' << r.plugin_sha256 << provenance << peer_version << '\n';
  }
}

// The table's two peer columns: torch's median in ms and torch's time per awb's.
std::string peer_cells(const std::string& ms, const std::string& ratio) {
  char buf[64];
  std::snprintf(buf, sizeof buf, " %9s %7s", ms.c_str(), ratio.c_str());
  return buf;
}

std::string repetition_rule(const core::BenchSettings& s) {
  if (s.reps > 0) return std::to_string(s.reps) + " timed calls per point";
  return "timed calls per point until the median's 95 % interval is within +-" +
         fixed(100 * s.target, 1) + " % (at least " + std::to_string(s.min_reps) + ", at most " +
         std::to_string(s.max_reps) + " calls or " + fixed(s.max_seconds, 2) + " s)";
}

// The table's lines about the peer: torch's version and settings and what it ran, or the skip.
void write_peer_header(std::ostream& out, const BenchRun& run) {
  const core::PeerInfo& p = run.peer;
  if (p.name.empty()) return;
  if (!p.skipped.empty()) {
    out << peer_skip_line(run) << '\n';
    return;
  }
  out << "peer: " << p.name << " " << p.version << " (" << p.interpreter << "): " << p.threads
      << " intra-op threads (" << p.threads_rule << "), " << p.interop_threads
      << " inter-op, parallel backend " << p.parallel_backend << ", CPU capability "
      << p.cpu_capability << ", BLAS " << p.blas << ", oneDNN " << (p.mkldnn ? "on" : "off")
      << "; dtype: the point's scalar (f32: torch.float32, f64: torch.float64); " << p.grad_mode
      << "; " << p.timing << "\nx torch: torch's median / awb's, both of this run (above 1: awb "
      << "is faster)\n";
  std::vector<std::string> ops;
  for (const auto& r : run.rows)
    if (!r.peer_op.empty() && std::find(ops.begin(), ops.end(), r.peer_op) == ops.end())
      ops.push_back(r.peer_op);
  for (const auto& op : ops) out << "torch ran: " << op << '\n';
}

void write_table(std::ostream& out, const BenchRun& run) {
  out << "threads " << run.settings.threads << ", " << run.settings.warmup << " warm-up + "
      << repetition_rule(run.settings) << (run.quick ? " (quick)" : "")
      << "; yardsticks: Eigen GEMM n=" << run.gemm_n
      << " (7 calls before each point's own, outside its time budget), FMA loop (" << run.fma_isa
      << "), BLAS GEMM n=" << run.gemm_n << " (median of 7 calls, once per type and thread count: "
      << (run.blas.empty() ? "unknown" : run.blas) << ")\n"
      << "machine: " << run.machine.cpu_model << ", " << run.machine.logical_cpus
      << " logical CPUs; built with " << run.machine.compiler << " " << run.machine.flags
      << "\nkernels: " << (run.machine.kernels.empty() ? "unknown" : run.machine.kernels)
      << " (the x86-64 level the bundled kernels and the yardstick GEMM run: the best this CPU "
         "runs, or AWB_KERNEL_ISA's)"
      << "\nmedian ±: the distribution-free 95 % interval of the median (order statistics), as a "
         "share of it; mode: in-process (a trusted plugin loaded into awb) or runner (an "
         "awb-runner process, a round trip per call)\n"
      << "FLOPs: " << kFlopCount << "\nmemory: " << kMemoryMethod << "\n";
  write_peer_header(out, run);
  out << '\n';
  const bool peer = !run.peer.name.empty();
  // The params column is as wide as its longest entry, so a sweep's rows line up.
  int params_width = 6;
  for (const auto& r : run.rows)
    params_width = std::max(params_width, static_cast<int>(params_label(r.shape.params).size()));
  char line[1024];
  std::snprintf(line, sizeof line,
                "%-16s %-*s %-10s %-4s %6s %4s %2s %-5s %-3s %-2s %9s %9s %7s %5s %19s %8s %8s %6s "
                "%8s %6s %6s %8s %8s%s  %s\n",
                "variant", params_width, "params", "mode", "type", "T", "d", "h", "proj", "msk",
                "A", "first ms", "median ms", "±95%", "n", "min..max ms", "GFLOP/s", "GEMM",
                "xGEMM", "BLAS", "xBLAS", "%peak", "mem MiB", "warm MiB",
                peer ? peer_cells("torch ms", "x torch").c_str() : "", "goal / note");
  out << line;
  for (const auto& r : run.rows) {
    const auto& s = r.shape;
    const auto& m = r.measure;
    const std::string params = params_label(s.params);
    // A training step says so first: its time and FLOPs are the forward's and the backward's.
    std::string tail = r.goal + (r.goal.empty() || r.note.empty() ? "" : "; ") + r.note;
    if (s.grouped())
      tail = "kv_heads " + std::to_string(s.kv_heads) + (tail.empty() ? "" : "; ") + tail;
    if (s.batch > 1 || s.padding > 0)
      tail = "batch " + std::to_string(s.batch) +
             (s.padding > 0 ? " padding " + fixed(s.padding, 2) : "") + (tail.empty() ? "" : "; ") +
             tail;
    if (s.backward) {
      std::string step = "fwd+bwd";
      if (const double ratio = m.backward_per_forward(); !std::isnan(ratio)) {
        char buf[64];
        std::snprintf(buf, sizeof buf, " (bwd %.2fx fwd %.2f ms)", ratio, m.forward_median * 1e3);
        step += buf;
      }
      tail = step + std::string(tail.empty() ? "" : "; ") + tail;
    }
    if (peer && !r.peer_note.empty()) tail += (tail.empty() ? "" : "; ") + r.peer_note;
    std::string peer_text;
    if (peer) {
      const double ratio = r.peer_ratio();
      peer_text = peer_cells(std::isfinite(r.peer_median) ? fixed(r.peer_median * 1e3, 3) : "-",
                             std::isfinite(ratio) ? fixed(ratio, 2) + "x" : "-");
    }
    if (r.status != "ok") {
      std::snprintf(
          line, sizeof line, "%-16s %-*s %-10s %-4s %6lld %4lld %2d %-5s %-3s %-2s %s: %s\n",
          r.variant.c_str(), params_width, params.c_str(), r.mode.c_str(), to_string(s.scalar),
          static_cast<long long>(s.tokens), static_cast<long long>(s.d), s.heads, projections(r),
          s.causal ? "yes" : "no", s.want_weights ? "yes" : "no", r.status.c_str(), tail.c_str());
    } else {
      const std::string spread = fixed(m.min * 1e3, 2) + ".." + fixed(m.max * 1e3, 2);
      std::snprintf(
          line, sizeof line,
          "%-16s %-*s %-10s %-4s %6lld %4lld %2d %-5s %-3s %-2s %9.3f %9.3f %7s %5d %19s %8s "
          "%8.1f %6s %8s %6s %6s %8s %8s%s  %s\n",
          r.variant.c_str(), params_width, params.c_str(), r.mode.c_str(), to_string(s.scalar),
          static_cast<long long>(s.tokens), static_cast<long long>(s.d), s.heads, projections(r),
          s.causal ? "yes" : "no", s.want_weights ? "yes" : "no", m.first_call * 1e3,
          m.median * 1e3, interval_text(m.interval).c_str(), m.interval.n, spread.c_str(),
          figure(m.gflops(), 1).c_str(), m.gemm_gflops(), figure(m.gemm_ratio(), 2).c_str(),
          figure(m.blas_gflops > 0 ? m.blas_gflops : core::BenchMeasure::kNone, 1).c_str(),
          figure(m.blas_ratio(), 2).c_str(), figure(100 * m.peak_share(), 1, "%").c_str(),
          mib(m.peak_first).c_str(), mib(m.peak_warm).c_str(), peer_text.c_str(), tail.c_str());
    }
    out << line;
  }
  const auto notes = bench_notes(run);
  if (!notes.empty()) out << "\nnotes:\n";
  for (const auto& n : notes) out << "  " << n << '\n';
  const auto fits = scaling_fits(run);
  if (!fits.empty()) out << "\nscaling (log-log least squares over T >= 1024, with R^2):\n";
  for (const auto& f : fits) {
    out << "  " << f.label << ": T " << f.from << ".." << f.to << " (" << f.points << " points): ";
    if (f.too_few) {
      out << "n/a: needs >= 3 points\n";
      continue;
    }
    out << "time slope " << fixed(f.time.slope, 2) << " (R^2 " << fixed(f.time.r_squared, 3)
        << "), memory slope " << fixed(f.memory.slope, 2) << " (R^2 "
        << fixed(f.memory.r_squared, 3) << ")\n";
  }
}

}  // namespace

std::string peer_skip_line(const BenchRun& run) {
  if (run.peer.name.empty() || run.peer.skipped.empty()) return "";
  return run.peer.name + " peer skipped: " + run.peer.skipped;
}

std::string shape_label(const BenchRow& r) {
  const auto& s = r.shape;
  return r.variant + (s.params.empty() ? "" : " " + params_label(s.params)) + " " +
         to_string(s.scalar) + " d=" + std::to_string(s.d) + " h=" + std::to_string(s.heads) +
         (s.grouped() ? " kv=" + std::to_string(s.kv_heads) : "") +
         (s.batch > 1 ? " B=" + std::to_string(s.batch) : "") +
         (s.padding > 0 ? " pad=" + fixed(s.padding, 2) : "") + (s.causal ? " causal" : "") +
         (s.w_o ? " W_o" : "") + (s.want_weights ? " A" : "") + (s.want_scores ? "S" : "") +
         (s.backward ? " fwd+bwd" : "");
}

std::vector<std::vector<const BenchRow*>> bench_series(const BenchRun& run, int64_t min_tokens) {
  using Key = std::tuple<std::string, std::string, std::string, ParamValues, int, int64_t, int, int,
                         int, double, bool, bool, bool, bool, bool>;
  std::map<Key, std::vector<const BenchRow*>> groups;
  for (const auto& r : run.rows) {
    const auto& s = r.shape;
    if (r.status != "ok" || s.tokens < min_tokens) continue;
    groups[{r.plugin, r.variant, r.mode, s.params, static_cast<int>(s.scalar), s.d, s.heads,
            s.kv_head_count(), s.batch, s.padding, s.causal, s.want_weights, s.want_scores, s.w_o,
            s.backward}]
        .push_back(&r);
  }
  std::vector<std::vector<const BenchRow*>> out;
  for (auto& [key, rows] : groups) {
    std::stable_sort(rows.begin(), rows.end(), [](const BenchRow* a, const BenchRow* b) {
      return a->shape.tokens < b->shape.tokens;
    });
    out.push_back(std::move(rows));
  }
  return out;
}

std::vector<ScalingFit> scaling_fits(const BenchRun& run) {
  std::vector<ScalingFit> out;
  for (const auto& rows : bench_series(run, 1024)) {
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
    if (f.from == f.to) continue;  // one T: nothing to fit, nothing to miss
    f.points = static_cast<int>(rows.size());
    const auto time_fit = core::loglog_fit(t, time), memory_fit = core::loglog_fit(t, memory);
    if (time_fit && memory_fit) {
      f.time = *time_fit;
      f.memory = *memory_fit;
    } else {
      f.too_few = true;
    }
    out.push_back(f);
  }
  return out;
}

std::vector<std::string> bench_notes(const BenchRun& run) {
  std::vector<std::string> out;
  std::set<std::pair<std::string, std::string>> no_model, above_peak;
  for (const auto& r : run.rows) {
    if (r.status != "ok") continue;
    const std::pair<std::string, std::string> key{r.plugin, r.variant};
    if (!r.measure.has_cost() && no_model.insert(key).second)
      out.push_back(r.variant + ": no cost model (org.awb.cost/1): GFLOP/s left empty");
    if (r.measure.above_peak() && above_peak.insert(key).second)
      out.push_back(r.variant + ": its cost model claims more than the machine's FMA peak (" +
                    general(r.measure.claimed_gflops()) + " > " +
                    fixed(r.measure.fma_peak_gflops, 1) +
                    " GFLOP/s at T=" + std::to_string(r.shape.tokens) +
                    "): a bug in the cost model; GFLOP/s left empty where it does");
  }
  return out;
}

nlohmann::json bench_json(const BenchRun& run) {
  nlohmann::json rows = nlohmann::json::array(), fits = nlohmann::json::array();
  const bool peer = !run.peer.name.empty();
  for (const auto& r : run.rows) rows.push_back(row_json(r, peer));
  for (const auto& f : scaling_fits(run)) {
    nlohmann::json j{{"label", f.label}, {"from", f.from}, {"to", f.to}, {"points", f.points}};
    if (f.too_few) {
      j["note"] = "n/a: needs >= 3 points";
    } else {
      j.update({{"time_slope", f.time.slope},
                {"time_r_squared", f.time.r_squared},
                {"memory_slope", f.memory.slope},
                {"memory_r_squared", f.memory.r_squared}});
    }
    fits.push_back(j);
  }
  const auto& s = run.settings;
  nlohmann::json doc{
      {"awb_version", run.awb_version},
      {"threads", s.threads},
      {"warmup", s.warmup},
      {"reps", s.reps},
      {"repetition",
       {{"rule", s.reps > 0 ? "fixed" : "adaptive"},
        {"target", s.target},
        {"min_reps", s.min_reps},
        {"max_reps", s.max_reps},
        {"max_seconds", s.max_seconds},
        {"interval", "distribution-free 95 % interval of the median (order statistics)"}}},
      {"quick", run.quick},
      {"gemm_n", run.gemm_n},
      {"fma_isa", run.fma_isa},
      {"blas", run.blas},
      {"machine", machine_json(run.machine)},
      {"flop_count", kFlopCount},
      {"memory_method", kMemoryMethod},
      {"points", rows},
      {"scaling", fits},
      {"notes", bench_notes(run)}};
  if (peer) doc["peer"] = core::peer_json(run.peer);
  return doc;
}

BenchRun bench_run_from_json(const nlohmann::json& doc) {
  try {
    BenchRun run;
    run.awb_version = doc.at("awb_version").get<std::string>();
    run.settings.threads = doc.at("threads").get<int>();
    run.settings.warmup = doc.at("warmup").get<int>();
    run.settings.reps = doc.at("reps").get<int>();
    if (const auto rep = doc.find("repetition"); rep != doc.end()) {
      run.settings.target = rep->value("target", run.settings.target);
      run.settings.min_reps = rep->value("min_reps", run.settings.min_reps);
      run.settings.max_reps = rep->value("max_reps", run.settings.max_reps);
      run.settings.max_seconds = rep->value("max_seconds", run.settings.max_seconds);
    }
    run.quick = doc.value("quick", false);
    run.gemm_n = doc.at("gemm_n").get<int64_t>();
    run.fma_isa = doc.at("fma_isa").get<std::string>();
    run.blas = doc.value("blas", "");
    if (const auto m = doc.find("machine"); m != doc.end()) {
      run.machine.cpu_model = m->value("cpu_model", "");
      run.machine.isa = m->value("isa", std::vector<std::string>{});
      run.machine.logical_cpus = m->value("logical_cpus", 0);
      run.machine.compiler = m->value("compiler", "");
      run.machine.build_type = m->value("build_type", "");
      run.machine.flags = m->value("flags", "");
      run.machine.kernels = m->value("kernels", "");
    }
    if (const auto peer = doc.find("peer"); peer != doc.end()) core::read_peer(*peer, run.peer);
    for (const auto& p : doc.at("points")) {
      BenchRow r;
      r.plugin = p.at("plugin").get<std::string>();
      r.variant = p.at("variant").get<std::string>();
      r.mode = p.value("mode", "");
      r.plugin_file = p.value("plugin_file", "");
      r.plugin_sha256 = p.value("plugin_sha256", "");
      r.shape.scalar = core::parse_scalar(p.at("scalar").get<std::string>());
      r.shape.tokens = p.at("tokens").get<int64_t>();
      r.shape.d = p.at("d").get<int64_t>();
      r.shape.heads = p.at("heads").get<int>();
      // Saved before grouped-query attention: as many key/value heads as heads.
      const int kv = p.value("kv_heads", r.shape.heads);
      r.shape.kv_heads = kv == r.shape.heads ? 0 : kv;
      r.shape.batch = p.value("batch", 1);
      r.shape.padding = p.value("padding", 0.0);
      r.shape.causal = p.at("causal").get<bool>();
      r.shape.want_weights = p.at("want_a").get<bool>();
      r.shape.want_scores = p.value("want_s", false);
      // A run saved before the column gave W_o to every variant that takes it.
      r.shape.w_o = p.value("w_o", false);
      if (!p.contains("w_o")) run.before_w_o = true;
      r.shape.backward = p.value("backward", false);  // runs saved before it: forward only
      r.capabilities = p.value("capabilities", uint64_t(0));
      if (const auto params = p.find("params"); params != p.end())
        r.shape.params = params->get<ParamValues>();
      r.status = p.at("status").get<std::string>();
      r.goal = p.value("goal", "");
      r.note = p.value("note", "");
      r.peer_op = p.value("peer_op", "");
      r.peer_note = p.value("peer_note", "");
      r.peer_median = number_or_none(p, "peer_median_ms") * 1e-3;
      r.peer_n = p.value("peer_n", 0);
      if (r.status == "ok") {
        auto& m = r.measure;
        m.samples = scaled(p.at("samples_ms").get<std::vector<double>>(), 1e-3);
        if (m.samples.empty()) throw Error("bench.baseline", "a measured point has no samples");
        m.interval = core::median_interval(m.samples);
        m.median = m.interval.median;
        m.min = *std::min_element(m.samples.begin(), m.samples.end());
        m.max = *std::max_element(m.samples.begin(), m.samples.end());
        m.first_call = p.at("first_call_ms").get<double>() * 1e-3;
        m.flops = number_or_none(p, "flops");
        m.cost_bytes = number_or_none(p, "cost_bytes");
        m.gemm_median = p.at("gemm_median_ms").get<double>() * 1e-3;
        const double n = static_cast<double>(run.gemm_n);
        m.gemm_flops = 2 * n * n * n;
        m.fma_peak_gflops = p.at("fma_peak_gflops").get<double>();
        const double blas = number_or_none(p, "blas_gflops");
        m.blas_gflops = std::isnan(blas) ? 0 : blas;
        m.io_bytes = p.at("io_bytes").get<double>();
        m.peak_first = p.at("peak_first_bytes").get<int64_t>();
        m.peak_warm = p.at("peak_warm_bytes").get<int64_t>();
        if (p.contains("forward_samples_ms")) {  // a training step's forward alone
          m.forward_samples = scaled(p.at("forward_samples_ms").get<std::vector<double>>(), 1e-3);
          if (!m.forward_samples.empty()) m.forward_median = core::median(m.forward_samples);
        }
      }
      run.rows.push_back(std::move(r));
    }
    return run;
  } catch (const nlohmann::json::exception& e) {
    throw Error("bench.baseline", std::string("not a saved awb bench run: ") + e.what());
  }
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
