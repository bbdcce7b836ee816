// protocol.cpp: encoding and defensive decoding of runner messages.
#include "runner/protocol.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

namespace awb::runner {
namespace {

constexpr size_t kMaxString = 4096;
constexpr int64_t kMaxElements = int64_t{1} << 31;

std::string bounded(const char* s) { return s ? std::string(s, ::strnlen(s, kMaxString)) : ""; }

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

// Present flag, rank and shape; with `data`, the elements packed row-major.
void put_tensor(wire::Writer& w, const awb_tensor& t, size_t elem, bool data) {
  w.u8(t.data != nullptr);
  if (!t.data) return;
  w.i32(t.rank);
  for (int i = 0; i < 3; ++i) w.i64(i < t.rank ? t.shape[i] : 1);
  if (!data) return;
  const auto* base = static_cast<const uint8_t*>(t.data);
  const int64_t n0 = t.shape[0], n1 = t.rank > 1 ? t.shape[1] : 1, n2 = t.rank > 2 ? t.shape[2] : 1;
  const int64_t inner = t.rank == 1 ? n0 : (t.rank == 2 ? n1 : n2);
  const int64_t rows = element_count(t) / std::max<int64_t>(inner, 1);
  for (int64_t r = 0; r < rows; ++r) {
    int64_t offset = 0;
    if (t.rank == 2) offset = r * t.stride[0];
    if (t.rank == 3) offset = (r / n1) * t.stride[0] + (r % n1) * t.stride[1];
    w.raw(base + offset * static_cast<int64_t>(elem), static_cast<size_t>(inner) * elem);
  }
}

// Reads a tensor header and allocates contiguous storage for it; false when malformed.
bool get_tensor(wire::Reader& r, awb_tensor& t, size_t elem, bool data, bool nan_fill,
                std::vector<std::vector<double>>& storage) {
  t = awb_tensor{};
  const uint8_t present = r.u8();
  if (!r.ok() || present > 1) return false;
  if (!present) return true;
  t.rank = r.i32();
  if (t.rank < 1 || t.rank > 3) return false;
  int64_t n = 1;
  for (int i = 0; i < 3; ++i) {
    const int64_t s = r.i64();
    if (s < 0 || (i >= t.rank && s != 1)) return false;
    t.shape[i] = i < t.rank ? s : 1;
    if (s > 0 && n > kMaxElements / s) return false;
    n *= s;
  }
  for (int i = t.rank - 1, st = 1; i >= 0; st *= static_cast<int>(t.shape[i]), --i)
    t.stride[i] = st;
  for (int i = t.rank; i < 3; ++i) t.stride[i] = 0, t.shape[i] = 1;
  const size_t bytes = static_cast<size_t>(n) * elem;
  if (data && bytes > r.remaining()) return false;
  auto& buf = storage.emplace_back((bytes + 7) / 8 + 1);
  t.data = buf.data();
  if (data) return r.raw(t.data, bytes);
  if (nan_fill) {
    if (elem == sizeof(double))
      std::fill_n(static_cast<double*>(t.data), n, std::numeric_limits<double>::quiet_NaN());
    else
      std::fill_n(static_cast<float*>(t.data), n, std::numeric_limits<float>::quiet_NaN());
  }
  return true;
}

void put_descriptor(wire::Writer& w, const RawDescriptor& d) {
  w.u8(d.present);
  w.u64(d.struct_size);
  w.u32(d.abi_major);
  w.u32(d.abi_minor);
  for (const auto* s : {&d.id, &d.name, &d.version, &d.author, &d.description}) w.str(*s);
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
    w.u8(static_cast<uint8_t>(v.has_create | v.has_destroy << 1 | v.has_forward << 2));
  }
}

bool get_descriptor(wire::Reader& r, RawDescriptor& d) {
  d.present = r.u8();
  d.struct_size = r.u64();
  d.abi_major = r.u32();
  d.abi_minor = r.u32();
  for (auto* s : {&d.id, &d.name, &d.version, &d.author, &d.description}) *s = r.str(kMaxString);
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
  }
  return r.ok();
}

}  // namespace

const char* to_string(Isolation level) {
  switch (level) {
    case Isolation::kInProcess:
      return "in-process";
    case Isolation::kProcess:
      return "process";
    case Isolation::kLimited:
      return "limited";
    case Isolation::kConfined:
      return "confined";
  }
  return "unknown";
}

