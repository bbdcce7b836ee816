// serve.cpp: the runner's request loop. Every plugin call happens here, after lockdown.
#include "runner/serve.hpp"

#include <dlfcn.h>
#include <poll.h>
#include <unistd.h>

#include <atomic>
#include <boost/dll/shared_library.hpp>
#include <chrono>
#include <cstdio>
#include <exception>
#include <functional>
#include <new>
#include <span>
#include <string>
#include <thread>
#include <vector>

namespace awb::runner {
namespace {

std::atomic<bool> g_allocation_failed{false};

// Polls fd for up to 50 µs without sleeping, before the blocking read: a request that follows
// its answer at once (a warm loop of calls) then finds the runner awake, not asleep behind an
// interrupt from the host's CPU.
void wait_briefly(int fd) {
  const auto until = std::chrono::steady_clock::now() + std::chrono::microseconds(50);
  pollfd p{fd, POLLIN, 0};
  // Yielding between polls: on a busy CPU the spin must not hold off what else would run there.
  while (::poll(&p, 1, 0) == 0 && std::chrono::steady_clock::now() < until)
    std::this_thread::yield();
}

// The plugin shares the C++ runtime with the runner, so this sees its failed `new`s too: a
// request that ran out of address space is reported as a memory-limit fault, not a bug.
void on_allocation_failure() {
  g_allocation_failed = true;
  std::set_new_handler(nullptr);
  throw std::bad_alloc();
}

std::string join(const std::vector<std::string>& notes) {
  std::string out;
  for (const auto& n : notes) out += (out.empty() ? "" : "; ") + n;
  return out;
}

bool send_failure(int fd, const char* stage, std::string message, const char* system) {
  return wire::send_frame(fd, wire::Type::kLoadFailed, 0, 0,
                          encode(LoadFailed{stage, std::move(message), system ? system : ""}));
}

}  // namespace

int serve(int plugin_fd, const LockdownReport& report, int request_fd, int result_fd,
          const SharedRegion& region) {
  const std::string path = "/proc/self/fd/" + std::to_string(plugin_fd);
  boost::dll::shared_library library;
  boost::dll::fs::error_code ec;
  ::dlerror();
  library.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (ec || !library.is_loaded()) {
    send_failure(result_fd, "open", "cannot load the shared library", ::dlerror());
    return 0;
  }
  if (!library.has(AWB_ENTRY_SYMBOL)) {
    send_failure(result_fd, "entry-symbol",
                 std::string("the library exports no '") + AWB_ENTRY_SYMBOL +
                     "' (build it with awb_add_plugin() and AWB_EXPORT_PLUGIN)",
                 ::dlerror());
    return 0;
  }
  const auto* descriptor = library.get<const awb_plugin_descriptor*()>(AWB_ENTRY_SYMBOL)();
  Hello hello{report.reached, join(report.notes), read_descriptor(descriptor)};
  if (!wire::send_frame(result_fd, wire::Type::kHello, 0, 0, encode(hello))) return 0;
  const size_t n_variants = hello.descriptor.variants.size();

  std::vector<void*> instances(n_variants, nullptr);
  std::vector<bool> created(n_variants, false);
  auto destroy_all = [&] {
    for (size_t i = 0; i < n_variants; ++i)
      if (created[i]) descriptor->variants[i]->destroy(instances[i]);
  };
  char message[4096];
  // One plugin call on variant #v's instance (created on first use): the status, with the
  // plugin's message (or why it was not called) in `message`. `call` is null when the variant
  // cannot do what was asked.
  using Call = std::function<awb_status(void* instance, char* error, size_t capacity)>;
  auto invoke = [&](size_t v, const Call& call, const char* missing) {
    message[0] = '\0';
    awb_status status = AWB_ERR_INVALID_ARGUMENT;
    g_allocation_failed = false;
    std::set_new_handler(on_allocation_failure);
    if (v >= n_variants || !hello.descriptor.variants[v].has_forward) {
      std::snprintf(message, sizeof message, "no variant #%zu", v);
    } else if (!call) {
      status = AWB_ERR_UNSUPPORTED;
      std::snprintf(message, sizeof message, "%s", missing);
    } else {
      const awb_variant* variant = descriptor->variants[v];
      status = AWB_OK;
      // A plugin written against the C header alone may let an exception out; it stops here.
      try {
        if (!created[v]) {
          status = variant->create(variant, &instances[v], message, sizeof message);
          created[v] = status == AWB_OK;
          if (status != AWB_OK) {
            const std::string why = message;
            std::snprintf(message, sizeof message, "create() failed: %s", why.c_str());
          }
        }
        if (status == AWB_OK) status = call(instances[v], message, sizeof message);
      } catch (const std::exception& e) {
        status = AWB_ERR_INTERNAL;
        std::snprintf(message, sizeof message, "an exception escaped the plugin: %s", e.what());
      } catch (...) {
        status = AWB_ERR_INTERNAL;
        std::snprintf(message, sizeof message, "an exception of unknown type escaped the plugin");
      }
    }
    message[sizeof message - 1] = '\0';
    return status;
  };
  auto variant_at = [&](size_t v) { return v < n_variants ? descriptor->variants[v] : nullptr; };
  for (;;) {
    wire::Header h;
    wait_briefly(request_fd);
    if (!wire::read_all(request_fd, &h, sizeof h)) break;  // the host went away
    if (h.magic != wire::kMagic || h.version != wire::kVersion) return 3;
    if (h.type == static_cast<uint16_t>(wire::Type::kBye)) break;
    const bool in_region = SharedRegion::staged(h);
    const uint16_t type = h.type & static_cast<uint16_t>(~wire::kInSharedRegion);
    const bool is_forward = type == static_cast<uint16_t>(wire::Type::kForward);
    const bool is_cost = type == static_cast<uint16_t>(wire::Type::kCost);
    if (!is_forward && !is_cost && type != static_cast<uint16_t>(wire::Type::kBackward)) return 3;
    // A payload in the region is decoded from there (the decoders copy what they keep), before
    // the result can overwrite it; one in the pipe is read whole first.
    std::vector<uint8_t> piped;
    std::span<const uint8_t> payload;
    if (in_region) {
      if (!region.holds(h.payload_size)) return 3;
      payload = region.payload(h.payload_size);
    } else {
      piped.resize(h.payload_size);
      if (!wire::read_all(request_fd, piped.data(), piped.size())) return 3;
      payload = piped;
    }
    std::vector<uint8_t> answer;
    if (is_forward) {
      auto request = decode_forward(payload);
      piped = {};
      if (!request) return 3;
      const awb_variant* variant = variant_at(request->variant_index);
      const awb_status status = invoke(
          request->variant_index,
          [&](void* instance, char* error, size_t capacity) {
            return variant->forward(instance, &request->problem, &request->results, error,
                                    capacity);
          },
          "");
      answer = encode_result(status, g_allocation_failed, message, *request);
    } else if (is_cost) {
      auto request = decode_cost(payload);
      piped = {};
      if (!request) return 3;
      const awb_variant* variant = variant_at(request->variant_index);
      const awb_cost_ext* ext = cost_extension(variant);
      awb_cost cost{sizeof(awb_cost), 0, 0};
      Call call;
      if (ext)
        call = [&](void*, char* error, size_t capacity) {
          return ext->cost(variant, &request->problem, request->writes_weights, &cost, error,
                           capacity);
        };
      const awb_status status = invoke(request->variant_index, call, kNoCost);
      answer = encode_cost_result(status, message, cost);
    } else {
      auto request = decode_backward(payload);
      piped = {};
      if (!request) return 3;
      // The plugin gets a copy of the gradient descriptors: whatever it rewrites there is
      // reported as it claims, while the data always comes from the runner's own buffers.
      awb_gradients given = request->grads;
      const awb_backward_ext* ext = backward_extension(variant_at(request->variant_index));
      Call call;
      if (ext)
        call = [&](void* instance, char* error, size_t capacity) {
          return ext->backward(instance, &request->problem, &request->forward, &request->dz,
                               request->da.data ? &request->da : nullptr, &given, error, capacity);
        };
      const awb_status status = invoke(request->variant_index, call, kNotTrainable);
      answer = encode_backward_result(status, g_allocation_failed, message, *request, given);
    }
    if (!region.send(result_fd, wire::Type::kResult, h.request_id, h.nonce, answer)) break;
  }
  destroy_all();
  ::_exit(0);
}

}  // namespace awb::runner
