// torch_peer.cpp: which points torch can time, and one run of the Python driver that times them.
#include "core/bench/torch_peer.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>

#include "core/base/install_paths.hpp"
#include "core/base/temp_folder.hpp"
#include "core/bench/bench_json.hpp"

extern char** environ;

namespace awb::core {
namespace {

namespace fs = std::filesystem;

// The driver: beside the sources in the build tree, in <prefix>/share/awb/bench installed.
fs::path driver_path() { return shipped_path(AWB_SOURCE_TORCH_PEER, AWB_INSTALL_TORCH_PEER); }

// Bytes of the T × T matrices torch holds for a point: S and A a head and sequence forward; the
// backward keeps A and adds dA and dS while S is gone.
double torch_plane_bytes(const BenchShape& s) {
  const double plane = static_cast<double>(s.batch) * static_cast<double>(s.heads) *
                       static_cast<double>(s.tokens) * static_cast<double>(s.tokens) *
                       (s.scalar == Scalar::kF64 ? 8 : 4);
  return plane * (s.backward ? 3 : 2);
}

nlohmann::json request(const std::vector<PeerPoint>& points, const BenchSettings& settings) {
  nlohmann::json pts = nlohmann::json::array();
  for (size_t i = 0; i < points.size(); ++i) {
    const BenchShape& s = points[i].shape;
    nlohmann::json lengths = nullptr;  // every sequence whole
    if (s.padding > 0) {
      lengths = nlohmann::json::array();
      for (int b = 0; b < s.batch; ++b) lengths.push_back(s.length(b));
    }
    pts.push_back({{"id", i},
                   {"op", points[i].op},
                   {"tokens", s.tokens},
                   {"d", s.d},
                   {"heads", s.heads},
                   {"kv_heads", s.kv_head_count()},
                   {"causal", s.causal},
                   {"batch", s.batch},
                   {"lengths", lengths},
                   {"scalar", to_string(s.scalar)},
                   {"w_o", s.w_o},
                   {"want_a", s.want_weights},
                   {"backward", s.backward}});
  }
  return {{"threads", settings.threads},
          {"rule",
           {{"warmup", settings.warmup},
            {"reps", settings.reps},
            {"min_reps", settings.min_reps},
            {"max_reps", settings.max_reps},
            {"target", settings.target},
            {"max_seconds", settings.max_seconds}}},
          {"points", pts}};
}

// Runs `python driver request result` with the driver's stdout on awb's stderr (awb's stdout may
// be a JSON or CSV document). Returns why it failed, or "".
std::string run_driver(const fs::path& python, const fs::path& rq, const fs::path& result) {
  std::string py = python.string(), driver = driver_path().string(), rq_s = rq.string(),
              res_s = result.string();
  char* argv[] = {py.data(), driver.data(), rq_s.data(), res_s.data(), nullptr};
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, 2, 1);
  pid_t pid = 0;
  const int err = ::posix_spawn(&pid, py.c_str(), &actions, nullptr, argv, environ);
  posix_spawn_file_actions_destroy(&actions);
  if (err) return "cannot start " + py + ": " + std::strerror(err);
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFSIGNALED(status))
    return "the driver (" + driver + ") was killed by signal " + std::to_string(WTERMSIG(status));
  if (WEXITSTATUS(status) != 0)
    return "the driver (" + driver + ") exited with " + std::to_string(WEXITSTATUS(status)) +
           " (its messages are above)";
  return "";
}

}  // namespace

PeerChoice torch_peer_choice(const std::string& variant, bool bundled, const BenchShape& shape,
                             double budget_bytes) {
  PeerChoice c;
  if (!bundled) {
    c.reason = "no torch peer for variant " + variant + " (not one of awb's own variants)";
  } else if (variant == "parameter-free") {
    c.op = "parameter-free";
  } else if (variant == "multi-head" || variant == "causal" || variant == "qkv") {
    c.op = "multi-head";
  } else {
    c.reason = "no torch peer for variant " + variant;
  }
  if (c.op.empty()) return c;
  if (shape.want_scores) {
    c = {"", "no torch peer for a point that writes S (torch's attention returns no scores)"};
  } else if (torch_plane_bytes(shape) > budget_bytes) {
    c = {"", "torch would hold " + format_bytes(torch_plane_bytes(shape)) +
                 " of T x T matrices, over the memory budget of " + format_bytes(budget_bytes)};
  }
  return c;
}

fs::path peer_interpreter() {
  if (const char* env = std::getenv("AWB_PEER_PYTHON"); env != nullptr && *env != '\0') return env;
  return AWB_PEER_PYTHON_DEFAULT;
}

PeerRun run_torch_peer(const std::vector<PeerPoint>& points, const BenchSettings& settings) {
  PeerRun run;
  run.info.name = "torch";
  run.info.interpreter = peer_interpreter().string();
  if (run.info.interpreter.empty()) {
    run.info.skipped = "no Python interpreter was configured (CMake's Python3_EXECUTABLE)";
    return run;
  }
  const auto dir = make_temp_folder("awb-peer-");
  if (!dir) {
    run.info.skipped = std::string("no temporary folder for the driver: ") + std::strerror(errno);
    return run;
  }
  const RemovedOnExit remove(*dir);
  const fs::path rq = *dir / "request.json", result = *dir / "result.json";
  {
    std::ofstream f(rq);
    f << request(points, settings).dump();
    if (!f) {
      run.info.skipped = "cannot write the driver's request in " + dir->string();
      return run;
    }
  }
  if (std::string why = run_driver(run.info.interpreter, rq, result); !why.empty()) {
    run.info.skipped = why;
    return run;
  }
  nlohmann::json doc;
  try {
    std::ifstream f(result);
    doc = nlohmann::json::parse(f);
  } catch (const nlohmann::json::exception& e) {
    run.info.skipped = std::string("the driver's result is not JSON: ") + e.what();
    return run;
  }
  if (doc.contains("skipped")) {
    run.info.skipped = doc["skipped"].get<std::string>();
    if (run.info.skipped.find("No module named 'torch'") != std::string::npos)
      run.info.skipped += " (install python3-torch)";
    return run;
  }
  try {
    read_peer(doc, run.info);
    run.points.resize(points.size());
    for (const auto& p : doc.at("points")) {
      const size_t id = p.at("id").get<size_t>();
      if (id >= points.size()) continue;
      PeerTiming& t = run.points[id];
      t.op = p.value("op", "");
      t.error = p.value("error", "");
      if (t.error.empty()) {
        t.median = p.at("median_s").get<double>();
        t.n = p.at("n").get<int>();
      }
    }
  } catch (const nlohmann::json::exception& e) {
    run.points.clear();
    run.info.skipped = std::string("the driver's result lacks a field: ") + e.what();
  }
  return run;
}

}  // namespace awb::core
