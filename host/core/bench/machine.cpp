// machine.cpp: the CPU from /proc/cpuinfo, the build from the generated build_info.hpp.
#include "core/bench/machine.hpp"

#include <fstream>
#include <sstream>
#include <thread>

#include "core/bench/build_info.hpp"
#include "graders/model/text.hpp"

namespace awb::core {
namespace {

// The instruction sets the kernels and their yardsticks can use, in a fixed order.
constexpr const char* kIsaFlags[] = {
    "sse4_2",      "avx",      "avx2",     "fma",         "f16c",        "avx512f",
    "avx512dq",    "avx512bw", "avx512vl", "avx512_bf16", "avx512_fp16", "avx_vnni",
    "avx512_vnni", "amx_tile", "amx_bf16", "neon",        "asimd",       "sve"};

std::string after_colon(const std::string& line) {
  const auto colon = line.find(':');
  if (colon == std::string::npos) return {};
  const auto start = line.find_first_not_of(" \t", colon + 1);
  return start == std::string::npos ? std::string() : line.substr(start);
}

}  // namespace

MachineInfo this_machine() {
  MachineInfo m;
  m.cpu_model = "unknown";
  m.logical_cpus = static_cast<int>(std::thread::hardware_concurrency());
  m.compiler = AWB_BUILD_COMPILER;
  m.build_type = AWB_BUILD_TYPE;
  m.flags = AWB_BUILD_FLAGS;
  std::ifstream in("/proc/cpuinfo");
  std::string line, flags;
  bool model_seen = false;
  while (std::getline(in, line)) {
    // x86 names the model "model name"; ARM kernels give "Hardware" or nothing.
    if (!model_seen && line.rfind("model name", 0) == 0) {
      m.cpu_model = after_colon(line);
      model_seen = true;
    } else if (flags.empty() && (line.rfind("flags", 0) == 0 || line.rfind("Features", 0) == 0)) {
      flags = " " + after_colon(line) + " ";
    }
    if (model_seen && !flags.empty()) break;
  }
  for (const char* isa : kIsaFlags)
    if (flags.find(std::string(" ") + isa + " ") != std::string::npos) m.isa.emplace_back(isa);
  return m;
}

std::vector<std::string> machine_differences(const MachineInfo& a, const MachineInfo& b) {
  std::vector<std::string> out;
  auto differ = [&out](const char* what, const std::string& x, const std::string& y) {
    if (x != y) out.push_back(std::string(what) + ": " + x + " -> " + y);
  };
  differ("CPU", a.cpu_model, b.cpu_model);
  differ("instruction sets", join(a.isa, " "), join(b.isa, " "));
  differ("logical CPUs", std::to_string(a.logical_cpus), std::to_string(b.logical_cpus));
  differ("compiler", a.compiler, b.compiler);
  differ("build type", a.build_type, b.build_type);
  differ("flags", a.flags, b.flags);
  differ("kernels", a.kernels, b.kernels);
  return out;
}

}  // namespace awb::core
