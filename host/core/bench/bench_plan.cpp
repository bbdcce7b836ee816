// bench_plan.cpp: grids and presets of `awb bench`.
#include "core/bench/bench_plan.hpp"

#include <algorithm>
#include <thread>
#include <utility>

#include "graders/model/error.hpp"

namespace awb::core {

std::vector<BenchShape> expand(const BenchGrid& g) {
  std::vector<BenchShape> out;
  for (Scalar scalar : g.scalars)
    for (bool want : g.want_weights)
      for (bool causal : g.causal)
        for (int heads : g.heads)
          for (int kv_heads : g.kv_heads)
            for (int batch : g.batch)
              for (double padding : g.padding)
                for (bool w_o : g.w_o)
                  for (const ParamValues& params : g.params)
                    for (int64_t d : g.dims)
                      for (int64_t tokens : g.tokens) {
                        BenchShape s;
                        s.w_o = w_o;
                        s.tokens = tokens;
                        s.d = d;
                        s.heads = heads;
                        s.kv_heads = kv_heads == heads ? 0 : kv_heads;
                        s.batch = batch;
                        s.padding = padding;
                        s.causal = causal;
                        s.scalar = scalar;
                        s.want_weights = want;
                        s.want_scores = want && g.with_scores;
                        s.params = params;
                        out.push_back(s);
                      }
  return out;
}

std::vector<ParamValues> param_grid(const std::vector<std::string>& sweeps) {
  std::vector<std::pair<std::string, std::vector<std::string>>> lists;
  for (const auto& sweep : sweeps) {
    const auto eq = sweep.find('=');
    const std::string name = eq == std::string::npos ? sweep : sweep.substr(0, eq);
    std::vector<std::string> values;
    ParamValues one;
    // Each value is checked as the single assignment name=value would be.
    size_t from = eq == std::string::npos ? sweep.size() : eq + 1;
    do {
      const size_t comma = std::min(sweep.find(',', from), sweep.size());
      const std::string value = sweep.substr(from, comma - from);
      if (eq == std::string::npos || eq == 0 || value.empty())
        throw Error("param.syntax",
                    "--param takes name=v1,v2,... (e.g. window=16,64), not '" + sweep + "'");
      add_param_assignment(one, name + "=" + value);
      values.push_back(value);
      from = comma + 1;
    } while (from <= sweep.size());
    const auto same =
        std::find_if(lists.begin(), lists.end(), [&](const auto& l) { return l.first == name; });
    if (same != lists.end())
      same->second = values;
    else
      lists.emplace_back(name, values);
  }
  std::vector<ParamValues> out{{}};
  for (const auto& [name, values] : lists) {
    std::vector<ParamValues> next;
    for (const auto& partial : out)
      for (const auto& value : values) {
        ParamValues p = partial;
        p[name] = value;
        next.push_back(std::move(p));
      }
    out = std::move(next);
  }
  return out;
}

BenchGrid quick_grid() {
  BenchGrid g;
  g.want_weights = {false, true};
  g.causal = {false, true};
  g.dims = {16};
  g.tokens = {33, 100};
  return g;
}

std::vector<PlannedPoint> goal_points() {
  auto shape = [](int64_t tokens, int heads, bool causal, Scalar scalar, bool want) {
    BenchShape s;
    s.tokens = tokens;
    s.d = 64;
    s.heads = heads;
    s.causal = causal;
    s.scalar = scalar;
    s.want_weights = want;
    return s;
  };
  // The projections goal counts W_o too (Q, K, V and O: what a model's attention block does).
  auto with_w_o = [](BenchShape s) {
    s.w_o = true;
    return s;
  };
  const Scalar f32 = Scalar::kF32, f64 = Scalar::kF64;
  std::vector<PlannedPoint> out{
      {"parameter-free", shape(4096, 1, false, f32, false),
       "streaming >= 1.15x GEMM and >= 65% of peak"},
      {"parameter-free", shape(4096, 1, false, f32, true), "materialised (A) >= 0.85x GEMM"},
      {"parameter-free", shape(4096, 1, true, f32, false), "causal >= 1.0x GEMM (unmasked)"},
      {"multi-head", with_w_o(shape(1024, 8, false, f32, false)),
       "8 heads + projections >= 1.0x GEMM"},
      {"parameter-free", shape(1024, 1, false, f32, false), "T=1024 streaming >= 0.95x GEMM"},
      {"parameter-free", shape(1024, 1, false, f64, false), "f64 >= 45% of f32 throughput"},
  };
  for (int64_t tokens : {2048, 8192})
    out.push_back({"parameter-free", shape(tokens, 1, false, f32, false),
                   tokens == 8192 ? "memory <= 16 MB above I/O; slope 2 +- 0.15" : "slope"});
  // Training and today's shapes: a training step, A at T = 1024, 8 heads with projections
  // (E = 512) forward and as a training step (with --peer torch: the same problems in PyTorch),
  // and the same 8 query heads over 2 key/value heads.
  auto training = [](BenchShape s) {
    s.backward = true;
    return s;
  };
  auto grouped = [](BenchShape s, int kv_heads) {
    s.kv_heads = kv_heads;
    return s;
  };
  const BenchShape heads8 = with_w_o(shape(4096, 8, false, f32, false));
  out.insert(out.end(),
             {{"parameter-free", training(shape(4096, 1, false, f32, false)),
               "fwd+bwd >= 55% of peak, bwd <= 2.6x fwd"},
              {"parameter-free", shape(1024, 1, false, f32, true),
               "materialised (A) T=1024 >= 0.95x GEMM"},
              {"multi-head", heads8, "8 heads E=512 (--peer torch: >= 3.5x torch)"},
              {"multi-head", training(heads8), "8 heads E=512 fwd+bwd (--peer torch: >= 3x torch)"},
              {"multi-head", grouped(heads8, 2), "8 query / 2 key-value heads <= 0.8x 8 heads"}});
  return out;
}

BenchSettings bench_settings(bool quick, int threads, int warmup, int reps, double target,
                             double max_seconds) {
  BenchSettings s;
  s.threads =
      threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  s.warmup = warmup >= 0 ? warmup : (quick ? 1 : 2);
  s.reps = std::max(0, reps);
  s.target = target > 0 ? target : (quick ? 0.05 : 0.02);
  s.max_seconds = max_seconds > 0 ? max_seconds : (quick ? 0.25 : 1.0);
  return s;
}

Scalar parse_scalar(const std::string& s) {
  if (const auto scalar = awb::parse<Scalar>(s)) return *scalar;
  throw Error("bench.usage", "scalar '" + s + "' is not f32 or f64");
}

}  // namespace awb::core
