// cmd_bench.cpp: `awb bench`: time, throughput and memory of variants over a sweep of shapes.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <optional>
#include <sstream>

#include "cli/bench_baseline.hpp"
#include "cli/bench_report.hpp"
#include "cli/commands.hpp"
#include "cli/figure_options.hpp"
#include "cli/isolation_options.hpp"
#include "cli/load_notes.hpp"
#include "cli/param_options.hpp"
#include "cli/plugin_digests.hpp"
#include "cli/validators.hpp"
#include "core/base/version.hpp"
#include "core/bench/bench_calibration.hpp"
#include "core/bench/bench_plan.hpp"
#include "core/bench/machine.hpp"
#include "core/bench/runner_overhead.hpp"
#include "core/bench/torch_peer.hpp"
#include "core/exercises/problem_file.hpp"
#include "graders/model/error.hpp"

namespace awb::cli {
namespace {

struct BenchOptions {
  std::vector<std::string> variants;
  std::vector<std::string> plugin_dirs;
  IsolationFlags isolation;
  int runner_runs = 0;
  std::string preset;
  bool quick = false;
  std::vector<int64_t> tokens, dims;
  std::vector<int> heads, kv_heads, batch;
  std::vector<double> padding;
  std::vector<std::string> causal, want_a, w_o, scalars;
  std::vector<std::string> params;  // name=v1,v2,... each
  bool with_scores = false;
  bool backward = false;  // every point a training step: forward then backward
  int threads = 0;
  int warmup = -1, reps = -1;
  double target_pct = -1, max_seconds = -1;
  double budget_gib = core::kDefaultBenchBudgetGiB;
  std::string format = "table";
  std::string save, compare, from;
  double alpha = 0.05, min_change_pct = 2;
  bool fail_on_slower = false;
  std::string figure;
  std::string peer;  // "torch": the same points timed in PyTorch
};

std::vector<bool> on_off(const std::vector<std::string>& v) {
  std::vector<bool> out;
  for (const auto& s : v) out.push_back(s == "on");
  return out;
}

// The points to measure, each with the variants it runs on.
struct Job {
  core::VariantRef ref;
  core::BenchShape shape;
  std::string goal;
};

// The variants chosen: --variant's specs (a variant's own values after an '@'), or every bundled
// variant.
struct Chosen {
  core::VariantRef ref;
  ParamValues values;  // its own, from --variant ID@name=value
};

// A point's parameters as the variant runs them: every declared one, defaults filled in and
// written canonically (0.50 is 0.5), so that rows, saved runs and --compare's keys agree however
// the values were typed. Throws param.unknown / param.invalid before anything is measured.
core::BenchShape with_params(core::BenchShape shape, const core::VariantRef& ref,
                             const ParamValues& own) {
  for (const auto& [name, value] : own) shape.params[name] = value;
  shape.params =
      canonical_params(ref.variant->params, shape.params, "variant '" + ref.variant->id + "'");
  return shape;
}

std::vector<Job> plan(const BenchOptions& o, const core::Catalog& cat) {
  std::vector<Chosen> chosen;
  for (const auto& text : o.variants) {
    const VariantSpec spec = parse_variant_spec(text);
    Chosen c{core::find_variant(cat, spec.id), spec.values};
    check_spec_params(spec, c.ref.variant->params);
    chosen.push_back(c);
  }
  std::vector<Job> jobs;
  if (o.preset == "goals") {
    if (!o.params.empty())
      throw Error("bench.usage", "--param: the goals preset fixes every point's parameters");
    if (o.backward)
      throw Error("bench.usage",
                  "--backward: the goals preset says which of its points are training steps");
    for (const auto& p : core::goal_points()) {
      if (chosen.empty()) {
        const core::VariantRef ref = core::find_variant(cat, p.variant);
        jobs.push_back({ref, with_params(p.shape, ref, {}), p.goal});
      } else {
        for (const auto& c : chosen)
          jobs.push_back({c.ref, with_params(p.shape, c.ref, c.values), p.goal});
      }
    }
    return jobs;
  }
  if (chosen.empty())
    for (const auto& p : cat.plugins)
      if (p.bundled)
        for (const auto& v : p.variants) chosen.push_back({{&p, &v}, {}});
  std::vector<ParamTaker> takers;
  for (const auto& c : chosen) takers.push_back({c.ref.variant->id, &c.ref.variant->params});
  // Each --param must be declared by some variant here; a variant that does not declare it runs
  // without it (multi-head beside sliding-window --param window=4,16).
  check_params(o.params, takers, "variant benched here", /*sweep=*/true);
  // --quick's tiny sweep only when no list is given; any list means the defaults for the rest,
  // as the help says.
  const bool any_list = !o.tokens.empty() || !o.dims.empty() || !o.heads.empty() ||
                        !o.kv_heads.empty() || !o.batch.empty() || !o.padding.empty() ||
                        !o.causal.empty() || !o.want_a.empty() || !o.scalars.empty();
  core::BenchGrid g = o.quick && !any_list ? core::quick_grid() : core::BenchGrid{};
  if (!o.tokens.empty()) g.tokens = o.tokens;
  if (!o.dims.empty()) g.dims = o.dims;
  if (!o.heads.empty()) g.heads = o.heads;
  if (!o.kv_heads.empty()) {
    for (int kv : o.kv_heads)
      for (int h : g.heads)
        if (kv > h || h % kv != 0)
          throw Error("bench.usage", "--kv-heads " + std::to_string(kv) +
                                         " does not divide --heads " + std::to_string(h) +
                                         " (each key/value head is shared by heads / kv_heads "
                                         "query heads)");
    g.kv_heads = o.kv_heads;
  }
  if (!o.batch.empty()) g.batch = o.batch;
  if (!o.padding.empty()) g.padding = o.padding;
  if (!o.causal.empty()) g.causal = on_off(o.causal);
  if (!o.want_a.empty()) g.want_weights = on_off(o.want_a);
  if (!o.w_o.empty()) g.w_o = on_off(o.w_o);
  if (!o.scalars.empty()) {
    g.scalars.clear();
    for (const auto& s : o.scalars) g.scalars.push_back(core::parse_scalar(s));
  }
  g.with_scores = o.with_scores;
  for (const auto& c : chosen) {
    std::vector<std::string> sweeps;  // the --param lists this variant declares
    for (const auto& a : o.params) {
      const std::string name = a.substr(0, a.find('='));
      const auto& decls = c.ref.variant->params;
      if (std::any_of(decls.begin(), decls.end(),
                      [&](const ParamDecl& d) { return d.name == name; }))
        sweeps.push_back(a);
    }
    core::BenchGrid mine = g;
    mine.params = core::param_grid(sweeps);
    std::vector<core::BenchShape> planned;
    for (auto shape : core::expand(mine)) {
      shape.backward = o.backward;
      // Before anything is measured: a value out of the variant's range stops the run.
      const core::BenchShape s = with_params(shape, c.ref, c.values);
      // Its own value over a swept one gives the same point more than once: measured once.
      if (std::find(planned.begin(), planned.end(), s) != planned.end()) continue;
      planned.push_back(s);
      jobs.push_back({c.ref, s, ""});
    }
  }
  return jobs;
}

// The cost of isolation: the bundled parameter-free plugin described and run through awb-runner
// as if it were a submission, against the same plugin in this process, on the journey example.
int run_runner_overhead(const BenchOptions& o) {
  const core::SessionOptions so = o.isolation.session();
  const auto file = core::bundled_plugin_dir() / "awb_parameter_free.so";
  core::LoadResult isolated = core::describe_isolated(file, so.runner);
  if (!isolated.plugin) throw Error("plugin.load_failed", file.string(), isolated.failure->message);
  core::LoadResult local = core::load_plugin(file);
  if (!local.plugin) throw Error("plugin.load_failed", file.string(), local.failure->message);
  const core::VariantRef runner_ref{isolated.plugin.get(), &isolated.plugin->variants.at(0)};
  const core::VariantRef local_ref{local.plugin.get(), &local.plugin->variants.at(0)};
  const ProblemSpec journey = core::without_weights(core::example_problem("journey"));
  const auto r =
      core::measure_runner_overhead(runner_ref, &local_ref, journey, Scalar::kF64, so.runner,
                                    o.runner_runs, [](const char* phase, int done, int total) {
                                      if (done % 50 == 0 || done == total)
                                        std::fprintf(stderr, "%s: %d/%d\n", phase, done, total);
                                    });
  auto row = [](const char* what, const core::Spread& s, double unit, const char* u) {
    std::printf("%-40s %10.3f %10.3f %10.3f %10.3f  %s\n", what, s.median * unit, s.p95 * unit,
                s.min * unit, s.max * unit, u);
  };
  std::printf("runner overhead, plugin %s, journey example (T = 6, f64), %d runs, isolation %s\n",
              file.filename().c_str(), r.runs, r.level.c_str());
  std::printf("%-40s %10s %10s %10s %10s\n", "", "median", "p95", "min", "max");
  row("cold: spawn + lockdown + load + 1st call", r.cold_seconds, 1e3, "ms");
  row("warm round trip", r.warm_seconds, 1e6, "us");
  row("the same call in-process", r.in_process_seconds, 1e6, "us");
  return kExitOk;
}

// --peer torch: every measured point that torch computes as one op, timed again there by one run
// of the driver after awb's own points; the others say why they have no peer.
void add_torch_peer(const BenchOptions& o, const std::vector<Job>& jobs, BenchRun& run) {
  std::vector<core::PeerPoint> points;
  std::vector<size_t> rows;  // each point's row
  const double budget = o.budget_gib * 1024.0 * 1024.0 * 1024.0;
  for (size_t i = 0; i < jobs.size(); ++i) {
    BenchRow& row = run.rows[i];
    if (row.status != "ok") continue;  // nothing of awb's to compare with
    const core::PeerChoice c =
        core::torch_peer_choice(row.variant, jobs[i].ref.plugin->bundled, row.shape, budget);
    if (c.op.empty()) {
      row.peer_note = c.reason;
      continue;
    }
    points.push_back({c.op, row.shape});
    rows.push_back(i);
  }
  std::fprintf(stderr, "torch peer: %zu point(s) in %s\n", points.size(),
               core::peer_interpreter().c_str());
  core::PeerRun peer = core::run_torch_peer(points, run.settings);
  run.peer = peer.info;
  run.peer.threads_rule = o.threads > 0
                              ? "--threads " + std::to_string(o.threads)
                              : "every core (--threads 0): " + std::to_string(run.settings.threads);
  if (!run.peer.skipped.empty()) {
    for (size_t i : rows) run.rows[i].peer_note = "torch peer skipped";
    return;
  }
  for (size_t k = 0; k < rows.size(); ++k) {
    BenchRow& row = run.rows[rows[k]];
    const core::PeerTiming& t = peer.points[k];
    row.peer_op = t.op;
    row.peer_median = t.median;
    row.peer_n = t.n;
    if (!t.error.empty()) row.peer_note = "torch: " + t.error;
  }
}

// Measures the planned points (or reads them from --from), prints them, saves and compares.
BenchRun measure_run(const BenchOptions& o, int& code) {
  std::vector<std::filesystem::path> dirs(o.plugin_dirs.begin(), o.plugin_dirs.end());
  const core::Catalog cat =
      core::load_catalog(core::plugin_search_path(dirs), o.isolation.load_policy());
  print_load_notes(cat);
  std::vector<Job> jobs = plan(o, cat);

  const double target = o.target_pct > 0 ? o.target_pct / 100 : -1;
  const core::BenchSettings settings =
      core::bench_settings(o.quick, o.threads, o.warmup, o.reps, target, o.max_seconds);
  const double budget = o.budget_gib * 1024.0 * 1024.0 * 1024.0;
  core::EigenYardstick yardstick;

  BenchRun run;
  run.awb_version = AWB_VERSION;
  run.settings = settings;
  run.quick = o.quick;
  run.gemm_n = yardstick.gemm_n();
  run.fma_isa = yardstick.fma_isa();
  run.blas = yardstick.best_gemm();
  run.machine = core::this_machine();
  run.machine.kernels = yardstick.gemm_world();
  PluginDigests digests;
  size_t index = 0;
  for (const auto& j : jobs) {
    ++index;
    BenchRow row;
    row.plugin = j.ref.plugin->id;
    row.variant = j.ref.variant->id;
    row.mode = core::bench_run_mode(j.ref);
    row.plugin_file = j.ref.plugin->path.filename().string();
    row.plugin_sha256 = digests.of(j.ref.plugin->path);
    row.shape = j.shape;
    row.capabilities = j.ref.variant->capabilities;
    row.goal = j.goal;
    std::string params;
    for (const auto& [name, value] : j.shape.params) params += " " + name + "=" + value;
    std::fprintf(stderr, "[%zu/%zu] %s (%s) %s T=%lld d=%lld h=%d%s%s%s%s ... ", index, jobs.size(),
                 row.variant.c_str(), row.mode.c_str(), to_string(j.shape.scalar),
                 static_cast<long long>(j.shape.tokens), static_cast<long long>(j.shape.d),
                 j.shape.heads, j.shape.causal ? " causal" : "", j.shape.want_weights ? " A" : "",
                 params.c_str(), j.shape.backward ? " fwd+bwd" : "");
    std::fflush(stderr);
    core::BenchPointResult point =
        core::bench_point(j.ref, j.shape, settings, yardstick, budget, o.isolation.session());
    row.status = std::move(point.status);
    row.note = std::move(point.note);
    row.measure = point.measure;
    if (row.status == "failed") code = kExitFailed;
    if (row.status == "ok") {
      const auto& ci = row.measure.interval;
      std::fprintf(stderr, "%.4f ms, 95 %% interval %.4f..%.4f (n=%d)\n", ci.median * 1e3,
                   ci.low * 1e3, ci.high * 1e3, ci.n);
    } else {
      std::fprintf(stderr, "%s: %s\n", row.status.c_str(), row.note.c_str());
    }
    run.rows.push_back(std::move(row));
  }
  if (o.peer == "torch") add_torch_peer(o, jobs, run);
  return run;
}

int run_bench(const BenchOptions& o) {
  // The lists' syntax first (param.syntax, a usage error), before loading any plugin.
  core::param_grid(o.params);
  if (o.runner_runs > 0) return run_runner_overhead(o);
  check_figure(o.figure);
  int code = kExitOk;
  // Read the baseline first: a bad name should fail before minutes of measuring.
  std::optional<BenchRun> baseline;
  if (!o.compare.empty()) baseline = load_baseline(baseline_path(o.compare));
  const BenchRun run = o.from.empty() ? measure_run(o, code) : load_baseline(baseline_path(o.from));
  write_bench(std::cout, run, o.format);
  // The table says it in its header; a document on stdout leaves the line to stderr.
  if (const std::string skip = peer_skip_line(run); !skip.empty() && o.format != "table")
    std::fprintf(stderr, "%s\n", skip.c_str());
  if (o.format == "csv")  // the table and JSON carry them; CSV has no place for them
    for (const auto& note : bench_notes(run)) std::fprintf(stderr, "note: %s\n", note.c_str());
  if (!o.save.empty()) {
    const auto path = baseline_path(o.save);
    save_baseline(path, run);
    std::fprintf(stderr, "saved as %s\n", path.c_str());
  }
  write_bench_figure(o.figure, run);  // after --save: a failed drawing loses no measurement
  if (baseline) {
    std::ostringstream text;
    const int slower =
        write_comparison(text, *baseline, run, o.compare, {o.alpha, o.min_change_pct / 100});
    (o.format == "table" ? std::cout : std::cerr) << text.str();
    if (o.fail_on_slower && slower > 0) {
      std::fprintf(stderr, "bench: %d point(s) slower than baseline '%s'\n", slower,
                   o.compare.c_str());
      if (code == kExitOk) code = kExitFailed;
    }
  }
  return code;
}

}  // namespace

// Long for a reason: the command's options one after another, each with its help and check, so
// that `awb bench --help` and this list read the same.
void add_bench_command(CLI::App& app, int& exit_code) {
  auto opts = std::make_shared<BenchOptions>();
  CLI::App* cmd = app.add_subcommand(
      "bench",
      "Time variants over a sweep of shapes and variant parameters: median and spread of warm\n"
      "calls, a fresh instance's first call, GFLOP/s, peak memory, and the ratio to a square\n"
      "Eigen GEMM (n = 1024, same scalar type and threads; xGEMM), to the machine's best\n"
      "packaged GEMM (OpenBLAS, loaded when installed: Debian's libopenblas-dev; xBLAS) and\n"
      "to the FMA peak, all measured in the same run. FLOPs come from the variant's own cost\n"
      "model (org.awb.cost/1); a variant without one gets time and memory only: GFLOP/s,\n"
      "xGEMM, xBLAS and %peak are left\n"
      "empty (null in JSON) and a note says so. A cost model that claims more than the\n"
      "measured FMA peak is a bug in it: that figure is left empty too, with a note.\n"
      "The header names the CPU, its ISA and the kernels' level ('kernels: avx512'); in a\n"
      "portable build AWB_KERNEL_ISA=baseline|avx2|avx512 forces a level (an error when the\n"
      "CPU lacks it). Progress goes to stderr, the results to stdout.");
  cmd->add_option("--variant", opts->variants,
                  "Variant id, or plugin-id:variant-id, optionally with its own parameters after "
                  "an '@' (sliding-window@window=4); repeatable, so one variant may be benched at "
                  "several values beside others (default: every bundled variant; with --preset "
                  "goals, the variant each goal is about)");
  add_plugin_dir_option(cmd, opts->plugin_dirs);
  add_isolation_options(cmd, opts->isolation, false);
  cmd->add_option("--runner-overhead", opts->runner_runs,
                  "Instead of a sweep: the cost of isolation over N runs (cold start of a runner, "
                  "warm round trip, the same call in-process), median and p95")
      ->check(InRange(1, 100000, "runs"));
  cmd->add_option("--preset", opts->preset,
                  "goals: exactly the points of the performance goals (ignores the sweep lists)")
      ->check(CLI::IsMember({"goals"}));
  cmd->add_flag("--quick", opts->quick,
                "Fewer calls (1 warm-up; timed calls until +-5 % or 0.25 s a point). Without any "
                "sweep list (-T, -d, --heads, --causal, --want-a, --scalar) it sweeps tiny "
                "shapes: T = 33,100, d = 16, causal off,on, A off,on; with one, the lists not "
                "given keep their defaults");
  cmd->add_option("--tokens,-T", opts->tokens,
                  "Sequence lengths, 1 to 1048576 (default 128 ... 8192)")
      ->delimiter(',')
      ->check(InRange(1, 1 << 20));
  cmd->add_option("--dims,-d", opts->dims, "Per-head widths d_k = d_v, 1 to 4096 (default 64)")
      ->delimiter(',')
      ->check(InRange(1, 4096));
  cmd->add_option("--heads", opts->heads, "Head counts, 1 to 256 (default 1; d_model = heads * d)")
      ->delimiter(',')
      ->check(InRange(1, 256));
  cmd->add_option("--kv-heads", opts->kv_heads,
                  "Key/value head counts (grouped-query attention: each shared by heads / kv_heads "
                  "consecutive query heads; 1 is multi-query); each must divide every --heads "
                  "value (default: as many as heads). A variant without grouped-kv skips such a "
                  "point")
      ->delimiter(',')
      ->check(InRange(1, 256));
  cmd->add_option("--batch", opts->batch,
                  "Sequences per call, 1 to 1024 (default 1): X holds B sequences of T tokens "
                  "side by side, the weights shared. A variant without the batch capability (an "
                  "older plugin, one written in C) is called once per sequence by the host")
      ->delimiter(',')
      ->check(InRange(1, 1024));
  cmd->add_option("--padding", opts->padding,
                  "Padding shares, 0 to 0.99 (default 0): sequence b of B keeps T * (1 - padding "
                  "* b / (B - 1)) tokens (the first whole, the last with that share padded; a lone "
                  "sequence loses that share), the rest masked; 0 sends no lengths")
      ->delimiter(',')
      ->check(CLI::Range(0.0, 0.99));
  cmd->add_option("--causal", opts->causal, "off, on or off,on (default off)")
      ->delimiter(',')
      ->check(CLI::IsMember({"off", "on"}));
  cmd->add_option("--want-a", opts->want_a,
                  "Request the weights A (the materialised path): off, on or off,on (default off)")
      ->delimiter(',')
      ->check(CLI::IsMember({"off", "on"}));
  cmd->add_option("--w-o", opts->w_o,
                  "Give the output projection W_o: off, on or off,on (default off, for every "
                  "variant: Z is heads*d wide; on: d_model wide, and a variant without W_o, "
                  "such as qkv or parameter-free, skips the point). The proj column says what "
                  "each point read: - (no weights), QKV, QKVO")
      ->delimiter(',')
      ->check(CLI::IsMember({"off", "on"}));
  add_param_option(cmd, &opts->params, /*sweep=*/true)
      ->description(
          "A variant parameter to set or sweep: name=value, or name=v1,v2,... (repeatable; "
          "every combination of the lists is a point, crossed with -T, -d, --heads, --causal, "
          "--want-a and --scalar, for the variants that declare the name (at least one must, "
          "see `awb plugins`; the others run without it). Each row shows every parameter of "
          "its variant, defaults filled in, and --save/--compare match points by their values "
          "as numbers (0.5 and 0.50 are one point)");
  cmd->add_flag("--with-scores", opts->with_scores, "Request the scores S too wherever A is");
  cmd->add_flag("--backward", opts->backward,
                "Time each point as a training step: the forward, then the backward pass with "
                "a random dZ (every gradient written). GFLOP/s count the step as 3.5 forwards "
                "(the backward as 2.5, as FlashAttention-2 counts it). The forward alone is timed "
                "between the steps too: the note gives the backward's time per forward's, both "
                "of this run (\"bwd 2.90x fwd 11.20 ms\"). A variant without a backward pass "
                "skips the point");
  cmd->add_option("--scalar", opts->scalars, "f32, f64 or f32,f64 (default f32)")
      ->delimiter(',')
      ->check(CLI::IsMember({"f32", "f64"}));
  cmd->add_option("--threads", opts->threads,
                  "Threads for the kernels and the GEMM, at most 256 (default, or 0: every core)")
      ->check(InRange(0, 256));
  cmd->add_option("--warmup", opts->warmup,
                  "Untimed calls before timing, at most 10000 (default 2)")
      ->check(InRange(0, 10000));
  cmd->add_option("--reps", opts->reps,
                  "A fixed count of timed calls per point, 1 to 100000 (default: adaptive, see "
                  "--target)")
      ->check(InRange(1, 100000));
  cmd->add_option("--target", opts->target_pct,
                  "Repeat timed calls until the 95 % confidence interval of the median (order "
                  "statistics) is within +-PCT % of it, at least 6 and at most 1000 calls "
                  "(default 2; 5 with --quick)")
      ->check(InRange(0.01, 100, "%"));
  cmd->add_option("--max-time", opts->max_seconds,
                  "Seconds of timed calls per point after which the repetition stops short of "
                  "--target, once it has its 6 calls (default 1; 0.25 with --quick)")
      ->check(InRange(0.001, 3600, "seconds"));
  cmd->add_option("--save", opts->save,
                  "Save the run (every sample, the machine, the build) as baseline NAME: "
                  "$XDG_DATA_HOME/awb/bench/NAME.json (~/.local/share when unset), or the path "
                  "NAME when it has a '/' or ends in .json");
  auto* compare_opt =
      cmd->add_option("--compare", opts->compare,
                      "Compare each point with saved baseline NAME: both medians, the change, a "
                      "Mann-Whitney U test's p and the verdict (slower / faster / no significant "
                      "change). After the table on stdout; on stderr with --format csv or json");
  auto* from_opt =
      cmd->add_option("--from", opts->from,
                      "Report saved run NAME instead of measuring (the sweep options are "
                      "ignored); with --compare, compares two saved runs");
  cmd->add_option("--alpha", opts->alpha, "Significance level of --compare's test (default 0.05)")
      ->check(InRange(1e-9, 0.5));
  cmd->add_option("--min-change", opts->min_change_pct,
                  "Smallest change of the median, in %, that --compare flags (default 2)")
      ->check(InRange(0, 1000, "%"));
  cmd->add_flag("--fail-on-slower", opts->fail_on_slower,
                "With --compare: exit 1 when any point is significantly slower than the "
                "baseline (a regression gate for CI); without it the verdicts do not change the "
                "exit code")
      ->needs(compare_opt);
  cmd->add_option("--memory-budget", opts->budget_gib,
                  "GiB the host may allocate for one point: A and S, and all its inputs and "
                  "outputs; larger points are skipped with a note")
      ->check(InRange(1e-6, 1024, "GiB"))
      ->capture_default_str();
  cmd->add_option("--format", opts->format, "table, csv or json")
      ->check(CLI::IsMember({"table", "csv", "json"}))
      ->capture_default_str();
  cmd->add_option(
         "--peer", opts->peer,
         "torch: time the same points in PyTorch in the same run, after awb's own (one Python "
         "driver for the run, in the interpreter awb was configured with; AWB_PEER_PYTHON "
         "names another, for tests and packagers). Same shape, scalar type, mask and threads "
         "(torch.set_num_threads); the parameter-free variant's peer is softmax(X Xt / "
         "sqrt(d)) X, qkv's, multi-head's and causal's torch's multi-head attention with bias "
         "off and W_o exactly when the point gives it; a batch runs as one call, padded keys "
         "masked (key_padding_mask); --backward points time forward and "
         "backward of a random dZ. The table gains `torch ms` and `x torch` (torch's median / "
         "awb's: above 1 awb is faster) and a header line with torch's version and settings "
         "and what it ran; JSON and CSV carry peer_median_ms, peer_ratio, peer_op and the "
         "settings. Other variants get the reason instead (no torch peer for variant "
         "linear). Without torch (Debian: python3-torch, not installed by awb's set-up) the "
         "bench runs and one line says why the peer was skipped")
      ->check(CLI::IsMember({"torch"}))
      ->excludes(from_opt);
  add_figure_option(cmd, opts->figure);
  cmd->callback([opts, &exit_code] { exit_code = run_bench(*opts); });
}

}  // namespace awb::cli
