// kernel_worlds.tests.cpp: every world of the bundled kernels this CPU runs (baseline, avx2,
// avx512; the one native world of an AWB_NATIVE build) against the reference, on randomised
// problems with T on each side of the kernels' row blocks (128) and key tiles (512): softmax
// forward streaming and materialised, parameter-free and projected, causal or not, f32 and f64;
// the backward pass; sliding-window and linear attention; the projections' product. And the
// choice of a level by AWB_KERNEL_ISA.
#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <random>

#include "common/fused_attention.hpp"
#include "common/kernel_world.hpp"
#include "graders/reference/reference_backward.hpp"
#include "unit/variant_harness.hpp"

using namespace awb;
using kernels::Inputs;
using kernels::KernelWorld;
using kernels::Mask;
using test::kF32Tolerance;
using test::kF64Tolerance;
using test::mismatch;
using test::Output;
using test::Spec;
using test::Want;
using Kind = VariantKind;

namespace {

// The worlds this CPU runs, of those built.
std::vector<const KernelWorld*> runnable_worlds() {
  std::vector<const KernelWorld*> out;
  for (auto level : isa::levels_here())
    if (const KernelWorld* w = kernels::kernel_world(level)) out.push_back(w);
  return out;
}

// One call of `fn(problem, results)`, a world's kernel, on the spec through the SDK's views.
template <class S, class Fn>
Output run_views(const Spec& spec, Want want, Fn&& fn) {
  return test::run_with<S>(spec, want, [&](const awb_problem& p, awb_results& r) {
    const Problem<S> problem(p);
    Results<S> results(r);
    fn(problem, results);
  });
}

template <class S>
Output softmax(const KernelWorld& w, const Spec& spec, Want want, Inputs inputs) {
  kernels::WorldOwned<kernels::Workspaces> ws(w.new_workspaces, w.delete_workspaces);
  return run_views<S>(spec, want, [&](const Problem<S>& p, Results<S>& r) {
    w.kernels<S>().softmax(p, r, inputs, Mask::kAsProblemSays, *ws);
  });
}

// dX, dW_q, dW_k, dW_v and dW_o (when the problem has W_o) for the loss Σ dz ∘ Z, in f64.
struct Grads {
  std::vector<double> dx, dwq, dwk, dwv, dwo;
};
template <class S, class Backward>
Grads gradients(const Spec& spec, const std::vector<double>& dz64, Backward&& backward) {
  auto cast = [](const std::vector<double>& v) { return std::vector<S>(v.begin(), v.end()); };
  const int64_t T = spec.tokens, C = spec.d_model, H = spec.heads, G = spec.kv();
  std::vector<S> dz = cast(dz64), dx(T * C, NAN), dwq(C * H * spec.d_k, NAN),
                 dwk(C * G * spec.d_k, NAN), dwv(C * G * spec.d_v, NAN),
                 dwo(spec.d_out ? H * spec.d_v * spec.d_out : 0, NAN);
  const int64_t out_cols = spec.d_out ? spec.d_out : H * spec.d_v;
  awb_gradients g{};
  g.struct_size = sizeof g;
  g.dx = test::tensor2(dx.data(), T, C);
  g.dw_q = test::tensor2(dwq.data(), C, H * spec.d_k);
  g.dw_k = test::tensor2(dwk.data(), C, G * spec.d_k);
  g.dw_v = test::tensor2(dwv.data(), C, G * spec.d_v);
  if (spec.d_out) g.dw_o = test::tensor2(dwo.data(), H * spec.d_v, spec.d_out);
  const awb_tensor dz_t = test::tensor2(dz.data(), T, out_cols);
  test::run_with<S>(spec, Want::kZ,
                    [&](const awb_problem& p, awb_results& r) { backward(p, r, dz_t, g); });
  auto back = [](const std::vector<S>& v) { return std::vector<double>(v.begin(), v.end()); };
  return {back(dx), back(dwq), back(dwk), back(dwv), back(dwo)};
}

std::string grad_mismatch(const Grads& got, const Grads& want, double tolerance) {
  auto one = [&](const char* name, const std::vector<double>& g, const std::vector<double>& w) {
    const auto d = test::diff(g, w);
    if (d.max_error <= tolerance * std::max(1.0, d.max_magnitude)) return std::string();
    return std::string(name) + " differs by " + std::to_string(d.max_error) + "; ";
  };
  return one("dX", got.dx, want.dx) + one("dW_q", got.dwq, want.dwq) +
         one("dW_k", got.dwk, want.dwk) + one("dW_v", got.dwv, want.dwv) +
         one("dW_o", got.dwo, want.dwo);
}

// Query heads and key/value heads of the projected cases: ordinary multi-head attention, grouped
// (two or three query heads per key/value head) and multi-query (one key/value head).
struct HeadCounts {
  int64_t heads, kv_heads;
};
constexpr HeadCounts kHeadCounts[] = {{1, 1}, {2, 2}, {3, 3}, {4, 2}, {2, 1}, {6, 2}, {4, 1}};

// T on each side of the row block (128) and the key tile (512), and a few small ones.
constexpr int64_t kSizes[] = {1, 2, 17, 127, 128, 129, 511, 512, 513, 700};

}  // namespace

