// zygote_wire.cpp: the zygote's request, encoded and checked, and messages that carry descriptors.
#include "runner/zygote_wire.hpp"

#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "runner/wire.hpp"

namespace awb::runner {
namespace {

void write_strings(wire::Writer& w, const std::vector<std::string>& list) {
  w.u32(static_cast<uint32_t>(list.size()));
  for (const auto& s : list) w.str(s);
}

bool read_strings(wire::Reader& r, std::vector<std::string>& list) {
  const uint32_t n = r.u32();
  if (!r.ok() || n > r.remaining() / sizeof(uint32_t)) return false;
  list.reserve(n);
  for (uint32_t i = 0; i < n && r.ok(); ++i) list.push_back(r.str(kMaxZygoteRequest));
  return r.ok();
}

// Room for the largest SCM_RIGHTS message either end accepts.
union ControlBuffer {
  char bytes[CMSG_SPACE(sizeof(int) * kMaxZygoteDescriptors)];
  cmsghdr align;
};

}  // namespace

std::optional<std::vector<uint8_t>> encode(const ZygoteRequest& request) {
  if (request.targets.size() > kMaxZygoteDescriptors) return std::nullopt;
  wire::Writer w;
  w.u32(static_cast<uint32_t>(request.targets.size()));
  for (int t : request.targets) w.i32(t);
  write_strings(w, request.args);
  write_strings(w, request.env);
  if (w.bytes().size() > kMaxZygoteRequest) return std::nullopt;
  return std::move(w.bytes());
}

std::optional<ZygoteRequest> decode_zygote_request(const uint8_t* data, size_t size) {
  wire::Reader r(data, size);
  ZygoteRequest out;
  const uint32_t targets = r.u32();
  if (!r.ok() || targets > kMaxZygoteDescriptors) return std::nullopt;
  for (uint32_t i = 0; i < targets; ++i) {
    const int32_t t = r.i32();
    if (!r.ok() || t < 0) return std::nullopt;
    out.targets.push_back(t);
  }
  if (!read_strings(r, out.args) || !read_strings(r, out.env) || !r.at_end() || out.args.empty())
    return std::nullopt;
  return out;
}

bool send_with_descriptors(int socket, const std::vector<uint8_t>& bytes,
                           const std::vector<int>& fds) {
  if (fds.size() > kMaxZygoteDescriptors) {
    errno = EINVAL;
    return false;
  }
  iovec iov{const_cast<uint8_t*>(bytes.data()), bytes.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  ControlBuffer control{};
  if (!fds.empty()) {
    msg.msg_control = control.bytes;
    msg.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
    cmsghdr* c = CMSG_FIRSTHDR(&msg);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
    std::memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  }
  for (;;) {
    const ssize_t n = ::sendmsg(socket, &msg, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n >= 0 && static_cast<size_t>(n) != bytes.size()) errno = EMSGSIZE;
    return n >= 0 && static_cast<size_t>(n) == bytes.size();
  }
}

ssize_t receive_with_descriptors(int socket, std::vector<uint8_t>& bytes, std::vector<int>& fds) {
  fds.clear();
  bytes.resize(kMaxZygoteRequest);
  iovec iov{bytes.data(), bytes.size()};
  msghdr msg{};
  msg.msg_iov = &iov;
  msg.msg_iovlen = 1;
  ControlBuffer control{};
  msg.msg_control = control.bytes;
  msg.msg_controllen = sizeof control.bytes;
  ssize_t n = 0;
  do {
    n = ::recvmsg(socket, &msg, MSG_CMSG_CLOEXEC);
  } while (n < 0 && errno == EINTR);
  if (n < 0) return n;
  for (cmsghdr* c = CMSG_FIRSTHDR(&msg); c; c = CMSG_NXTHDR(&msg, c)) {
    if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS) continue;
    const size_t count = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
    for (size_t i = 0; i < count; ++i) {
      int fd = -1;
      std::memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof fd);
      fds.push_back(fd);
    }
  }
  bytes.resize(static_cast<size_t>(n));
  if (msg.msg_flags & (MSG_TRUNC | MSG_CTRUNC)) {
    for (int fd : fds) ::close(fd);
    fds.clear();
    errno = EMSGSIZE;
    return -1;
  }
  return n;
}

}  // namespace awb::runner
