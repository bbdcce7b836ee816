// bench_baseline.cpp: baselines are the run's own JSON document; comparing is matching keys and
// one rank test per matched point.
#include "cli/bench_baseline.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <sstream>
#include <tuple>

#include "core/base/atomic_file.hpp"
#include "core/base/regular_file.hpp"
#include "core/bench/machine.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {
namespace {

// A saved run holds every sample of every point: a few MiB for the largest sweeps.
constexpr size_t kMaxBaselineBytes = size_t(64) << 20;

using PointKey = std::tuple<std::string, std::string, std::string, ParamValues, int, int64_t,
                            int64_t, int, int, int, double, bool, bool, bool, bool, bool>;

// A parameter value as a key: a number by its value (0.50 and 0.5 are one point, also in a run
// saved before values were written canonically), anything else as written.
ParamValues key_params(const ParamValues& values) {
  ParamValues out;
  for (const auto& [name, text] : values) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    if (!text.empty() && end && *end == '\0' && std::isfinite(v)) {
      char buf[32];
      std::snprintf(buf, sizeof buf, "%.17g", v);
      out[name] = buf;
    } else {
      out[name] = text;
    }
  }
  return out;
}

PointKey key_of(const BenchRow& r) {
  const auto& s = r.shape;
  return {r.plugin,  r.variant, r.mode,         key_params(s.params), static_cast<int>(s.scalar),
          s.tokens,  s.d,       s.heads,        s.kv_head_count(),    s.batch,
          s.padding, s.causal,  s.want_weights, s.want_scores,        s.w_o,
          s.backward};
}

std::string point_label(const BenchRow& r) {
  const auto& s = r.shape;
  std::string params;
  for (const auto& [name, value] : s.params) params += " " + name + "=" + value;
  return r.variant + params + " " + r.mode + " " + to_string(s.scalar) +
         " T=" + std::to_string(s.tokens) + " d=" + std::to_string(s.d) +
         " h=" + std::to_string(s.heads) +
         (s.grouped() ? " kv=" + std::to_string(s.kv_heads) : "") +
         (s.batch > 1 ? " B=" + std::to_string(s.batch) : "") +
         (s.padding > 0 ? " pad=" + std::to_string(s.padding).substr(0, 4) : "") +
         (s.causal ? " causal" : "") + (s.w_o ? " W_o" : "") + (s.want_weights ? " A" : "") +
         (s.want_scores ? "S" : "") + (s.backward ? " fwd+bwd" : "");
}

}  // namespace

std::filesystem::path baseline_path(const std::string& name) {
  if (name.empty()) throw Error("bench.usage", "a baseline needs a name");
  const bool is_path = name.find('/') != std::string::npos ||
                       (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0);
  if (is_path) return name;
  if (name == "." || name == "..")
    throw Error("bench.usage", "'" + name + "' is not a baseline name");
  std::filesystem::path dir;
  if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg == '/') {
    dir = xdg;
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    dir = std::filesystem::path(home) / ".local" / "share";
  } else {
    throw Error("bench.usage", "neither XDG_DATA_HOME nor HOME is set: give the baseline a path");
  }
  return dir / "awb" / "bench" / (name + ".json");
}

void save_baseline(const std::filesystem::path& path, const BenchRun& run) {
  if (path.has_parent_path()) std::filesystem::create_directories(path.parent_path());
  core::write_file_atomic(path, bench_json(run).dump(2) + "\n");
}

BenchRun load_baseline(const std::filesystem::path& path) {
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    throw Error("bench.baseline", path.string() + ": no saved run there");
  std::string text;
  try {
    // A regular file only (a FIFO named by --from or --compare would wait for a writer forever).
    text = core::read_regular_file(path, kMaxBaselineBytes, "bench");
  } catch (const Error& e) {
    throw Error("bench.baseline", e.location(), e.message());
  }
  try {
    return bench_run_from_json(nlohmann::json::parse(text));
  } catch (const nlohmann::json::exception& e) {
    throw Error("bench.baseline", path.string() + ": " + e.what());
  } catch (const Error& e) {
    throw Error("bench.baseline", path.string() + ": " + e.what());
  }
}

int write_comparison(std::ostream& out, const BenchRun& baseline, const BenchRun& current,
                     const std::string& baseline_name, const core::ChangeRule& rule) {
  char line[512];
  out << "\ncompared with baseline '" << baseline_name << "' (awb " << baseline.awb_version
      << "): Mann-Whitney U test, two-sided; a change counts when p < " << rule.alpha
      << " and it is at least " << 100 * rule.min_effect << " % of the baseline's median\n";
  for (const auto& why : core::machine_differences(baseline.machine, current.machine))
    out << "warning: the machine or build differs from the baseline's: " << why << '\n';
  if (baseline.before_w_o)
    out << "warning: the baseline was saved before bench recorded W_o: its variants with an "
           "output projection (multi-head) ran with W_o, this run's do only with --w-o on\n";
  if (baseline.settings.threads != current.settings.threads)
    out << "warning: threads differ: " << baseline.settings.threads << " -> "
        << current.settings.threads << '\n';
  std::snprintf(line, sizeof line, "%-48s %12s %12s %5s %5s  %s\n", "point", "base ms", "now ms",
                "n", "n", "verdict");
  out << line;
  std::map<PointKey, const BenchRow*> before;
  for (const auto& r : baseline.rows)
    if (r.status == "ok") before[key_of(r)] = &r;
  int slower = 0;
  std::vector<std::string> only_now;
  for (const auto& r : current.rows) {
    if (r.status != "ok") continue;
    const auto it = before.find(key_of(r));
    if (it == before.end()) {
      only_now.push_back(point_label(r));
      continue;
    }
    const auto& b = it->second->measure;
    const core::ChangeVerdict v = core::compare_times(b.samples, r.measure.samples, rule);
    slower += v.kind == core::ChangeVerdict::Kind::kSlower;
    std::snprintf(line, sizeof line, "%-48s %12.4f %12.4f %5zu %5zu  %s\n", point_label(r).c_str(),
                  v.baseline_median * 1e3, v.current_median * 1e3, b.samples.size(),
                  r.measure.samples.size(), v.text().c_str());
    out << line;
    before.erase(it);
  }
  for (const auto& label : only_now) out << "not in the baseline: " << label << '\n';
  for (const auto& [key, r] : before) out << "not in this run: " << point_label(*r) << '\n';
  return slower;
}

}  // namespace awb::cli