TEST_CASE("every kernel world this CPU runs is built in, and the chosen one is the best",
          "[kernels][isa]") {
  const auto worlds = runnable_worlds();
  REQUIRE_FALSE(worlds.empty());
  for (const KernelWorld* w : worlds) CHECK(isa::supported(w->level));
  // Without AWB_KERNEL_ISA the process runs the highest level it has.
  if (!std::getenv("AWB_KERNEL_ISA")) CHECK(kernels::kernel_world().level == worlds.back()->level);
#if defined(__x86_64__)
  if (std::string(worlds.front()->name) != "native") {
    size_t runs = 0;
    for (auto level : isa::levels_here()) runs += isa::supported(level);
    CHECK(worlds.size() == runs);
    for (const KernelWorld* w : worlds) CHECK(w->name == isa::name(w->level));
  }
#endif
}

TEST_CASE("softmax attention: every world agrees with the reference", "[kernels][isa][random]") {
  std::mt19937_64 rng(20261202);
  int index = 0;
  for (const KernelWorld* w : runnable_worlds()) {
    for (int64_t tokens : kSizes) {
      for (bool causal : {false, true}) {
        const bool projected = index % 3 != 0;
        const int64_t heads = projected ? 1 + index % 3 : 1;
        const bool with_wo = projected && index % 2 == 0;
        // Without projections Z is T × d_model: the harness shapes it as h·d_v.
        const int64_t dk = projected ? 5 : 12, dv = projected ? 4 : 12;
        Spec s = test::random_spec(rng, tokens, heads, causal, with_wo, 12, dk, dv);
        s.threads = tokens > 256 ? 2 : 1;
        const Kind kind = projected ? Kind::kQkv : Kind::kParameterFree;
        const Inputs inputs = projected ? Inputs::kProjected : Inputs::kParameterFree;
        INFO(w->name << ": T " << tokens << " causal " << causal << " heads " << heads << " W_o "
                     << with_wo << " projected " << projected);
        const Output ref = test::run_reference<double>(s, kind);
        for (Want want : {Want::kZ, Want::kBoth}) {
          INFO("want " << static_cast<int>(want));
          CHECK(mismatch(softmax<double>(*w, s, want, inputs), ref, kF64Tolerance) == "");
          CHECK(mismatch(softmax<float>(*w, s, want, inputs), ref, kF32Tolerance) == "");
        }
        ++index;
      }
    }
  }
}

