// bench.hpp: `awb bench` measurements: one point (shape × variant) timed through one forward call.
#ifndef AWB_CORE_BENCH_BENCH_HPP_
#define AWB_CORE_BENCH_BENCH_HPP_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/bench/statistics.hpp"
#include "core/plugins/forward.hpp"
#include "core/plugins/plugin_loader.hpp"
#include "core/plugins/variant_session.hpp"
#include "graders/model/params.hpp"
#include "graders/model/problem.hpp"

namespace awb::core {

// One point of a sweep. For a variant with Q/K/V projections d_model = heads · d (every head
// d_k = d_v = d) and W_o, when the variant applies one, maps h·d back to d_model; without
// projections Q = K = V = X is T × d and heads is 1.
struct BenchShape {
  int64_t tokens = 0;  // T
  int64_t d = 0;       // per-head key/value width
  int heads = 1;
  bool causal = false;
  Scalar scalar = Scalar::kF32;
  bool want_weights = false;  // A requested: the materialised path
  bool want_scores = false;   // S requested as well
  // W_o given: the output projection, which only a projected variant with one takes (d_out is
  // then d_model, else heads·d). Off by default for every variant, so that the default points
  // of multi-head and qkv do the same work.
  bool w_o = false;
  ParamValues params;  // the variant's parameters ("window" -> "16"); in a planned
                       // point every one it declares, written canonically
  // A training step: each timed call is the forward and then the backward (dZ given, every
  // gradient written). Its FLOPs are the forward's times 3.5: the backward counted as 2.5
  // forwards, as FlashAttention-2 counts it (Dao 2023).
  bool backward = false;
  // Key/value heads (grouped-query attention: W_k and W_v of kv_heads · d columns, each head
  // shared by heads / kv_heads query heads); 0 means as many as heads.
  int kv_heads = 0;
  // B sequences of T tokens in one call (SDK 1.3), and the padding: sequence b keeps
  // T · (1 − padding · b / (B − 1)) tokens (at least one), the first whole and the last with the
  // `padding` share of its tokens padded; 0 gives every sequence all T (no lengths sent).
  int batch = 1;
  double padding = 0;
  bool operator==(const BenchShape&) const = default;
  int kv_head_count() const { return kv_heads > 0 ? kv_heads : heads; }
  bool grouped() const { return kv_head_count() < heads; }
  // Sequence b's real tokens.
  int64_t length(int b) const;
};

// How a variant takes the point's parameters: its declarations, strictly (a value it does not
// declare is param.unknown), named "variant 'ID'" in messages.
ParamBinding bench_binding(const VariantRef& ref);
// The point's parameter values resolved against `binding` (resolve_params): the check every
// front end makes before measuring. Throws awb::Error("param.unknown" | "param.invalid").
std::vector<double> bench_param_values(const BenchShape& shape, const ParamBinding& binding);

// Whether a variant projects its input (Q/K/V weights), and the width of the point's Z on it.
bool bench_projected(uint64_t capabilities);
int64_t bench_d_out(const BenchShape& shape, uint64_t capabilities);

// Bytes of the T × T matrices the host allocates for a point (A and/or S, every head).
double materialised_bytes(const BenchShape& shape);
// Bytes of the inputs (X, weights) and outputs (Z, A, S) a point needs on a variant.
double io_bytes(const BenchShape& shape, uint64_t capabilities);

// Why a variant cannot run a point (capabilities, scalar type), or nothing.
std::optional<std::string> bench_fit_reason(const BenchShape& shape, uint64_t capabilities);
// Why a point is skipped rather than measured: the variant cannot run it, or its A and S would
// need more than `budget_bytes` of host memory. Nothing when it is measured.
std::optional<std::string> bench_skip_reason(const BenchShape& shape, uint64_t capabilities,
                                             double budget_bytes);
// FLOPs of a backward point per FLOP of its forward (BenchShape::backward).
inline constexpr double kForwardBackwardFlops = 3.5;

// "12.0 MiB", "2.00 GiB".
std::string format_bytes(double bytes);

// The yardsticks measured in the same run as the kernels. awb_core holds no Eigen: the caller
// supplies them (awb_bench_calibration is the Eigen implementation).
class Yardstick {
 public:
  virtual ~Yardstick() = default;
  // Wall seconds of one square GEMM C = A·B, n = gemm_n(), on `threads` threads.
  virtual double gemm_seconds(Scalar scalar, int threads) = 0;
  virtual int64_t gemm_n() const = 0;
  // GFLOP/s of a loop of independent fused multiply-adds on `threads` threads, and the
  // instruction set it used.
  virtual double fma_peak_gflops(Scalar scalar, int threads) = 0;
  virtual std::string fma_isa() const = 0;
  // GFLOP/s of the machine's best packaged GEMM (OpenBLAS) at n = gemm_n() on `threads` threads,
  // measured once per (scalar, threads); 0 when there is none.
  virtual double best_gemm_gflops(Scalar, int) { return 0; }
};

// How a point is timed. With `reps` 0 the timed calls repeat, at least `min_reps` times, until
// the 95 % interval of their median is within ±`target` of it, or `max_reps` calls, or until the
// timed calls have taken `max_seconds` (the yardstick GEMMs run before them, outside this
// budget), whichever comes first. Six is
// the fewest calls whose order statistics give a 95 % interval (1 - 2/2^6 = 96.9 %).
struct BenchSettings {
  int threads = 0;  // passed to the plugin; 0: every core
  int warmup = 2;
  int reps = 0;  // > 0: exactly this many timed calls
  int min_reps = 6, max_reps = 1000;
  double target = 0.02;      // relative half-width of the median's interval
  double max_seconds = 1.0;  // per point
};

// How a point's variant runs: "in-process" (trusted: loaded into awb) or "runner" (an
// awb-runner process; every call pays a round trip).
std::string bench_run_mode(const VariantRef& ref);

// A subject's cost model (RawCost, core/plugins/forward.hpp).
using CostQuery = RawCost;

// What a point runs: the forward call, and the cost model when there is one (an empty CostQuery
// is a variant without one).
struct BenchSubject {
  BenchSubject(RawForward f, CostQuery c = {}, RawBackward b = {})
      : forward(std::move(f)), cost(std::move(c)), backward(std::move(b)) {}
  RawForward forward;
  CostQuery cost;
  RawBackward backward;  // empty: the variant has none (a backward point then fails)
};

// A fresh instance of the subject under test; the instance lives as long as the returned
// subject's functions. In-process this wraps a VariantInstance; the isolated runner supplies its
// own.
using ForwardFactory = std::function<BenchSubject()>;

// A fresh session per call (in-process for trusted plugins, a fresh awb-runner otherwise),
// kept alive by the returned function.
ForwardFactory session_factory(const VariantRef& ref, const SessionOptions& options = {});

// Times in seconds, memory in bytes. FLOPs and bytes moved come from the variant's cost model;
// without one they are NaN, and so is every throughput figure made of them (GFLOP/s, the GEMM
// ratio, the share of the FMA peak): the workbench cannot know what a variant computes.
struct BenchMeasure {
  static constexpr double kNone = std::numeric_limits<double>::quiet_NaN();
  double first_call = 0;                // a fresh instance's first call
  double median = 0, min = 0, max = 0;  // warm calls
  std::vector<double> samples;          // every timed warm call, in order
  MedianInterval interval;              // of the median of `samples`, 95 %
  double gemm_median = 0;               // the yardstick GEMM, interleaved with the calls
  // A training step's (BenchShape::backward): the forward alone, timed between the steps.
  std::vector<double> forward_samples;
  double forward_median = kNone;
  double flops = kNone;       // by the cost model (NaN: none)
  double cost_bytes = kNone;  // bytes the cost model says a pass moves (NaN: none)
  std::string cost_error;     // why the cost model refused the point, if it did
  double gemm_flops = 0;      // 2·n³
  double fma_peak_gflops = 0;
  double blas_gflops = 0;                   // the best packaged GEMM (0: none)
  double io_bytes = 0;                      // inputs and outputs, allocated by the host
  int64_t peak_first = -1, peak_warm = -1;  // resident high water above the inputs and outputs
                                            // during the first call, and a warm call (-1: no
                                            // measure on this system)
  bool has_cost() const { return !std::isnan(flops); }
  // flops / median as the cost model claims it, whatever it is.
  double claimed_gflops() const { return median > 0 ? flops / median * 1e-9 : kNone; }
  // The cost model claims more than the machine's FMA peak: a bug in the model, since no kernel
  // exceeds the peak; the figure is not reported.
  bool above_peak() const { return fma_peak_gflops > 0 && claimed_gflops() > fma_peak_gflops; }
  // The reported throughput: NaN without a cost model or above the peak, and so are the ratios.
  double gflops() const { return above_peak() ? kNone : claimed_gflops(); }
  double gemm_gflops() const { return gemm_median > 0 ? gemm_flops / gemm_median * 1e-9 : 0; }
  double gemm_ratio() const { return gemm_gflops() > 0 ? gflops() / gemm_gflops() : kNone; }
  double blas_ratio() const { return blas_gflops > 0 ? gflops() / blas_gflops : kNone; }
  double peak_share() const { return fma_peak_gflops > 0 ? gflops() / fma_peak_gflops : kNone; }
  // Bytes moved per second by the cost model (NaN without one).
  double gbytes_per_s() const { return median > 0 ? cost_bytes / median * 1e-9 : kNone; }
  // A training step's backward time per forward time, both medians of this run (NaN otherwise).
  double backward_per_forward() const {
    return forward_median > 0 ? (median - forward_median) / forward_median : kNone;
  }
  // What the point needs in all: its inputs and outputs, and the first call's high water above
  // them (the memory that the scaling fits follow).
  double footprint_bytes() const { return io_bytes + std::max<double>(0, peak_first); }
};

// Measures one point: inputs are random, filled once, with the shape's parameters resolved
// against `params` (bench_param_values); the cost model is asked for the point's FLOPs and bytes
// (shapes only, no data); a fresh instance's first call is timed and its memory high water read;
// then `warmup` calls, then the timed calls (as `settings` says), the first seven each followed
// by one yardstick GEMM (so both see the same machine load; more would make the GEMM the cost of
// every small point). Throws awb::Error from the plugin and from the parameters.
BenchMeasure measure_point(const ForwardFactory& make, uint64_t capabilities,
                           const BenchShape& shape, const BenchSettings& settings,
                           Yardstick& yardstick, const ParamBinding& params = {});

// One point of a sweep on one variant, as every front end reports it.
struct BenchPointResult {
  std::string status;    // ok | skipped | failed
  std::string mode;      // bench_run_mode
  std::string note;      // why it was skipped, or the error that stopped it
  BenchMeasure measure;  // when ok
};

// Skips the point with its reason (bench_skip_reason), or measures it on a fresh session of
// `ref` (session_factory) with the variant's parameter binding (bench_binding); an awb::Error
// from the plugin makes it "failed" with the message. A cost model that refuses the point leaves
// its FLOPs empty and says why in the note.
BenchPointResult bench_point(const VariantRef& ref, const BenchShape& shape,
                             const BenchSettings& settings, Yardstick& yardstick,
                             double budget_bytes, const SessionOptions& options = {});

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_BENCH_HPP_