std::optional<Isolation> parse_isolation(const std::string& name) {
  for (auto l :
       {Isolation::kInProcess, Isolation::kProcess, Isolation::kLimited, Isolation::kConfined})
    if (name == to_string(l)) return l;
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
  d.id = bounded(c.id);
  d.name = bounded(c.name);
  d.version = bounded(c.version);
  d.author = bounded(c.author);
  d.description = bounded(c.description);
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
    v.id = bounded(cv.id);
    v.name = bounded(cv.name);
    v.description = bounded(cv.description);
    v.capabilities = cv.capabilities;
    v.has_create = cv.create != nullptr;
    v.has_destroy = cv.destroy != nullptr;
    v.has_forward = cv.forward != nullptr;
  }
  return d;
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
  w.i32(p.scalar);
  w.i32(p.n_heads);
  w.i32(p.causal);
  w.i32(p.scale_mode);
  w.i32(p.n_threads);
  w.f64(p.sharpness);
  for (const awb_tensor* t : {&p.x, &p.w_q, &p.w_k, &p.w_v, &p.w_o}) put_tensor(w, *t, elem, true);
  for (const awb_tensor* t : {&results.z, &results.a, &results.s}) put_tensor(w, *t, elem, false);
  return std::move(w.bytes());
}

std::optional<DecodedForward> decode_forward(const std::vector<uint8_t>& payload) {
  wire::Reader r(payload.data(), payload.size());
  DecodedForward d;
  d.variant_index = r.u32();
  awb_problem& p = d.problem;
  p.struct_size = sizeof(awb_problem);
  const int32_t scalar = r.i32();
  if (scalar != AWB_SCALAR_F64 && scalar != AWB_SCALAR_F32) return std::nullopt;
  p.scalar = static_cast<awb_scalar>(scalar);
  p.n_heads = r.i32();
  p.causal = r.i32();
  const int32_t scale = r.i32();
  if (scale != AWB_SCALE_NONE && scale != AWB_SCALE_INV_SQRT_DK) return std::nullopt;
  p.scale_mode = static_cast<awb_scale_mode>(scale);
  p.n_threads = r.i32();
  p.sharpness = r.f64();
  const size_t elem = element_size(p.scalar);
  d.storage.reserve(8);
  for (awb_tensor* t : {&p.x, &p.w_q, &p.w_k, &p.w_v, &p.w_o})
    if (!get_tensor(r, *t, elem, true, false, d.storage)) return std::nullopt;
  d.results.struct_size = sizeof(awb_results);
  for (awb_tensor* t : {&d.results.z, &d.results.a, &d.results.s})
    if (!get_tensor(r, *t, elem, false, true, d.storage)) return std::nullopt;
  if (!r.ok() || !r.at_end() || !p.x.data || !d.results.z.data) return std::nullopt;
  return d;
}

std::vector<uint8_t> encode_result(awb_status status, bool allocation_failed,
                                   const std::string& message, const DecodedForward& request) {
  wire::Writer w;
  w.u32(static_cast<uint32_t>(status));
  w.u8(allocation_failed);
  w.str(message.substr(0, kMaxString));
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
  ResultHead h;
  const uint32_t status = r.u32();
  if (status > AWB_ERR_INTERNAL) return std::nullopt;
  h.status = static_cast<awb_status>(status);
  const uint8_t alloc = r.u8();
  if (alloc > 1) return std::nullopt;
  h.allocation_failed = alloc;
  h.message = r.str(kMaxString);
  if (!r.ok()) return std::nullopt;
  if (h.status != AWB_OK) return r.at_end() ? std::optional(h) : std::nullopt;
  // Outputs come packed row-major in the order z, a, s; scatter them into the host's strides.
  const size_t elem = element_size(scalar);
  for (awb_tensor* t : {&results.z, &results.a, &results.s}) {
    if (!t->data) continue;
    const int64_t inner = t->shape[t->rank - 1];
    const int64_t rows = element_count(*t) / std::max<int64_t>(inner, 1);
    const int64_t n1 = t->rank > 1 ? t->shape[1] : 1;
    for (int64_t row = 0; row < rows; ++row) {
      int64_t offset = 0;
      if (t->rank == 2) offset = row * t->stride[0];
      if (t->rank == 3) offset = (row / n1) * t->stride[0] + (row % n1) * t->stride[1];
      if (!r.raw(static_cast<uint8_t*>(t->data) + offset * static_cast<int64_t>(elem),
                 static_cast<size_t>(inner) * elem))
        return std::nullopt;
    }
  }
  if (!r.at_end()) return std::nullopt;
  return h;
}

}  // namespace awb::runner