// The fused paths of the AVX2 and AVX-512 worlds (fused_attention.hpp) block by 6 query rows,
// 132-row tasks, panels of 8, 16, 32 or 64 keys, 256-key tiles, and output columns in packets of
// 2 to 16: T on each side of those edges, d_k and d_v on each side of a packet and of a panel of
// columns, causal or not, one head or several, f32 and f64; Z alone (the streaming path) and with
// A, S or both (the materialised path).
TEST_CASE(
    "fused attention, streaming and materialised: every world agrees with the reference at "
    "every blocking edge",
    "[kernels][isa][random]") {
  std::mt19937_64 rng(20261205);
  // Micro-blocks of 6 rows, panels of 16-64 keys, row blocks near 132, tiles of 256 or 512 keys.
  constexpr int64_t kEdges[] = {5,   6,   7,   15,  16,  17,  31,  33,  63,  64,  65, 131,
                                132, 133, 255, 256, 257, 264, 397, 511, 512, 513, 600};
  struct Widths {
    int64_t d_model, dk, dv;
  };
  constexpr Widths kWidths[] = {
      {12, 12, 12}, {16, 16, 16}, {20, 3, 17}, {40, 33, 70}, {64, 64, 64}};
  int index = 0;
  for (const KernelWorld* w : runnable_worlds()) {
    for (int64_t tokens : kEdges) {
      for (bool causal : {false, true}) {
        const Widths d = kWidths[index % std::size(kWidths)];
        const bool projected = index % 2 == 1;
        const HeadCounts hc =
            projected ? kHeadCounts[index / 2 % std::size(kHeadCounts)] : HeadCounts{1, 1};
        Spec s =
            test::random_spec(rng, tokens, hc.heads, causal, projected && index % 4 == 1, d.d_model,
                              projected ? d.dk : d.d_model, projected ? d.dv : d.d_model);
        test::group_kv_heads(s, hc.kv_heads);
        s.threads = 1 + index % 2;
        const Kind kind = projected ? Kind::kQkv : Kind::kParameterFree;
        const Inputs inputs = projected ? Inputs::kProjected : Inputs::kParameterFree;
        INFO(w->name << ": T " << tokens << " causal " << causal << " heads " << hc.heads
                     << " kv_heads " << hc.kv_heads << " d_model " << s.d_model << " d_k " << s.d_k
                     << " d_v " << s.d_v << " W_o " << (s.d_out > 0) << " threads " << s.threads);
        const Output ref = test::run_reference<double>(s, kind);
        CHECK(mismatch(softmax<double>(*w, s, Want::kZ, inputs), ref, kF64Tolerance) == "");
        CHECK(mismatch(softmax<float>(*w, s, Want::kZ, inputs), ref, kF32Tolerance) == "");
        // The materialised path (materialise_block): A, S or both written.
        const Want wants[] = {Want::kWeights, Want::kScores, Want::kBoth};
        const Want want = wants[index % 3];
        INFO("want " << static_cast<int>(want));
        const Output ref_a = test::run_reference<double>(s, kind, want);
        CHECK(mismatch(softmax<double>(*w, s, want, inputs), ref_a, kF64Tolerance) == "");
        CHECK(mismatch(softmax<float>(*w, s, want, inputs), ref_a, kF32Tolerance) == "");
        ++index;
      }
    }
  }
}

TEST_CASE("the fused path's row blocks cover every row once, in whole micro-blocks, evenly",
          "[kernels]") {
  for (int64_t tokens : {1, 5, 6, 7, 131, 132, 133, 1000, 1024, 4096, 8192})
    for (int64_t heads : {1, 3, 8})
      for (int threads : {1, 2, 3}) {
        INFO("T " << tokens << " heads " << heads << " threads " << threads);
        const kernels::fused::RowBlocks rows(tokens, 6, 132, heads, threads);
        const int64_t micro = (tokens + 5) / 6;
        CHECK(rows.blocks >= 1);
        CHECK(rows.blocks <= micro);
        // Enough micro-blocks for a whole number of blocks per thread: it gets one.
        if (rows.blocks < micro) CHECK(heads * rows.blocks % threads == 0);
        int64_t next = 0, smallest = tokens, largest = 0;
        for (int64_t b = 0; b < rows.blocks; ++b) {
          const auto [first, n] = rows.block(b);
          CHECK(first == next);
          CHECK(first % 6 == 0);
          CHECK(n > 0);
          next = first + n;
          if (b + 1 < rows.blocks) {
            smallest = std::min(smallest, n);
            largest = std::max(largest, n);
          }
        }
        CHECK(next == tokens);
        // Apart from the last (which ends at T), the blocks differ by one micro-block at most,
        // and none is far above the target.
        if (rows.blocks > 1) CHECK(largest - smallest <= 6);
        CHECK(largest <= 2 * 132);
      }
  // At T = 4096 on 2 threads each thread gets the same number of micro-blocks.
  const kernels::fused::RowBlocks rows(4096, 6, 132, 1, 2);
  int64_t even = 0, odd = 0;
  for (int64_t b = 0; b < rows.blocks; ++b) (b % 2 ? odd : even) += rows.block(b).second;
  CHECK(std::abs(even - odd) <= 6);
}

