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
#include <optional>
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

// The runner links nothing of the host's libraries, so it keeps this one of its own.
std::string join_notes(const std::vector<std::string>& notes) {
  std::string out;
  for (const auto& n : notes) out += (out.empty() ? "" : "; ") + n;
  return out;
}

bool send_failure(int fd, const char* stage, std::string message, const char* system) {
  return wire::send_frame(fd, wire::Type::kLoadFailed, 0, 0,
                          encode(LoadFailed{stage, std::move(message), system ? system : ""}));
}

// The plugin opened from `plugin_fd` and its descriptor; nullptr, after the host has been told
// why, when it cannot be loaded.
const awb_plugin_descriptor* open_plugin(boost::dll::shared_library& library, int plugin_fd,
                                         int result_fd) {
  const std::string path = "/proc/self/fd/" + std::to_string(plugin_fd);
  boost::dll::fs::error_code ec;
  ::dlerror();
  library.load(path, boost::dll::load_mode::rtld_now | boost::dll::load_mode::rtld_local, ec);
  if (ec || !library.is_loaded()) {
    send_failure(result_fd, "open", "cannot load the shared library", ::dlerror());
    return nullptr;
  }
  if (!library.has(AWB_ENTRY_SYMBOL)) {
    send_failure(result_fd, "entry-symbol",
                 std::string("the library exports no '") + AWB_ENTRY_SYMBOL +
                     "' (build it with awb_add_plugin() and AWB_EXPORT_PLUGIN)",
                 ::dlerror());
    return nullptr;
  }
  return library.get<const awb_plugin_descriptor*()>(AWB_ENTRY_SYMBOL)();
}

// One plugin call on an instance: its status, with the plugin's message in `error`.
using Call = std::function<awb_status(void* instance, char* error, size_t capacity)>;

// The plugin's variants as requests reach them: each instance is created on first use, and
// every call is fenced (an exception stops at the boundary; a failed `new` is noted).
class Variants {
 public:
  Variants(const awb_plugin_descriptor* descriptor, const Hello& hello)
      : descriptor_(descriptor),
        hello_(hello),
        instances_(size(), nullptr),
        created_(size(), false) {}

  size_t size() const { return hello_.descriptor.variants.size(); }
  const awb_variant* at(size_t v) const { return v < size() ? descriptor_->variants[v] : nullptr; }
  const char* message() const { return message_; }

  // Calls `call` on variant #v's instance. `call` is null when the variant cannot do what was
  // asked: then `missing` is the message.
  awb_status invoke(size_t v, const Call& call, const char* missing) {
    message_[0] = '\0';
    awb_status status = AWB_ERR_INVALID_ARGUMENT;
    g_allocation_failed = false;
    std::set_new_handler(on_allocation_failure);
    if (v >= size() || !hello_.descriptor.variants[v].has_forward) {
      std::snprintf(message_, sizeof message_, "no variant #%zu", v);
    } else if (!call) {
      status = AWB_ERR_UNSUPPORTED;
      std::snprintf(message_, sizeof message_, "%s", missing);
    } else {
      // A plugin written against the C header alone may let an exception out; it stops here.
      try {
        status = create(v);
        if (status == AWB_OK) status = call(instances_[v], message_, sizeof message_);
      } catch (const std::exception& e) {
        status = AWB_ERR_INTERNAL;
        std::snprintf(message_, sizeof message_, "an exception escaped the plugin: %s", e.what());
      } catch (...) {
        status = AWB_ERR_INTERNAL;
        std::snprintf(message_, sizeof message_, "an exception of unknown type escaped the plugin");
      }
    }
    message_[sizeof message_ - 1] = '\0';
    return status;
  }

  void destroy_all() {
    for (size_t i = 0; i < size(); ++i)
      if (created_[i]) descriptor_->variants[i]->destroy(instances_[i]);
  }

 private:
  awb_status create(size_t v) {
    if (created_[v]) return AWB_OK;
    const awb_variant* variant = descriptor_->variants[v];
    const awb_status status = variant->create(variant, &instances_[v], message_, sizeof message_);
    created_[v] = status == AWB_OK;
    if (status != AWB_OK) {
      const std::string why = message_;
      std::snprintf(message_, sizeof message_, "create() failed: %s", why.c_str());
    }
    return status;
  }

  const awb_plugin_descriptor* descriptor_;
  const Hello& hello_;
  std::vector<void*> instances_;
  std::vector<bool> created_;
  char message_[4096] = {};
};

