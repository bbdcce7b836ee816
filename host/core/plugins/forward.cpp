// forward.cpp: ABI marshalling and the RAII instance wrapper.
#include "core/plugins/forward.hpp"

#include <array>
#include <awb/sequences.hpp>
#include <cstddef>
#include <limits>

#include "graders/model/abi_buffers.hpp"
#include "graders/model/error.hpp"
#include "graders/model/plugin_status.hpp"
#include "runner/protocol.hpp"

namespace awb::core {
namespace {

template <class T>
ForwardResult run_typed(const RawForward& fn, const ProblemSpec& p, const ForwardOptions& o) {
  const int64_t T_ = p.tokens_count(), T1 = p.sequence_tokens();
  const int64_t H = p.planes();
  AbiBuffers<T> b;
  const std::vector<double> values =
      resolve_params(o.params.decls, p.params, o.params.owner, o.params.strict);
  const awb_problem prob = b.problem(p, o.threads, o.params.decls, values);

  const T nan = std::numeric_limits<T>::quiet_NaN();
  awb_results res{};
  res.struct_size = sizeof(awb_results);
  res.z = make_tensor(b.output(static_cast<size_t>(T_ * p.d_out()), nan), 2, {T_, p.d_out(), 1});
  if (o.want_weights)
    res.a = make_tensor(b.output(static_cast<size_t>(H * T1 * T1), nan), 3, {H, T1, T1});
  if (o.want_scores)
    res.s = make_tensor(b.output(static_cast<size_t>(H * T1 * T1), nan), 3, {H, T1, T1});

  fn(prob, res);

  ForwardResult out;
  out.z = to_matrix<T>(res.z);
  if (o.want_weights) out.weights = to_planes<T>(res.a);
  if (o.want_scores) out.scores = to_planes<T>(res.s);
  return out;
}

}  // namespace

RawForward per_sequence(RawForward fn) {
  return [fn = std::move(fn)](const awb_problem& p, awb_results& r) {
    if (batched(p))
      forward_by_sequence(p, r, fn);
    else
      fn(p, r);
  };
}

RawCost per_sequence(RawCost fn) {
  return
      [fn = std::move(fn)](const awb_problem& p, bool writes_weights) -> std::optional<awb_cost> {
        if (!batched(p)) return fn(p, writes_weights);
        bool modelled = true;
        const awb_cost sum = cost_by_sequence(p, [&](const awb_problem& sp) {
          const auto c = fn(sp, writes_weights);
          modelled = modelled && c.has_value();
          return c.value_or(awb_cost{sizeof(awb_cost), 0, 0});
        });
        if (!modelled) return std::nullopt;
        return sum;
      };
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
    throw Error("plugin.create_failed", variant_.id, plugin_status_message(st, message_from(err)));
  backward_ = runner::backward_extension(variant_.raw);
  cost_ = runner::cost_extension(variant_.raw);
}

VariantInstance::~VariantInstance() { variant_.raw->destroy(instance_); }

void VariantInstance::forward(const awb_problem& problem, awb_results& results) {
  std::array<char, kErrorCapacity> err{};
  const awb_status st =
      variant_.raw->forward(instance_, &problem, &results, err.data(), err.size());
  if (st != AWB_OK)
    throw Error("plugin.forward_failed", variant_.id, plugin_status_message(st, message_from(err)));
}

RawForward VariantInstance::as_raw() {
  return [this](const awb_problem& p, awb_results& r) { forward(p, r); };
}

void VariantInstance::backward(const awb_problem& problem, const awb_results& forward,
                               const awb_tensor& dz, const awb_tensor* da, awb_gradients& grads) {
  if (!backward_)
    throw Error("plugin.no_backward", variant_.id, "the variant has no backward pass");
  std::array<char, kErrorCapacity> err{};
  const awb_status st =
      backward_->backward(instance_, &problem, &forward, &dz, da, &grads, err.data(), err.size());
  if (st != AWB_OK)
    throw Error("plugin.backward_failed", variant_.id,
                plugin_status_message(st, message_from(err)));
}

std::optional<awb_cost> VariantInstance::cost(const awb_problem& problem,
                                              bool writes_weights) const {
  if (!cost_) return std::nullopt;
  std::array<char, kErrorCapacity> err{};
  awb_cost c{sizeof(awb_cost), 0, 0};
  const awb_status st =
      cost_->cost(variant_.raw, &problem, writes_weights ? 1 : 0, &c, err.data(), err.size());
  if (st != AWB_OK)
    throw Error("plugin.cost_failed", variant_.id, plugin_status_message(st, message_from(err)));
  return c;
}

RawBackward VariantInstance::backward_raw() {
  return [this](const awb_problem& p, const awb_results& f, const awb_tensor& dz,
                const awb_tensor* da, awb_gradients& g) { backward(p, f, dz, da, g); };
}

}  // namespace awb::core