TEST_CASE("softmax backward: every world agrees with the reference", "[kernels][isa][random]") {
  std::mt19937_64 rng(20261203);
  for (const KernelWorld* w : runnable_worlds()) {
    for (int64_t tokens : {1, 5, 129, 200}) {
      for (bool causal : {false, true}) {
        Spec s = test::random_spec(rng, tokens, 2, causal, tokens % 2 == 1, 12, 5, 4);
        const int64_t out_cols = s.d_out ? s.d_out : s.heads * s.d_v;
        std::vector<double> dz(tokens * out_cols);
        std::normal_distribution<double> n01(0, 1);
        for (double& e : dz) e = n01(rng);
        INFO(w->name << ": T " << tokens << " causal " << causal << " W_o " << (s.d_out > 0));
        const Grads ref = gradients<double>(
            s, dz, [&](const awb_problem& p, awb_results&, const awb_tensor& d, awb_gradients& g) {
              reference::attention_backward(p, d, nullptr, g, Kind::kQkv);
            });
        auto world_backward = [&](auto scalar) {
          using S = decltype(scalar);
          return gradients<S>(
              s, dz,
              [&](const awb_problem& p, awb_results& r, const awb_tensor& d, awb_gradients& g) {
                kernels::WorldOwned<kernels::Workspaces> ws(w->new_workspaces,
                                                            w->delete_workspaces);
                const Problem<S> problem(p);
                Results<S> results(r);
                w->kernels<S>().softmax(problem, results, Inputs::kProjected, Mask::kAsProblemSays,
                                        *ws);
                const Upstream<S> up(r, d, nullptr);
                Gradients<S> grads(g);
                w->kernels<S>().softmax_backward(problem, up, grads, Inputs::kProjected,
                                                 Mask::kAsProblemSays, *ws);
              });
        };
        CHECK(grad_mismatch(world_backward(double{}), ref, kF64Tolerance) == "");
        CHECK(grad_mismatch(world_backward(float{}), ref, kF32Tolerance) == "");
      }
    }
  }
}