// Each request kind's answer, from its payload; nullopt for a payload that does not decode.
// `piped` (the payload's own buffer when it came through the pipe) is freed once decoded.
std::optional<std::vector<uint8_t>> answer_forward(Variants& variants,
                                                   std::span<const uint8_t> payload,
                                                   std::vector<uint8_t>& piped) {
  auto request = decode_forward(payload);
  piped = {};
  if (!request) return std::nullopt;
  const awb_variant* variant = variants.at(request->variant_index);
  const awb_status status = variants.invoke(
      request->variant_index,
      [&](void* instance, char* error, size_t capacity) {
        return variant->forward(instance, &request->problem, &request->results, error, capacity);
      },
      "");
  return encode_result(status, g_allocation_failed, variants.message(), *request);
}

std::optional<std::vector<uint8_t>> answer_cost(Variants& variants,
                                                std::span<const uint8_t> payload,
                                                std::vector<uint8_t>& piped) {
  auto request = decode_cost(payload);
  piped = {};
  if (!request) return std::nullopt;
  const awb_variant* variant = variants.at(request->variant_index);
  const awb_cost_ext* ext = cost_extension(variant);
  awb_cost cost{sizeof(awb_cost), 0, 0};
  Call call;
  if (ext)
    call = [&](void*, char* error, size_t capacity) {
      return ext->cost(variant, &request->problem, request->writes_weights, &cost, error, capacity);
    };
  const awb_status status = variants.invoke(request->variant_index, call, kNoCost);
  return encode_cost_result(status, variants.message(), cost);
}

std::optional<std::vector<uint8_t>> answer_backward(Variants& variants,
                                                    std::span<const uint8_t> payload,
                                                    std::vector<uint8_t>& piped) {
  auto request = decode_backward(payload);
  piped = {};
  if (!request) return std::nullopt;
  // The plugin gets a copy of the gradient descriptors: whatever it rewrites there is reported
  // as it claims, while the data always comes from the runner's own buffers.
  awb_gradients given = request->grads;
  const awb_backward_ext* ext = backward_extension(variants.at(request->variant_index));
  Call call;
  if (ext)
    call = [&](void* instance, char* error, size_t capacity) {
      return ext->backward(instance, &request->problem, &request->forward, &request->dz,
                           request->da.data ? &request->da : nullptr, &given, error, capacity);
    };
  const awb_status status = variants.invoke(request->variant_index, call, kNotTrainable);
  return encode_backward_result(status, g_allocation_failed, variants.message(), *request, given);
}

}  // namespace

int serve(int plugin_fd, const LockdownReport& report, int request_fd, int result_fd,
          const SharedRegion& region) {
  boost::dll::shared_library library;
  const awb_plugin_descriptor* descriptor = open_plugin(library, plugin_fd, result_fd);
  if (!descriptor) return 0;
  const Hello hello{report.reached, join_notes(report.notes), read_descriptor(descriptor)};
  if (!wire::send_frame(result_fd, wire::Type::kHello, 0, 0, encode(hello))) return 0;
  Variants variants(descriptor, hello);
  for (;;) {
    wire::Header h;
    wait_briefly(request_fd);
    if (!wire::read_all(request_fd, &h, sizeof h)) break;  // the host went away
    if (h.magic != wire::kMagic || h.version != wire::kVersion) return 3;
    if (h.type == static_cast<uint16_t>(wire::Type::kBye)) break;
    const auto type =
        static_cast<wire::Type>(h.type & static_cast<uint16_t>(~wire::kInSharedRegion));
    const auto answer_for = type == wire::Type::kForward    ? &answer_forward
                            : type == wire::Type::kCost     ? &answer_cost
                            : type == wire::Type::kBackward ? &answer_backward
                                                            : nullptr;
    if (!answer_for) return 3;
    // A payload in the region is decoded from there (the decoders copy what they keep), before
    // the result can overwrite it; one in the pipe is read whole first.
    std::vector<uint8_t> piped;
    std::span<const uint8_t> payload;
    if (SharedRegion::staged(h)) {
      if (!region.holds(h.payload_size)) return 3;
      payload = region.payload(h.payload_size);
    } else {
      piped.resize(h.payload_size);
      if (!wire::read_all(request_fd, piped.data(), piped.size())) return 3;
      payload = piped;
    }
    const auto answer = answer_for(variants, payload, piped);
    if (!answer) return 3;
    if (!region.send(result_fd, wire::Type::kResult, h.request_id, h.nonce, *answer)) break;
  }
  variants.destroy_all();
  ::_exit(0);
}

}  // namespace awb::runner
