// protocol.hpp: the messages between the host and awb-runner, and the isolation levels.
// Shared by both ends; depends on the SDK's C header only.
#ifndef AWB_RUNNER_PROTOCOL_HPP_
#define AWB_RUNNER_PROTOCOL_HPP_

#include <awb/awb_plugin.h>

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "runner/wire.hpp"

namespace awb::runner {

// How far a plugin's process was locked down, in increasing order. Each level contains the one
// before it.
//   in-process  loaded into the host itself (bundled or --trusted plugins): no isolation
//   process     own process and process group, fixed environment, rlimits (CPU, address space,
//               file size, open files, no core), parent-death signal
//   limited     + no-new-privs + seccomp allowlist: no fork/exec, sockets, ptrace, mount,
//               keyctl, bpf, io_uring, signals to other processes
//   confined    + an unprivileged uid when started as root + Landlock: the file system is
//               read-only system libraries and the plugin's folder, read-write the scratch folder
enum class Isolation : uint8_t { kInProcess = 0, kProcess = 1, kLimited = 2, kConfined = 3 };
// The names the command line, provenance (a report's "lockdown") and the runner's own
// arguments use. The runner sees nothing of the graders, so this table is its own.
struct IsolationName {
  Isolation level;
  const char* name;
};
inline constexpr std::array<IsolationName, 4> kIsolationNames{{
    {Isolation::kInProcess, "in-process"},
    {Isolation::kProcess, "process"},
    {Isolation::kLimited, "limited"},
    {Isolation::kConfined, "confined"},
}};
// A row per level, in level order. The runner sees nothing of the graders, so it cannot count
// the enum with graders/model/names.hpp: the count is held to the highest level instead.
constexpr bool isolation_names_complete() {
  for (std::size_t i = 0; i < kIsolationNames.size(); ++i)
    if (kIsolationNames[i].level != static_cast<Isolation>(i)) return false;
  return kIsolationNames.size() == static_cast<std::size_t>(Isolation::kConfined) + 1;
}
static_assert(isolation_names_complete(), "kIsolationNames names every level, in order");
const char* to_string(Isolation level);
std::optional<Isolation> parse_isolation(const std::string& name);

// One declared parameter (awb_param_decl) as plain data, strings bounded.
struct RawParam {
  std::string name, doc;
  int32_t type = 0;
  double default_value = 0, min_value = 0, max_value = 0;
  std::vector<std::string> choices{};
};
inline constexpr size_t kMaxParams = 32;
inline constexpr size_t kMaxSequences = size_t(1) << 20;  // of a batch's padding mask
inline constexpr size_t kMaxChoices = 64;

// A plugin's descriptor as plain data, read defensively from the C structs (struct-size rule,
// bounded strings). The host validates it: in the runner case it comes from untrusted code.
struct RawVariant {
  bool present = false;
  uint64_t struct_size = 0;
  std::string id, name, description;
  uint64_t capabilities = 0;
  bool has_create = false, has_destroy = false, has_forward = false;
  bool has_backward = false;  // exports AWB_EXT_BACKWARD (asked through get_extension)
  bool has_cost = false;      // exports AWB_EXT_COST
  // SDK 1.2: the declared parameters, read as far as each struct_size covers; more than
  // kMaxParams, or a NULL entry, leaves `params_valid` false for the host to refuse.
  std::vector<RawParam> params{};
  bool params_valid = true;
};
struct RawDescriptor {
  bool present = false;
  uint64_t struct_size = 0;
  uint32_t abi_major = 0, abi_minor = 0;
  std::string id, name, version, author, description;
  // The first string field that is not readable up to a NUL within 4096 bytes ("the plugin
  // id", "variant #2 name"), or empty; such a field reads as "".
  std::string unreadable;
  uint64_t n_variants = 0;
  bool has_variants = false;
  std::vector<RawVariant> variants;  // read only when the header checks allow it
};
inline constexpr size_t kMaxVariants = 256;
RawDescriptor read_descriptor(const awb_plugin_descriptor* raw);

// The variant's backward extension when it exports one whose struct_size covers `backward`, else
// null. Calls the plugin's get_extension (read only when the variant's struct_size covers it).
const awb_backward_ext* backward_extension(const awb_variant* variant);
// The variant's cost extension when it exports one whose struct_size covers `cost`, else null.
const awb_cost_ext* cost_extension(const awb_variant* variant);
// What a variant without it is told, in-process and in the runner alike.
inline constexpr const char* kNotTrainable = "not trainable: the plugin exports no backward pass";
inline constexpr const char* kNoCost = "no cost model: the plugin exports no org.awb.cost/1";

struct Hello {
  Isolation level = Isolation::kProcess;
  std::string notes;  // what was skipped and why, e.g. "landlock: not supported by the kernel"
  RawDescriptor descriptor;
};
std::vector<uint8_t> encode(const Hello& hello);
std::optional<Hello> decode_hello(const std::vector<uint8_t>& payload);

struct LoadFailed {
  std::string
      stage;  // isolation (below --min-level: not loaded) | open | entry-symbol | descriptor
  std::string message;
  std::string system_error;
};
std::vector<uint8_t> encode(const LoadFailed& failure);
std::optional<LoadFailed> decode_load_failed(const std::vector<uint8_t>& payload);

size_t element_size(awb_scalar scalar);

// Host side: the problem and the shapes of the wanted outputs (a, s may be absent).
std::vector<uint8_t> encode_forward(uint32_t variant_index, const awb_problem& problem,
                                    const awb_results& results);

// The parameter values a decoded problem points at (names and values owned here).
// The runner's buffers for one request's tensors, each 8-byte aligned, each freed with it.
using TensorStorage = std::vector<std::unique_ptr<double[]>>;

// What a decoded problem points to besides its tensors: its parameters and its sequences'
// lengths (the padding mask).
struct ParamStorage {
  std::vector<std::string> names;
  std::vector<awb_param_value> values;
  std::vector<int64_t> lengths;
};

// Runner side: a request decoded into buffers it owns; outputs pre-filled with NaN.
struct DecodedForward {
  uint32_t variant_index = 0;
  awb_problem problem{};
  awb_results results{};
  TensorStorage storage;  // 8-byte aligned backing of every tensor
  ParamStorage params;
};
std::optional<DecodedForward> decode_forward(std::span<const uint8_t> payload);

// Runner side: status, message and the wanted outputs' data.
std::vector<uint8_t> encode_result(awb_status status, bool allocation_failed,
                                   const std::string& message, const DecodedForward& request);

// Host side: checks the payload has exactly the expected layout and copies the outputs into
// `results` (whose shapes are the ones the host asked for). nullopt when malformed.
struct ResultHead {
  awb_status status = AWB_OK;
  bool allocation_failed = false;
  std::string message;
};
std::optional<ResultHead> decode_result(const std::vector<uint8_t>& payload, awb_scalar scalar,
                                        awb_results& results);
// The largest result payload a forward request with these outputs may be answered with.
size_t max_result_size(const awb_results& results, awb_scalar scalar);

// The backward pass (AWB_EXT_BACKWARD). Host side: the problem, its forward results (z, and a
// and s where kept), dZ, dA (null when absent) with their data, and the shapes of the wanted
// gradients (the host's buffers; present exactly where the problem has the matching input).
std::vector<uint8_t> encode_backward(uint32_t variant_index, const awb_problem& problem,
                                     const awb_results& forward, const awb_tensor& dz,
                                     const awb_tensor* da, const awb_gradients& grads);

// Runner side: every shape is checked against the problem's before anything is allocated;
// gradient buffers are pre-filled with NaN. `da.data` is null when the host sent no dA.
struct DecodedBackward {
  uint32_t variant_index = 0;
  awb_problem problem{};
  awb_results forward{};
  awb_tensor dz{}, da{};
  awb_gradients grads{};
  TensorStorage storage;
  ParamStorage params;
};
std::optional<DecodedBackward> decode_backward(std::span<const uint8_t> payload);

// Runner side: status, message and, on success, each gradient the plugin left in `left` (the
// descriptors it was handed, which it may have rewritten): its slot, the element count its
// descriptor claims, and the data of the runner's own buffer up to that count. The host judges
// the counts; the runner neither trusts nor follows the plugin's pointers.
std::vector<uint8_t> encode_backward_result(awb_status status, bool allocation_failed,
                                            const std::string& message,
                                            const DecodedBackward& request,
                                            const awb_gradients& left);

// Host side: checks that exactly the requested gradients come back, each with the count of the
// buffer the host shaped, and copies them into `grads`. nullopt when malformed, with `why`
// naming what was wrong (a missing, extra or mis-sized gradient, a frame cut short).
std::optional<ResultHead> decode_backward_result(const std::vector<uint8_t>& payload,
                                                 awb_scalar scalar, awb_gradients& grads,
                                                 std::string& why);
size_t max_backward_result_size(const awb_gradients& grads, awb_scalar scalar);

// The cost extension (AWB_EXT_COST). Host side: the problem's shapes, flags and parameters (no
// data) and whether the pass writes A and S.
std::vector<uint8_t> encode_cost(uint32_t variant_index, const awb_problem& problem,
                                 bool writes_weights);
// Runner side: the problem rebuilt with shapes only (every tensor's data null, rank and shape
// set), as cost() expects it.
struct DecodedCost {
  uint32_t variant_index = 0;
  awb_problem problem{};
  bool writes_weights = false;
  ParamStorage params;
};
std::optional<DecodedCost> decode_cost(std::span<const uint8_t> payload);
// Runner side: status, message and, on success, the FLOP and byte counts.
std::vector<uint8_t> encode_cost_result(awb_status status, const std::string& message,
                                        const awb_cost& cost);
// Host side; nullopt when malformed.
std::optional<ResultHead> decode_cost_result(const std::vector<uint8_t>& payload, awb_cost& cost);

}  // namespace awb::runner

#endif  // AWB_RUNNER_PROTOCOL_HPP_