// The fused backward (fused_backward.hpp) blocks keys by 192 per task and queries by 96 per
// chunk, on the forward's micro-blocks of 6 rows and panels of 8 to 64 keys: T on each side of
// those edges, d_k and d_v on each side of a packet, causal or not, parameter-free and projected,
// one head or several, with and without W_o, one thread or two, f32 and f64. Each case runs in
// the orders a caller may use: the forward then the backward (the forward's state reused); the
// backward alone (the forward run again inside it); and, once training, the forward of another
// problem of the same shape before this one's backward (nothing of the other may be reused).
TEST_CASE("fused backward: every world agrees with the reference backward at every blocking edge",
          "[kernels][isa][random]") {
  std::mt19937_64 rng(20261206);
  constexpr int64_t kEdges[] = {1, 5, 6, 7, 63, 65, 95, 96, 97, 191, 192, 193, 289, 383, 385};
  struct Widths {
    int64_t d_model, dk, dv;
  };
  constexpr Widths kWidths[] = {{12, 5, 4}, {16, 16, 16}, {20, 3, 17}, {24, 33, 8}, {64, 64, 64}};
  enum class Order { kAfterForward, kAlone, kAfterOtherForward };
  int index = 0;
  for (const KernelWorld* w : runnable_worlds()) {
    for (int64_t tokens : kEdges) {
      for (bool causal : {false, true}) {
        const Widths d = kWidths[index % std::size(kWidths)];
        const bool projected = index % 3 != 0;
        const HeadCounts hc =
            projected ? kHeadCounts[index / 3 % std::size(kHeadCounts)] : HeadCounts{1, 1};
        const bool with_wo = projected && index % 2 == 0;
        auto spec = [&] {
          Spec each = test::random_spec(rng, tokens, hc.heads, causal, with_wo, d.d_model,
                                        projected ? d.dk : d.d_model, projected ? d.dv : d.d_model);
          test::group_kv_heads(each, hc.kv_heads);
          return each;
        };
        Spec s = spec(), other = spec();
        // Scores of X·Xᵀ at d_model = 64 are too sharp to say anything about the softmax's
        // gradient: X is scaled as a trained model's activations would be.
        if (!projected)
          for (Spec* each : {&s, &other})
            for (double& e : each->x) e /= std::sqrt(double(d.d_model));
        s.threads = other.threads = 1 + index % 2;
        const int64_t out_cols = s.d_out ? s.d_out : s.heads * s.d_v;
        std::vector<double> dz(tokens * out_cols);
        std::normal_distribution<double> n01(0, 1);
        for (double& e : dz) e = n01(rng);
        const Kind kind = projected ? Kind::kQkv : Kind::kParameterFree;
        const Inputs inputs = projected ? Inputs::kProjected : Inputs::kParameterFree;
        INFO(w->name << ": T " << tokens << " causal " << causal << " heads " << hc.heads
                     << " kv_heads " << hc.kv_heads << " d_model " << s.d_model << " d_k " << s.d_k
                     << " d_v " << s.d_v << " W_o " << with_wo << " projected " << projected
                     << " threads " << s.threads);
        const Grads ref = gradients<double>(
            s, dz, [&](const awb_problem& p, awb_results&, const awb_tensor& dt, awb_gradients& g) {
              reference::attention_backward(p, dt, nullptr, g, kind);
            });
        auto world_backward = [&](auto scalar, Order order) {
          using S = decltype(scalar);
          return gradients<S>(
              s, dz,
              [&](const awb_problem& p, awb_results& r, const awb_tensor& dt, awb_gradients& g) {
                kernels::WorldOwned<kernels::Workspaces> ws(w->new_workspaces,
                                                            w->delete_workspaces);
                const auto& k = w->kernels<S>();
                const Problem<S> problem(p);
                Results<S> results(r);
                const Upstream<S> up(r, dt, nullptr);
                Gradients<S> grads(g);
                auto backward = [&] {
                  k.softmax_backward(problem, up, grads, inputs, Mask::kAsProblemSays, *ws);
                };
                if (order == Order::kAfterForward) {
                  backward();  // now training: the forward keeps its state
                  k.softmax(problem, results, inputs, Mask::kAsProblemSays, *ws);
                } else if (order == Order::kAfterOtherForward) {
                  backward();
                  k.softmax(problem, results, inputs, Mask::kAsProblemSays, *ws);
                  test::run_with<S>(other, Want::kZ, [&](const awb_problem& op, awb_results& o) {
                    Results<S> other_results(o);
                    k.softmax(Problem<S>(op), other_results, inputs, Mask::kAsProblemSays, *ws);
                  });
                }
                backward();
              });
        };
        // The parameter-free variant's gradient is dX alone (it has no weights to learn).
        auto only_dx = [&](Grads g) {
          if (!projected) g.dwq = g.dwk = g.dwv = g.dwo = {};
          return g;
        };
        for (Order order : {Order::kAfterForward, Order::kAlone, Order::kAfterOtherForward}) {
          INFO("order " << static_cast<int>(order));
          CHECK(grad_mismatch(only_dx(world_backward(double{}, order)), only_dx(ref),
                              kF64Tolerance) == "");
          CHECK(grad_mismatch(only_dx(world_backward(float{}, order)), only_dx(ref),
                              kF32Tolerance) == "");
        }
        ++index;
      }
    }
  }
}

