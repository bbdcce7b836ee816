// protocol.cpp: encoding and defensive decoding of runner messages.
#include "runner/protocol.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <tuple>
#include <utility>

namespace awb::runner {
namespace {

constexpr size_t kMaxString = 4096;
constexpr int64_t kMaxElements = int64_t{1} << 31;

// A string of the host's own, as far as kMaxString.
std::string bounded(const char* s) { return s ? std::string(s, ::strnlen(s, kMaxString)) : ""; }

// One of the plugin's strings, read without trusting where it ends: the kernel looks first
// (access(2) copies a path from memory and answers EFAULT where that memory cannot be read), and
// only then is it scanned, no further than kMaxString bytes. A string that is not readable up
// to a NUL within them (one left unterminated at the end of a mapping read on into unmapped
// memory: SIGSEGV in the reader) sets `unreadable` to `field`, when it holds nothing yet.
std::string plugin_string(const char* s, std::string& unreadable, const std::string& field) {
  if (!s) return "";
  errno = 0;
  const bool faulted = ::access(s, F_OK) != 0 && errno == EFAULT;
  const size_t n = faulted ? kMaxString : ::strnlen(s, kMaxString);
  if (n == kMaxString) {
    if (unreadable.empty()) unreadable = field;
    return "";
  }
  return std::string(s, n);
}

template <class S>
S copy_declared(const S* raw) {
  S out{};
  std::memcpy(static_cast<void*>(&out), raw, std::min<size_t>(raw->struct_size, sizeof(S)));
  return out;
}

int64_t element_count(const awb_tensor& t) {
  int64_t n = 1;
  for (int i = 0; i < t.rank; ++i) n *= t.shape[i];
  return n;
}

// Where row `row` of a row-major tensor starts in its buffer (in elements), whatever its strides;
// a "row" is a run of the innermost dimension.
int64_t row_offset(const awb_tensor& t, int64_t row) {
  if (t.rank == 2) return row * t.stride[0];
  if (t.rank == 3) return (row / t.shape[1]) * t.stride[0] + (row % t.shape[1]) * t.stride[1];
  return 0;
}
int64_t row_length(const awb_tensor& t) { return t.shape[t.rank - 1]; }
int64_t row_count(const awb_tensor& t) {
  return element_count(t) / std::max<int64_t>(row_length(t), 1);
}

// Present flag, rank and shape; with `data`, the elements packed row-major.
void put_tensor(wire::Writer& w, const awb_tensor& t, size_t elem, bool data) {
  w.u8(t.data != nullptr);
  if (!t.data) return;
  w.i32(t.rank);
  for (int i = 0; i < 3; ++i) w.i64(i < t.rank ? t.shape[i] : 1);
  if (!data) return;
  const auto* base = static_cast<const uint8_t*>(t.data);
  for (int64_t r = 0; r < row_count(t); ++r)
    w.raw(base + row_offset(t, r) * static_cast<int64_t>(elem),
          static_cast<size_t>(row_length(t)) * elem);
}

// Present flag, rank and shape of a tensor that may carry no data (a cost query's).
void put_shape(wire::Writer& w, const awb_tensor& t) {
  const bool present = t.data != nullptr || t.rank > 0;
  w.u8(present);
  if (!present) return;
  w.i32(t.rank);
  for (int i = 0; i < 3; ++i) w.i64(i < t.rank ? t.shape[i] : 1);
}

// Reads packed row-major elements into `t`'s buffer, honouring its strides; false when short.
bool get_packed(wire::Reader& r, awb_tensor& t, size_t elem) {
  auto* base = static_cast<uint8_t*>(t.data);
  for (int64_t row = 0; row < row_count(t); ++row)
    if (!r.raw(base + row_offset(t, row) * static_cast<int64_t>(elem),
               static_cast<size_t>(row_length(t)) * elem))
      return false;
  return true;
}

// A tensor header as read, before any storage exists for it.
struct TensorHead {
  bool present = false;
  int32_t rank = 0;
  int64_t shape[3] = {1, 1, 1};
  int64_t count = 0;
};

// Reads a present flag, rank and shape; false when malformed or larger than any request allows.
bool get_head(wire::Reader& r, TensorHead& h) {
  h = TensorHead{};
  const uint8_t present = r.u8();
  if (!r.ok() || present > 1) return false;
  h.present = present;
  if (!present) return true;
  h.rank = r.i32();
  if (h.rank < 1 || h.rank > 3) return false;
  h.count = 1;
  for (int i = 0; i < 3; ++i) {
    const int64_t s = r.i64();
    if (s < 0 || (i >= h.rank && s != 1)) return false;
    h.shape[i] = s;
    if (s > 0 && h.count > kMaxElements / s) return false;
    h.count *= s;
  }
  return r.ok();
}

// Gives a read header contiguous 8-byte aligned storage: its packed elements from `r` when
// `data` (refused when the payload is shorter than they are), else NaN. Absent stays null.
bool attach(wire::Reader& r, const TensorHead& h, awb_tensor& t, size_t elem, bool data,
            TensorStorage& storage) {
  t = awb_tensor{};
  if (!h.present) return true;
  t.rank = h.rank;
  for (int i = 0; i < 3; ++i) t.shape[i] = h.shape[i];
  for (int i = t.rank - 1, st = 1; i >= 0; st *= static_cast<int>(t.shape[i]), --i)
    t.stride[i] = st;
  const size_t bytes = static_cast<size_t>(h.count) * elem;
  if (data && bytes > r.remaining()) return false;
  // Not zeroed first: every byte is copied in or set to NaN below (the padding word is never read).
  t.data =
      storage.emplace_back(std::make_unique_for_overwrite<double[]>((bytes + 7) / 8 + 1)).get();
  if (data) return r.raw(t.data, bytes);
  if (elem == sizeof(double))
    std::fill_n(static_cast<double*>(t.data), h.count, std::numeric_limits<double>::quiet_NaN());
  else
    std::fill_n(static_cast<float*>(t.data), h.count, std::numeric_limits<float>::quiet_NaN());
  return true;
}

bool get_tensor(wire::Reader& r, awb_tensor& t, size_t elem, bool data, TensorStorage& storage) {
  TensorHead h;
  return get_head(r, h) && attach(r, h, t, elem, data, storage);
}

// The problem's scalars and inputs (x required), shared by forward and backward requests.
// The problem's flags and parameter values (everything but its tensors).
void put_flags(wire::Writer& w, const awb_problem& p) {
  w.i32(p.scalar);
  w.i32(p.n_heads);
  w.i32(p.n_kv_heads);
  w.i32(p.causal);
  w.i32(p.scale_mode);
  w.i32(p.n_threads);
  w.f64(p.sharpness);
  const size_t n = p.params ? p.n_params : 0;
  w.u32(static_cast<uint32_t>(n));
  for (size_t i = 0; i < n; ++i) {
    w.str(bounded(p.params[i].name));
    w.f64(p.params[i].value);
  }
  // SDK 1.3: the batch and the padding mask (no lengths: every sequence whole).
  w.i32(p.batch);
  const size_t sequences = p.lengths ? static_cast<size_t>(std::max(p.batch, 1)) : 0;
  w.u32(static_cast<uint32_t>(sequences));
  for (size_t b = 0; b < sequences; ++b) w.i64(p.lengths[b]);
}

bool get_flags(wire::Reader& r, awb_problem& p, ParamStorage& params) {
  p.struct_size = sizeof(awb_problem);
  const int32_t scalar = r.i32();
  if (scalar != AWB_SCALAR_F64 && scalar != AWB_SCALAR_F32) return false;
  p.scalar = static_cast<awb_scalar>(scalar);
  p.n_heads = r.i32();
  p.n_kv_heads = r.i32();
  p.causal = r.i32();
  const int32_t scale = r.i32();
  if (scale != AWB_SCALE_NONE && scale != AWB_SCALE_INV_SQRT_DK) return false;
  p.scale_mode = static_cast<awb_scale_mode>(scale);
  p.n_threads = r.i32();
  p.sharpness = r.f64();
  const uint32_t n = r.u32();
  if (!r.ok() || n > kMaxParams) return false;
  params.names.resize(n);
  params.values.resize(n);
  for (uint32_t i = 0; i < n; ++i) {
    params.names[i] = r.str(64);
    params.values[i].value = r.f64();
  }
  for (uint32_t i = 0; i < n; ++i) params.values[i].name = params.names[i].c_str();
  p.n_params = n;
  p.params = n ? params.values.data() : nullptr;
  p.batch = r.i32();
  const uint32_t sequences = r.u32();
  if (!r.ok() || sequences > kMaxSequences ||
      (sequences && int64_t(sequences) != std::max(p.batch, 1)))
    return false;
  params.lengths.resize(sequences);
  for (uint32_t b = 0; b < sequences; ++b) params.lengths[b] = r.i64();
  p.lengths = sequences ? params.lengths.data() : nullptr;
  return r.ok();
}

// The problem's flags, parameters and inputs (x required), shared by forward and backward.
void put_problem(wire::Writer& w, const awb_problem& p) {
  put_flags(w, p);
  const size_t elem = element_size(p.scalar);
  for (const awb_tensor* t : {&p.x, &p.w_q, &p.w_k, &p.w_v, &p.w_o}) put_tensor(w, *t, elem, true);
}

bool get_problem(wire::Reader& r, awb_problem& p, TensorStorage& storage, ParamStorage& params) {
  if (!get_flags(r, p, params)) return false;
  const size_t elem = element_size(p.scalar);
  for (awb_tensor* t : {&p.x, &p.w_q, &p.w_k, &p.w_v, &p.w_o})
    if (!get_tensor(r, *t, elem, true, storage)) return false;
  return r.ok() && p.x.data && p.x.rank == 2;
}

// Status, allocation flag and message: the head of every result frame.
void put_result_head(wire::Writer& w, awb_status status, bool allocation_failed,
                     const std::string& message) {
  w.u32(static_cast<uint32_t>(status));
  w.u8(allocation_failed);
  w.str(message.substr(0, kMaxString));
}
constexpr size_t kResultHeadBound = 4 + 1 + 4 + kMaxString;

std::optional<ResultHead> get_result_head(wire::Reader& r) {
  ResultHead h;
  const uint32_t status = r.u32();
  if (status > AWB_ERR_INTERNAL) return std::nullopt;
  h.status = static_cast<awb_status>(status);
  const uint8_t alloc = r.u8();
  if (alloc > 1) return std::nullopt;
  h.allocation_failed = alloc;
  h.message = r.str(kMaxString);
  if (!r.ok()) return std::nullopt;
  return h;
}

bool same_shape(const TensorHead& h, const awb_tensor& t) {
  if (h.present != (t.data != nullptr)) return false;
  if (!h.present) return true;
  if (h.rank != t.rank) return false;
  for (int i = 0; i < t.rank; ++i)
    if (h.shape[i] != t.shape[i]) return false;
  return true;
}

// h × T × T, as A, S and dA are.
bool is_head_planes(const TensorHead& h, const awb_problem& p) {
  return h.rank == 3 && h.shape[0] == p.n_heads && h.shape[1] == p.x.shape[0] &&
         h.shape[2] == p.x.shape[0];
}

// The gradients in wire order, each with its name and the input it belongs to.
constexpr const char* kGradientNames[] = {"dX", "dW_q", "dW_k", "dW_v", "dW_o"};
std::array<awb_tensor*, 5> gradient_slots(awb_gradients& g) {
  return {&g.dx, &g.dw_q, &g.dw_k, &g.dw_v, &g.dw_o};
}
std::array<const awb_tensor*, 5> gradient_slots(const awb_gradients& g) {
  return {&g.dx, &g.dw_q, &g.dw_k, &g.dw_v, &g.dw_o};
}
static_assert(std::size(kGradientNames) ==
                  std::tuple_size_v<decltype(gradient_slots(std::declval<awb_gradients&>()))>,
              "a name per gradient slot");
std::array<const awb_tensor*, 5> input_slots(const awb_problem& p) {
  return {&p.x, &p.w_q, &p.w_k, &p.w_v, &p.w_o};
}

// The element count a descriptor the plugin may have rewritten claims, saturating rather than
// overflowing (a rank out of range claims nothing).
uint64_t claimed_count(const awb_tensor& t) {
  if (t.rank < 1 || t.rank > 3) return 0;
  uint64_t n = 1;
  for (int i = 0; i < t.rank; ++i) {
    const uint64_t s = t.shape[i] < 0 ? 0 : static_cast<uint64_t>(t.shape[i]);
    n = s != 0 && n > static_cast<uint64_t>(kMaxElements) / s ? kMaxElements + uint64_t{1} : n * s;
  }
  return n;
}

std::string shape_text(const awb_tensor& t) {
  std::string s;
  for (int i = 0; i < t.rank; ++i) s += (i ? " x " : "") + std::to_string(t.shape[i]);
  return s;
}

void put_descriptor(wire::Writer& w, const RawDescriptor& d) {
  w.u8(d.present);
  w.u64(d.struct_size);
  w.u32(d.abi_major);
  w.u32(d.abi_minor);
  for (const auto* s : {&d.id, &d.name, &d.version, &d.author, &d.description, &d.unreadable})
    w.str(*s);
  w.u64(d.n_variants);
  w.u8(d.has_variants);
  w.u32(static_cast<uint32_t>(d.variants.size()));
  for (const auto& v : d.variants) {
    w.u8(v.present);
    w.u64(v.struct_size);
    w.str(v.id);
    w.str(v.name);
    w.str(v.description);
    w.u64(v.capabilities);
    w.u8(static_cast<uint8_t>(v.has_create | v.has_destroy << 1 | v.has_forward << 2 |
                              v.has_backward << 3 | v.has_cost << 4 | v.params_valid << 5));
    w.u32(static_cast<uint32_t>(v.params.size()));
    for (const auto& p : v.params) {
      w.str(p.name);
      w.str(p.doc);
      w.i32(p.type);
      w.f64(p.default_value);
      w.f64(p.min_value);
      w.f64(p.max_value);
      w.u32(static_cast<uint32_t>(p.choices.size()));
      for (const auto& c : p.choices) w.str(c);
    }
  }
}

bool get_descriptor(wire::Reader& r, RawDescriptor& d) {
  d.present = r.u8();
  d.struct_size = r.u64();
  d.abi_major = r.u32();
  d.abi_minor = r.u32();
  for (auto* s : {&d.id, &d.name, &d.version, &d.author, &d.description, &d.unreadable})
    *s = r.str(kMaxString);
  d.n_variants = r.u64();
  d.has_variants = r.u8();
  const uint32_t n = r.u32();
  if (!r.ok() || n > kMaxVariants) return false;
  d.variants.resize(n);
  for (auto& v : d.variants) {
    v.present = r.u8();
    v.struct_size = r.u64();
    v.id = r.str(kMaxString);
    v.name = r.str(kMaxString);
    v.description = r.str(kMaxString);
    v.capabilities = r.u64();
    const uint8_t fns = r.u8();
    v.has_create = fns & 1;
    v.has_destroy = fns & 2;
    v.has_forward = fns & 4;
    v.has_backward = fns & 8;
    v.has_cost = fns & 16;
    v.params_valid = fns & 32;
    const uint32_t n_params = r.u32();
    if (!r.ok() || n_params > kMaxParams) return false;
    v.params.resize(n_params);
    for (auto& p : v.params) {
      p.name = r.str(kMaxString);
      p.doc = r.str(kMaxString);
      p.type = r.i32();
      p.default_value = r.f64();
      p.min_value = r.f64();
      p.max_value = r.f64();
      const uint32_t n_choices = r.u32();
      if (!r.ok() || n_choices > kMaxChoices) return false;
      p.choices.resize(n_choices);
      for (auto& c : p.choices) c = r.str(kMaxString);
    }
  }
  return r.ok();
}

// The variant's declared parameters, each read as far as its struct_size covers; false when
// the list cannot be read (too long, a NULL entry, too many choices).
bool read_params(const awb_variant& v, std::vector<RawParam>& out, std::string& unreadable,
                 const std::string& where) {
  if (v.n_params == 0) return true;
  if (!v.params || v.n_params > kMaxParams) return false;
  for (size_t i = 0; i < v.n_params; ++i) {
    const awb_param_decl* raw = v.params[i];
    if (!raw || raw->struct_size < offsetof(awb_param_decl, max_value) + sizeof(double))
      return false;
    const awb_param_decl d = copy_declared(raw);
    RawParam& p = out.emplace_back();
    const std::string which = where + " parameter #" + std::to_string(i + 1);
    p.name = plugin_string(d.name, unreadable, which + " name");
    p.doc = plugin_string(d.doc, unreadable, which + " doc");
    p.type = static_cast<int32_t>(d.type);
    p.default_value = d.default_value;
    p.min_value = d.min_value;
    p.max_value = d.max_value;
    if (d.n_choices > 0) {
      if (!d.choices || d.n_choices > kMaxChoices) return false;
      for (size_t c = 0; c < d.n_choices; ++c) {
        if (!d.choices[c]) return false;
        p.choices.push_back(plugin_string(d.choices[c], unreadable, which + " choice"));
      }
    }
  }
  return true;
}

}  // namespace

const char* to_string(Isolation level) {
  for (const auto& entry : kIsolationNames)
    if (entry.level == level) return entry.name;
  return "unknown";
}

std::optional<Isolation> parse_isolation(const std::string& name) {
  for (const auto& entry : kIsolationNames)
    if (name == entry.name) return entry.level;
  return std::nullopt;
}

RawDescriptor read_descriptor(const awb_plugin_descriptor* raw) {
  RawDescriptor d;
  if (!raw) return d;
  d.present = true;
  d.struct_size = raw->struct_size;
  constexpr size_t kHeader = offsetof(awb_plugin_descriptor, abi_minor) + sizeof(uint32_t);
  if (raw->struct_size < kHeader) return d;
  d.abi_major = raw->abi_major;
  d.abi_minor = raw->abi_minor;
  constexpr size_t kRequired = offsetof(awb_plugin_descriptor, variants) + sizeof(void*);
  if (d.abi_major != AWB_ABI_MAJOR || raw->struct_size < kRequired) return d;
  const awb_plugin_descriptor c = copy_declared(raw);
  d.id = plugin_string(c.id, d.unreadable, "the plugin id");
  d.name = plugin_string(c.name, d.unreadable, "the plugin name");
  d.version = plugin_string(c.version, d.unreadable, "the plugin version");
  d.author = plugin_string(c.author, d.unreadable, "the plugin author");
  d.description = plugin_string(c.description, d.unreadable, "the plugin description");
  d.n_variants = c.n_variants;
  d.has_variants = c.variants != nullptr;
  if (!d.has_variants || c.n_variants < 1 || c.n_variants > kMaxVariants) return d;
  for (size_t i = 0; i < c.n_variants; ++i) {
    RawVariant& v = d.variants.emplace_back();
    const awb_variant* rv = c.variants[i];
    if (!rv) continue;
    v.present = true;
    v.struct_size = rv->struct_size;
    if (rv->struct_size < offsetof(awb_variant, forward) + sizeof(void*)) continue;
    const awb_variant cv = copy_declared(rv);
    const std::string where = "variant #" + std::to_string(i + 1);
    v.id = plugin_string(cv.id, d.unreadable, where + " id");
    v.name = plugin_string(cv.name, d.unreadable, where + " name");
    v.description = plugin_string(cv.description, d.unreadable, where + " description");
    v.capabilities = cv.capabilities;
    v.has_create = cv.create != nullptr;
    v.has_destroy = cv.destroy != nullptr;
    v.has_forward = cv.forward != nullptr;
    v.has_backward = backward_extension(rv) != nullptr;
    v.has_cost = cost_extension(rv) != nullptr;
    if (rv->struct_size >= offsetof(awb_variant, params) + sizeof(void*))
      v.params_valid = read_params(cv, v.params, d.unreadable, where);
  }
  return d;
}

const awb_backward_ext* backward_extension(const awb_variant* variant) {
  constexpr size_t kCovers = offsetof(awb_variant, get_extension) + sizeof(void*);
  if (!variant || variant->struct_size < kCovers || !variant->get_extension) return nullptr;
  const auto* ext =
      static_cast<const awb_backward_ext*>(variant->get_extension(variant, AWB_EXT_BACKWARD));
  // The table is read only as far as its struct_size says it reaches.
  if (!ext || ext->struct_size < offsetof(awb_backward_ext, backward) + sizeof(ext->backward))
    return nullptr;
  return ext->backward ? ext : nullptr;
}

const awb_cost_ext* cost_extension(const awb_variant* variant) {
  constexpr size_t kCovers = offsetof(awb_variant, get_extension) + sizeof(void*);
  if (!variant || variant->struct_size < kCovers || !variant->get_extension) return nullptr;
  const auto* ext = static_cast<const awb_cost_ext*>(variant->get_extension(variant, AWB_EXT_COST));
  if (!ext || ext->struct_size < offsetof(awb_cost_ext, cost) + sizeof(ext->cost)) return nullptr;
  return ext->cost ? ext : nullptr;
}

std::vector<uint8_t> encode(const Hello& hello) {
  wire::Writer w;
  w.u8(static_cast<uint8_t>(hello.level));
  w.str(hello.notes);
  put_descriptor(w, hello.descriptor);
  return std::move(w.bytes());
}

std::optional<Hello> decode_hello(const std::vector<uint8_t>& payload) {
  wire::Reader r(payload.data(), payload.size());
  Hello h;
  const uint8_t level = r.u8();
  if (level < 1 || level > 3) return std::nullopt;
  h.level = static_cast<Isolation>(level);
  h.notes = r.str(kMaxString);
  if (!get_descriptor(r, h.descriptor) || !r.at_end()) return std::nullopt;
  return h;
}

std::vector<uint8_t> encode(const LoadFailed& failure) {
  wire::Writer w;
  w.str(failure.stage);
  w.str(failure.message);
  w.str(failure.system_error);
  return std::move(w.bytes());
}

std::optional<LoadFailed> decode_load_failed(const std::vector<uint8_t>& payload) {
  wire::Reader r(payload.data(), payload.size());
  LoadFailed f;
  f.stage = r.str(64);
  f.message = r.str(kMaxString);
  f.system_error = r.str(kMaxString);
  if (!r.ok() || !r.at_end()) return std::nullopt;
  return f;
}

size_t element_size(awb_scalar scalar) {
  return scalar == AWB_SCALAR_F32 ? sizeof(float) : sizeof(double);
}

std::vector<uint8_t> encode_forward(uint32_t variant_index, const awb_problem& p,
                                    const awb_results& results) {
  wire::Writer w;
  const size_t elem = element_size(p.scalar);
  w.u32(variant_index);
  put_problem(w, p);
  for (const awb_tensor* t : {&results.z, &results.a, &results.s}) put_tensor(w, *t, elem, false);
  return std::move(w.bytes());
}

std::optional<DecodedForward> decode_forward(std::span<const uint8_t> payload) {
  wire::Reader r(payload.data(), payload.size());
  DecodedForward d;
  d.variant_index = r.u32();
  if (!get_problem(r, d.problem, d.storage, d.params)) return std::nullopt;
  const size_t elem = element_size(d.problem.scalar);
  d.results.struct_size = sizeof(awb_results);
  for (awb_tensor* t : {&d.results.z, &d.results.a, &d.results.s})
    if (!get_tensor(r, *t, elem, false, d.storage)) return std::nullopt;
  if (!r.ok() || !r.at_end() || !d.results.z.data) return std::nullopt;
  return d;
}

std::vector<uint8_t> encode_result(awb_status status, bool allocation_failed,
                                   const std::string& message, const DecodedForward& request) {
  wire::Writer w;
  put_result_head(w, status, allocation_failed, message);
  if (status == AWB_OK) {
    const size_t elem = element_size(request.problem.scalar);
    for (const awb_tensor* t : {&request.results.z, &request.results.a, &request.results.s})
      if (t->data) w.raw(t->data, static_cast<size_t>(element_count(*t)) * elem);
  }
  return std::move(w.bytes());
}

std::optional<ResultHead> decode_result(const std::vector<uint8_t>& payload, awb_scalar scalar,
                                        awb_results& results) {
  wire::Reader r(payload.data(), payload.size());
  auto h = get_result_head(r);
  if (!h) return std::nullopt;
  if (h->status != AWB_OK) return r.at_end() ? h : std::nullopt;
  // Outputs come packed row-major in the order z, a, s; scatter them into the host's strides.
  const size_t elem = element_size(scalar);
  for (awb_tensor* t : {&results.z, &results.a, &results.s})
    if (t->data && !get_packed(r, *t, elem)) return std::nullopt;
  if (!r.at_end()) return std::nullopt;
  return h;
}

size_t max_result_size(const awb_results& results, awb_scalar scalar) {
  size_t bytes = kResultHeadBound;
  for (const awb_tensor* t : {&results.z, &results.a, &results.s})
    if (t->data) bytes += static_cast<size_t>(element_count(*t)) * element_size(scalar);
  return bytes;
}

std::vector<uint8_t> encode_backward(uint32_t variant_index, const awb_problem& p,
                                     const awb_results& forward, const awb_tensor& dz,
                                     const awb_tensor* da, const awb_gradients& grads) {
  wire::Writer w;
  const size_t elem = element_size(p.scalar);
  w.u32(variant_index);
  put_problem(w, p);
  for (const awb_tensor* t : {&forward.z, &forward.a, &forward.s}) put_tensor(w, *t, elem, true);
  put_tensor(w, dz, elem, true);
  put_tensor(w, da ? *da : awb_tensor{}, elem, true);
  for (const awb_tensor* t : gradient_slots(grads)) put_tensor(w, *t, elem, false);
  return std::move(w.bytes());
}

std::optional<DecodedBackward> decode_backward(std::span<const uint8_t> payload) {
  wire::Reader r(payload.data(), payload.size());
  DecodedBackward d;
  d.variant_index = r.u32();
  awb_problem& p = d.problem;
  if (!get_problem(r, p, d.storage, d.params) || p.n_heads < 1) return std::nullopt;
  const size_t elem = element_size(p.scalar);
  const int64_t T = p.x.shape[0];
  // Z is T × d_out; A and S (where kept) and dA (where sent) are h × T × T; dZ is Z's shape.
  TensorHead z, a, s, dz, da;
  d.forward.struct_size = sizeof(awb_results);
  if (!get_head(r, z) || !z.present || z.rank != 2 || z.shape[0] != T ||
      !attach(r, z, d.forward.z, elem, true, d.storage))
    return std::nullopt;
  for (auto [head, t] : {std::pair{&a, &d.forward.a}, std::pair{&s, &d.forward.s}})
    if (!get_head(r, *head) || (head->present && !is_head_planes(*head, p)) ||
        !attach(r, *head, *t, elem, true, d.storage))
      return std::nullopt;
  if (!get_head(r, dz) || !same_shape(dz, d.forward.z) ||
      !attach(r, dz, d.dz, elem, true, d.storage))
    return std::nullopt;
  if (!get_head(r, da) || (da.present && !is_head_planes(da, p)) ||
      !attach(r, da, d.da, elem, true, d.storage))
    return std::nullopt;
  // Every gradient has its input's shape and exists exactly where the input does: all five
  // headers are checked before any gradient buffer is allocated.
  d.grads.struct_size = sizeof(awb_gradients);
  TensorHead heads[5];
  const auto inputs = input_slots(p);
  for (size_t i = 0; i < 5; ++i)
    if (!get_head(r, heads[i]) || !same_shape(heads[i], *inputs[i])) return std::nullopt;
  if (!r.ok() || !r.at_end()) return std::nullopt;
  const auto slots = gradient_slots(d.grads);
  for (size_t i = 0; i < 5; ++i)
    if (!attach(r, heads[i], *slots[i], elem, false, d.storage)) return std::nullopt;
  return d;
}

std::vector<uint8_t> encode_backward_result(awb_status status, bool allocation_failed,
                                            const std::string& message,
                                            const DecodedBackward& request,
                                            const awb_gradients& left) {
  wire::Writer w;
  put_result_head(w, status, allocation_failed, message);
  if (status != AWB_OK) return std::move(w.bytes());
  const size_t elem = element_size(request.problem.scalar);
  const auto own = gradient_slots(request.grads);
  const auto claimed = gradient_slots(left);
  uint8_t n = 0;
  for (size_t i = 0; i < 5; ++i) n += own[i]->data && claimed[i]->data;
  w.u8(n);
  for (size_t i = 0; i < 5; ++i) {
    if (!own[i]->data || !claimed[i]->data) continue;  // a gradient the plugin dropped is absent
    const uint64_t count = claimed_count(*claimed[i]);
    w.u8(static_cast<uint8_t>(i));
    w.u64(count);
    const uint64_t have = static_cast<uint64_t>(element_count(*own[i]));
    w.raw(own[i]->data, static_cast<size_t>(std::min(count, have)) * elem);
  }
  return std::move(w.bytes());
}

std::optional<ResultHead> decode_backward_result(const std::vector<uint8_t>& payload,
                                                 awb_scalar scalar, awb_gradients& grads,
                                                 std::string& why) {
  wire::Reader r(payload.data(), payload.size());
  auto h = get_result_head(r);
  auto malformed = [&](std::string reason) {
    why = std::move(reason);
    return std::nullopt;
  };
  if (!h) return malformed("the result's status or message is malformed");
  if (h->status != AWB_OK) {
    if (!r.at_end()) return malformed("an error result carries data after its message");
    return h;
  }
  const auto slots = gradient_slots(grads);
  std::string asked;
  size_t n_asked = 0;
  for (size_t i = 0; i < 5; ++i)
    if (slots[i]->data) asked += (n_asked++ ? ", " : "") + std::string(kGradientNames[i]);
  const uint8_t n = r.u8();
  if (!r.ok()) return malformed("the result ends before its gradient count");
  if (n != n_asked)
    return malformed("the backward returned " + std::to_string(n) + " gradients; the request " +
                     "asked for " + std::to_string(n_asked) + " (" + asked + ")");
  const size_t elem = element_size(scalar);
  for (size_t i = 0; i < 5; ++i) {
    if (!slots[i]->data) continue;
    const uint8_t slot = r.u8();
    const uint64_t count = r.u64();
    if (!r.ok()) return malformed("the result ends before " + std::string(kGradientNames[i]));
    if (slot != i)
      return malformed(
          "the backward returned " +
          (slot < 5 ? std::string(kGradientNames[slot]) : "gradient #" + std::to_string(slot)) +
          " where " + kGradientNames[i] + " was due");
    const auto expected = static_cast<uint64_t>(element_count(*slots[i]));
    if (count != expected)
      return malformed(std::string(kGradientNames[i]) + " has " + std::to_string(count) +
                       " values; the host shaped it " + shape_text(*slots[i]) + " (" +
                       std::to_string(expected) + ")");
    if (!get_packed(r, *slots[i], elem))
      return malformed(std::string(kGradientNames[i]) + " is cut short: the frame holds fewer " +
                       "than the " + std::to_string(count) + " values it claims");
  }
  if (!r.at_end())
    return malformed(std::to_string(r.remaining()) + " bytes follow the last gradient");
  return h;
}

size_t max_backward_result_size(const awb_gradients& grads, awb_scalar scalar) {
  size_t bytes = kResultHeadBound + 1;
  for (const awb_tensor* t : gradient_slots(grads))
    if (t->data) bytes += 1 + 8 + static_cast<size_t>(element_count(*t)) * element_size(scalar);
  return bytes;
}

}  // namespace awb::runner

