// zygote_wire.hpp: how the host asks the runner zygote (`awb-runner --zygote FD`) for a runner,
// spelled once for both ends. One request is one SOCK_SEQPACKET message: the runner's argv, its
// environment and the descriptor numbers it is to find its pipes on, with the pipes themselves
// as SCM_RIGHTS in the same order; or kSpareRequest. The answer is one message, a ZygoteAnswer.
#ifndef AWB_RUNNER_ZYGOTE_WIRE_HPP_
#define AWB_RUNNER_ZYGOTE_WIRE_HPP_

#include <sys/types.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace awb::runner {

inline constexpr size_t kMaxZygoteRequest = 64 * 1024;
inline constexpr size_t kMaxZygoteDescriptors = 8;

// The answer: the new runner's pid (0 for a spare request, or a negative errno), and, for a
// spare request, the spare's pid (or -1), whose socket comes with the answer as its one
// descriptor (zygote.hpp).
struct ZygoteAnswer {
  int32_t runner = 0;
  int32_t spare = -1;
};
// A request for a spare alone: this message, without descriptors.
inline constexpr char kSpareRequest[4] = {'s', 'p', 'a', 'r'};

struct ZygoteRequest {
  std::vector<std::string> args;  // argv, args[0] the runner's path
  std::vector<std::string> env;   // NAME=value
  std::vector<int> targets;       // the descriptor number each passed descriptor becomes
};

// Encoded with the runner's wire Writer: the targets (count, then i32 each), then args and env
// (count, then length-prefixed strings). nullopt when it would not fit one message.
std::optional<std::vector<uint8_t>> encode(const ZygoteRequest& request);
// nullopt for anything malformed: a count or length past the bytes, bytes left over, a target
// below 0, too many targets, an empty argv.
std::optional<ZygoteRequest> decode_zygote_request(const uint8_t* data, size_t size);

// One message and `fds` (at most kMaxZygoteDescriptors) in one sendmsg; false with errno set.
bool send_with_descriptors(int socket, const std::vector<uint8_t>& bytes,
                           const std::vector<int>& fds);
// One message into `bytes` (resized to what arrived) and the descriptors that came with it,
// close-on-exec. Returns recvmsg's count: 0 when the other end closed, -1 with errno set; a
// message cut short (more bytes or descriptors than fit) is -1 with EMSGSIZE, its descriptors
// closed.
ssize_t receive_with_descriptors(int socket, std::vector<uint8_t>& bytes, std::vector<int>& fds);

}  // namespace awb::runner

#endif  // AWB_RUNNER_ZYGOTE_WIRE_HPP_