TEST_CASE("sliding-window and linear attention: every world agrees with the reference",
          "[kernels][isa][random]") {
  std::mt19937_64 rng(20261204);
  for (const KernelWorld* w : runnable_worlds()) {
    for (int64_t tokens : {1, 17, 129, 513}) {
      for (bool causal : {false, true}) {
        Spec s = test::random_spec(rng, tokens, 2, causal, tokens % 2 == 1, 12, 5, 4);
        s.threads = tokens > 256 ? 2 : 1;
        INFO(w->name << ": T " << tokens << " causal " << causal);
        for (const Eigen::Index window : {Eigen::Index(3), Eigen::Index(300)}) {
          s.params = {{"window", double(window)}};
          const Output ref = test::run_reference<double>(s, Kind::kSlidingWindow);
          auto run = [&](auto scalar, Want want) {
            using S = decltype(scalar);
            kernels::WorldOwned<kernels::Workspaces> ws(w->new_workspaces, w->delete_workspaces);
            return run_views<S>(s, want, [&](const Problem<S>& p, Results<S>& r) {
              w->kernels<S>().sliding_window(p, r, window, *ws);
            });
          };
          INFO("window " << window);
          CHECK(mismatch(run(double{}, Want::kZ), ref, kF64Tolerance) == "");
          CHECK(mismatch(run(float{}, Want::kBoth), ref, kF32Tolerance) == "");
        }
        for (const auto phi : {kernels::FeatureMap::kEluPlusOne, kernels::FeatureMap::kRelu}) {
          s.params = {{"feature_map", phi == kernels::FeatureMap::kRelu ? 1.0 : 0.0}};
          const Output ref = test::run_reference<double>(s, Kind::kLinear);
          auto run = [&](auto scalar, Want want) {
            using S = decltype(scalar);
            kernels::WorldOwned<kernels::LinearWorkspaces> ws(w->new_linear_workspaces,
                                                              w->delete_linear_workspaces);
            return run_views<S>(s, want, [&](const Problem<S>& p, Results<S>& r) {
              w->kernels<S>().linear(p, r, phi, *ws);
            });
          };
          INFO("feature map " << static_cast<int>(phi));
          CHECK(mismatch(run(double{}, Want::kZ), ref, kF64Tolerance) == "");
          CHECK(mismatch(run(float{}, Want::kBoth), ref, kF32Tolerance) == "");
        }
      }
    }
  }
}

namespace {

// Sets AWB_KERNEL_ISA for one scope (unset when `value` is null) and puts back what was there.
class ForcedIsa {
 public:
  explicit ForcedIsa(const char* value) {
    if (const char* old = std::getenv("AWB_KERNEL_ISA")) old_ = old;
    if (value)
      ::setenv("AWB_KERNEL_ISA", value, 1);
    else
      ::unsetenv("AWB_KERNEL_ISA");
  }
  ~ForcedIsa() {
    if (old_)
      ::setenv("AWB_KERNEL_ISA", old_->c_str(), 1);
    else
      ::unsetenv("AWB_KERNEL_ISA");
  }