namespace awb::runner {

std::vector<uint8_t> encode_cost(uint32_t variant_index, const awb_problem& problem,
                                 bool writes_weights) {
  wire::Writer w;
  w.u32(variant_index);
  put_flags(w, problem);
  for (const awb_tensor* t : {&problem.x, &problem.w_q, &problem.w_k, &problem.w_v, &problem.w_o})
    put_shape(w, *t);
  w.u8(writes_weights);
  return std::move(w.bytes());
}

std::optional<DecodedCost> decode_cost(std::span<const uint8_t> payload) {
  wire::Reader r(payload.data(), payload.size());
  DecodedCost d;
  d.variant_index = r.u32();
  if (!get_flags(r, d.problem, d.params)) return std::nullopt;
  for (awb_tensor* t :
       {&d.problem.x, &d.problem.w_q, &d.problem.w_k, &d.problem.w_v, &d.problem.w_o}) {
    TensorHead h;
    if (!get_head(r, h)) return std::nullopt;
    *t = awb_tensor{};
    if (!h.present) continue;
    t->rank = h.rank;
    for (int i = 0; i < 3; ++i) t->shape[i] = h.shape[i];
  }
  const uint8_t writes = r.u8();
  if (!r.ok() || !r.at_end() || writes > 1 || d.problem.x.rank != 2) return std::nullopt;
  d.writes_weights = writes;
  return d;
}

std::vector<uint8_t> encode_cost_result(awb_status status, const std::string& message,
                                        const awb_cost& cost) {
  wire::Writer w;
  put_result_head(w, status, false, message);
  if (status == AWB_OK) {
    w.f64(cost.flops);
    w.f64(cost.bytes);
  }
  return std::move(w.bytes());
}

std::optional<ResultHead> decode_cost_result(const std::vector<uint8_t>& payload, awb_cost& cost) {
  wire::Reader r(payload.data(), payload.size());
  auto h = get_result_head(r);
  if (!h) return std::nullopt;
  if (h->status == AWB_OK) {
    cost.flops = r.f64();
    cost.bytes = r.f64();
  }
  if (!r.ok() || !r.at_end()) return std::nullopt;
  return h;
}

}  // namespace awb::runner
