// forward.cpp: ABI marshalling and the RAII instance wrapper.
#include "core/forward.hpp"

#include <array>
#include <limits>

#include "model/error.hpp"

namespace awb::core {

awb_tensor make_tensor(void* data, int32_t rank, std::array<int64_t, 3> shape) {
  awb_tensor t{};
  t.data = data;
  t.rank = rank;
  for (int i = 0; i < 3; ++i) t.shape[i] = i < rank ? shape[i] : 1;
  if (rank == 2) {
    t.stride[0] = shape[1];
    t.stride[1] = 1;
  } else {
    t.stride[0] = shape[1] * shape[2];
    t.stride[1] = shape[2];
    t.stride[2] = 1;
  }
  return t;
}

namespace {

template <class T>
struct Buffers {
  std::vector<T> x, wq, wk, wv, wo, z, a, s;

  static std::vector<T> from(const Matrix& m) {
    return std::vector<T>(m.data.begin(), m.data.end());
  }
};

template <class T>
ForwardResult run_typed(const RawForward& fn, const ProblemSpec& p, const ForwardOptions& o) {
  const int64_t T_ = p.tokens_count();
  const int64_t H = p.heads;
  Buffers<T> b;
  awb_problem prob{};
  prob.struct_size = sizeof(awb_problem);
  prob.scalar = std::is_same_v<T, double> ? AWB_SCALAR_F64 : AWB_SCALAR_F32;
  prob.n_heads = p.heads;
  prob.causal = p.causal ? 1 : 0;
  prob.scale_mode = p.resolved_scale() == ScaleMode::kNone ? AWB_SCALE_NONE : AWB_SCALE_INV_SQRT_DK;
  prob.n_threads = o.threads;
  prob.sharpness = p.sharpness;
  b.x = Buffers<T>::from(p.x);
  prob.x = make_tensor(b.x.data(), 2, {p.x.rows, p.x.cols, 1});
  auto bind = [](const std::optional<Matrix>& m, std::vector<T>& buf) {
    if (!m) return awb_tensor{};
    buf = Buffers<T>::from(*m);
    return make_tensor(buf.data(), 2, {m->rows, m->cols, 1});
  };
  prob.w_q = bind(p.w_q, b.wq);
  prob.w_k = bind(p.w_k, b.wk);
  prob.w_v = bind(p.w_v, b.wv);
  prob.w_o = bind(p.w_o, b.wo);

  const T nan = std::numeric_limits<T>::quiet_NaN();
  awb_results res{};
  res.struct_size = sizeof(awb_results);
  b.z.assign(static_cast<size_t>(T_ * p.d_out()), nan);
  res.z = make_tensor(b.z.data(), 2, {T_, p.d_out(), 1});
  if (o.want_weights) {
    b.a.assign(static_cast<size_t>(H * T_ * T_), nan);
    res.a = make_tensor(b.a.data(), 3, {H, T_, T_});
  }
  if (o.want_scores) {
    b.s.assign(static_cast<size_t>(H * T_ * T_), nan);
    res.s = make_tensor(b.s.data(), 3, {H, T_, T_});
  }

  fn(prob, res);

  ForwardResult out;
  out.z = Matrix(T_, p.d_out());
  std::copy(b.z.begin(), b.z.end(), out.z.data.begin());
  auto planes = [&](const std::vector<T>& buf, std::vector<Matrix>& dst) {
    for (int64_t h = 0; h < H; ++h) {
      Matrix m(T_, T_);
      std::copy(buf.begin() + h * T_ * T_, buf.begin() + (h + 1) * T_ * T_, m.data.begin());
      dst.push_back(std::move(m));
    }
  };
  if (o.want_weights) planes(b.a, out.weights);
  if (o.want_scores) planes(b.s, out.scores);
  return out;
}

}  // namespace

const char* to_string(awb_status status) {
  switch (status) {
    case AWB_OK:
      return "ok";
    case AWB_ERR_INVALID_ARGUMENT:
      return "invalid-argument";
    case AWB_ERR_UNSUPPORTED:
      return "unsupported";
    case AWB_ERR_OUT_OF_MEMORY:
      return "out-of-memory";
    case AWB_ERR_INTERNAL:
      return "internal";
  }
  return "unknown-status";
}

ForwardResult run_forward(const RawForward& fn, const ProblemSpec& problem,
                          const ForwardOptions& options) {
  if (options.scalar == Scalar::kF64) return run_typed<double>(fn, problem, options);
  return run_typed<float>(fn, problem, options);
}

namespace {
constexpr size_t kErrorCapacity = 2048;

std::string message_from(const std::array<char, kErrorCapacity>& buf) {
  // The plugin may not have terminated the string; never read past the buffer.
  size_t n = 0;
  while (n < buf.size() && buf[n] != '\0') ++n;
  return n ? std::string(buf.data(), n) : "(no message)";
}
}  // namespace

VariantInstance::VariantInstance(std::shared_ptr<const Library> library, const VariantDesc& variant)
    : library_(std::move(library)), variant_(variant) {
  std::array<char, kErrorCapacity> err{};
  const awb_status st = variant_.raw->create(variant_.raw, &instance_, err.data(), err.size());
  if (st != AWB_OK)
    throw Error("plugin.create_failed", variant_.id,
                std::string(to_string(st)) + ": " + message_from(err));
}

VariantInstance::~VariantInstance() { variant_.raw->destroy(instance_); }

void VariantInstance::forward(const awb_problem& problem, awb_results& results) {
  std::array<char, kErrorCapacity> err{};
  const awb_status st =
      variant_.raw->forward(instance_, &problem, &results, err.data(), err.size());
  if (st != AWB_OK)
    throw Error("plugin.forward_failed", variant_.id,
                std::string(to_string(st)) + ": " + message_from(err));
}

RawForward VariantInstance::as_raw() {
  return [this](const awb_problem& p, awb_results& r) { forward(p, r); };
}

}  // namespace awb::core