 private:
  std::optional<std::string> old_;
};

std::string choose_error(std::initializer_list<isa::Level> built) {
  try {
    isa::choose(built);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("AWB_KERNEL_ISA forces a level, and a level that cannot run is refused with the reason",
          "[kernels][isa]") {
  using isa::Level;
  for (const isa::LevelInfo& row : isa::kLevels) CHECK(isa::parse(row.name) == row.level);
  CHECK_FALSE(isa::parse("sse2").has_value());
  CHECK(isa::supported(Level::kBaseline));
  {
    const ForcedIsa unset(nullptr);
    CHECK(isa::choose({Level::kBaseline, Level::kAvx2, Level::kAvx512}) == isa::best_supported());
    CHECK(isa::choose({Level::kBaseline}) == Level::kBaseline);
  }
  {
    const ForcedIsa automatic("auto");
    CHECK(isa::choose({Level::kBaseline, Level::kAvx2, Level::kAvx512}) == isa::best_supported());
  }
  {
    const ForcedIsa baseline("baseline");
    CHECK(isa::choose({Level::kBaseline, Level::kAvx2, Level::kAvx512}) == Level::kBaseline);
    CHECK(choose_error({Level::kAvx2}) ==
          "AWB_KERNEL_ISA=baseline: these kernels were not built for it");
  }
  {
    const ForcedIsa bogus("sse9");
    // Every level of isa_levels.def is named, in the table's order.
    std::string names;
    for (const isa::LevelInfo& row : isa::kLevels)
      names += (names.empty() ? "" : ", ") + std::string(row.name);
    CHECK(choose_error({Level::kBaseline}) ==
          "AWB_KERNEL_ISA=sse9: not a level (" + names + " or auto)");
    CHECK_THAT(names, Catch::Matchers::StartsWith("baseline, avx2, avx512"));
  }
  if (!isa::supported(Level::kAvx512)) {
    const ForcedIsa avx512("avx512");
    CHECK(choose_error({Level::kBaseline, Level::kAvx512}) ==
          "AWB_KERNEL_ISA=avx512: this CPU cannot run avx512 code");
  }
}

// The projections' product (fused_gemm.hpp in the AVX2 and AVX-512 worlds): c[i] = a · b[i] for
// products sharing a, with m on each side of the 6-row micro-block, k on each side of a packet,
// and n on each side of a panel (8 to 64 columns) and of a task's two panels, against a product
// summed in double; on one thread and on two.
template <class T>
void check_shared_lhs_product(const KernelWorld& w, int64_t m, int64_t k, int threads,
                              std::mt19937_64& rng) {
  using Matrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const int64_t widths[] = {1, 7, 63, 64, 65, 130, 200};
  std::uniform_real_distribution<double> unit(-1, 1);
  auto random = [&](int64_t rows, int64_t cols) {
    Matrix x(rows, cols);
    for (int64_t i = 0; i < x.size(); ++i) x.data()[i] = static_cast<T>(unit(rng));
    return x;
  };
  // A wider matrix than a: a's rows have a stride of their own, as X's block of a head has.
  const Matrix a_store = random(m, k + 3);
  const ConstMatrixView<T> a(a_store.data(), m, k, Eigen::OuterStride<>(k + 3));
  std::vector<Matrix> b, c;
  for (int64_t n : widths) {
    b.push_back(random(k, n));
    c.push_back(Matrix::Constant(m, n, T(7)));
  }
  std::vector<ConstMatrixView<T>> bv;
  std::vector<MatrixView<T>> cv;
  for (size_t i = 0; i < b.size(); ++i) {
    bv.emplace_back(b[i].data(), k, b[i].cols(), Eigen::OuterStride<>(b[i].cols()));
    cv.emplace_back(c[i].data(), m, c[i].cols(), Eigen::OuterStride<>(c[i].cols()));
  }
  w.kernels<T>().shared_lhs_product(a, bv, cv, threads);
  for (size_t i = 0; i < b.size(); ++i) {
    const Eigen::MatrixXd want = a.template cast<double>() * b[i].template cast<double>();
    const double error = (c[i].template cast<double>() - want).cwiseAbs().maxCoeff();
    INFO(w.name << (sizeof(T) == 4 ? " f32" : " f64") << ": m " << m << " k " << k << " n "
                << b[i].cols() << " threads " << threads);
    CHECK(error <= 4.0 * static_cast<double>(k) * std::numeric_limits<T>::epsilon());
  }
}

TEST_CASE("the projections' product agrees with a double-precision product in every world",
          "[kernels][isa][random]") {
  std::mt19937_64 rng(20261202);
  for (const KernelWorld* w : runnable_worlds())
    for (int64_t m : {1, 5, 6, 7, 131})
      for (int64_t k : {1, 3, 16, 17, 64})
        for (int threads : {1, 2}) {
          check_shared_lhs_product<float>(*w, m, k, threads, rng);
          check_shared_lhs_product<double>(*w, m, k, threads, rng);
        }
}
