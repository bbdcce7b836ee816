// torch_peer.hpp: `awb bench --peer torch`: the bench's points timed again in PyTorch by a
// Python driver shipped with awb (torch_peer.py), one interpreter launch for the whole run.
#ifndef AWB_CORE_BENCH_TORCH_PEER_HPP_
#define AWB_CORE_BENCH_TORCH_PEER_HPP_

#include <filesystem>
#include <string>
#include <vector>

#include "core/bench/bench.hpp"

namespace awb::core {

// What torch runs for a point, or why the point has no peer. The driver knows two ops:
// "parameter-free" (Z = softmax(X Xᵀ / sqrt(d)) X) and "multi-head" (Q/K/V projections without
// bias, heads, and W_o exactly when the point gives it).
struct PeerChoice {
  std::string op;      // empty: no peer
  std::string reason;  // why not, when `op` is empty
};

// Only awb's own variants get a peer (what another plugin's variant computes, awb cannot know),
// and of them those torch computes as one op: parameter-free, qkv, multi-head and causal.
// A point that writes S has none (torch's attention returns no scores), nor one whose T × T
// matrices in torch (two planes a head forward, three with the backward) exceed `budget_bytes`.
PeerChoice torch_peer_choice(const std::string& variant, bool bundled, const BenchShape& shape,
                             double budget_bytes);

// How torch was set up, as the driver read it back from torch itself.
struct PeerInfo {
  std::string name;     // "torch" when a peer was asked for, else empty
  std::string skipped;  // why torch timed nothing; empty when it ran
  std::string version;  // torch.__version__
  int threads = 0, interop_threads = 0;
  std::string threads_rule;  // where the thread count came from ("--threads 2", every core)
  std::string parallel_backend, cpu_capability, blas;
  bool mkldnn = false;
  std::string grad_mode, timing;
  std::string interpreter;  // the Python that ran the driver
};

// One point's time in torch.
struct PeerTiming {
  std::string op;                       // what torch ran, in words
  double median = BenchMeasure::kNone;  // seconds
  int n = 0;                            // timed calls
  std::string error;                    // why there is no time (out of memory, ...)
};

struct PeerPoint {
  std::string op;  // PeerChoice::op
  BenchShape shape;
};

struct PeerRun {
  PeerInfo info;
  std::vector<PeerTiming> points;  // one per point asked, in order; empty when skipped
};

// The Python the driver runs in: $AWB_PEER_PYTHON when set (for tests and packagers: a path,
// never looked up on PATH), else the interpreter CMake resolved (Python3_EXECUTABLE).
std::filesystem::path peer_interpreter();

// Runs the driver once for every point, after awb's own points (so that neither times the other's
// load), with the threads and the repetition rule of `settings`. Never throws for a missing
// interpreter, a missing torch or a driver that fails: the run's info says why it was skipped.
PeerRun run_torch_peer(const std::vector<PeerPoint>& points, const BenchSettings& settings);

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_TORCH_PEER_HPP_
