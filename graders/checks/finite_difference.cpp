// finite_difference.cpp: perturb one input entry up and down, difference the loss.
#include "graders/checks/finite_difference.hpp"

#include <algorithm>
#include <cmath>

namespace awb::grade {

double upstream_loss(const ForwardResult& f, const BackwardSeed& up) {
  double loss = 0;
  for (size_t i = 0; i < f.z.data.size(); ++i) loss += up.dz.data[i] * f.z.data[i];
  for (size_t h = 0; h < up.da.size() && h < f.weights.size(); ++h)
    for (size_t i = 0; i < f.weights[h].data.size(); ++i)
      loss += up.da[h].data[i] * f.weights[h].data[i];
  return loss;
}

std::vector<std::pair<std::string, const Matrix*>> gradient_tensors(const LayerGradients& g) {
  std::vector<std::pair<std::string, const Matrix*>> out{{"dX", &g.dx}};
  for (auto [name, m] :
       {std::pair{"dW_q", &g.dw_q}, {"dW_k", &g.dw_k}, {"dW_v", &g.dw_v}, {"dW_o", &g.dw_o}})
    if (*m) out.emplace_back(name, &**m);
  return out;
}

std::vector<Probe> finite_difference_probes(
    const ProblemSpec& problem, const BackwardSeed& upstream, const LayerGradients& analytic,
    const std::function<ForwardResult(const ProblemSpec&)>& forward, int per_tensor, double step) {
  ProblemSpec p = problem;
  // The input each gradient belongs to, in the order of gradient_tensors().
  std::vector<Matrix*> inputs{&p.x};
  for (auto* w : {&p.w_q, &p.w_k, &p.w_v, &p.w_o})
    if (*w) inputs.push_back(&**w);
  const auto grads = gradient_tensors(analytic);
  std::vector<Probe> probes;
  for (size_t t = 0; t < grads.size() && t < inputs.size(); ++t) {
    Matrix& in = *inputs[t];
    const int64_t n = static_cast<int64_t>(in.data.size());
    const int64_t count = std::min<int64_t>(n, per_tensor);
    for (int64_t j = 0; j < count; ++j) {
      const int64_t i = count == n ? j : j * n / count;  // evenly spread over the tensor
      const double saved = in.data[size_t(i)];
      in.data[size_t(i)] = saved + step;
      const double up = upstream_loss(forward(p), upstream);
      in.data[size_t(i)] = saved - step;
      const double down = upstream_loss(forward(p), upstream);
      in.data[size_t(i)] = saved;
      Probe pr{grads[t].first,
               i / in.cols,
               i % in.cols,
               (up - down) / (2 * step),
               grads[t].second->data[size_t(i)],
               false};
      pr.agrees = std::fabs(pr.numeric - pr.analytic) <= 1e-6 + 1e-5 * std::fabs(pr.analytic);
      probes.push_back(pr);
    }
  }
  return probes;
}

}  // namespace awb::grade
