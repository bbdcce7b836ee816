// machine.hpp: what a benchmark ran on: the CPU, the instruction sets that matter to the kernels,
// and how awb was compiled; a saved baseline carries it so a comparison can warn when it differs.
#ifndef AWB_CORE_BENCH_MACHINE_HPP_
#define AWB_CORE_BENCH_MACHINE_HPP_

#include <string>
#include <vector>

namespace awb::core {

struct MachineInfo {
  std::string cpu_model;         // "model name" of /proc/cpuinfo ("unknown" elsewhere)
  std::vector<std::string> isa;  // of sse4_2 avx avx2 fma avx512f ..., those this CPU has
  int logical_cpus = 0;
  std::string compiler, build_type, flags;  // of this build
  // The x86-64 level the bundled kernels and the yardstick GEMM run at ("avx512", "avx2",
  // "baseline"; "native" in an AWB_NATIVE build): set by whoever holds the yardstick.
  std::string kernels;
};

// This machine and this build.
MachineInfo this_machine();

// The ways `b` differs from `a` that change timings, one line each ("CPU: X -> Y"); empty when
// they agree.
std::vector<std::string> machine_differences(const MachineInfo& a, const MachineInfo& b);

}  // namespace awb::core

#endif  // AWB_CORE_BENCH_MACHINE_HPP_
