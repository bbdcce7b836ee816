// student_attention.cpp: @title@.
// An Attention Workbench plugin; `awb grade --assignment @kind@` grades it.
// awb-template: if starter
//
// It builds, loads and runs as it is, but the maths is yours to write: each TODO below throws
// awb::PluginError naming the step, so `awb run` and `awb grade` tell you which step comes next
// (the grade stays 0 until forward() works). Write them in order, top to bottom.
// awb-template: else
//
// A complete variant: forward and backward passes that get full marks under the assignment.
// awb-template: end
//
// The host hands you a Problem (X, the weights the variant declares, heads, causal flag,
// sharpness, scale) and Results (Z always; A and S only when wanted). X is T × d_model, A and S
// are T × T per head, Z is T × d_out. All views are Eigen row-major maps over the host's buffers.
#include <awb/plugin.hpp>

namespace {

template <class T>
using Matrix = awb::RowMatrix<T>;

// awb-template: if starter
// What every step still to write throws: the host shows the message as the call's error.
awb::PluginError todo(const std::string& step) {
  return awb::PluginError(AWB_ERR_UNSUPPORTED,
                          "TODO: write " + step + " (src/student_attention.cpp)");
}

// awb-template: end
// Who this is: the variant's id (what --variant names), its name, and its plugin's id.
constexpr const char* kVariantId = "@name@";
constexpr const char* kName = "@title@";
constexpr const char* kPluginId = "@plugin_id@";

// What this variant can do. The host refuses to run it on a problem that needs more, and says
// why ("the variant lacks the causal capability"), before calling forward().
// awb-template: if kind parameter-free
constexpr uint64_t kCapabilities = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL;
constexpr const char* kDescription = "Parameter-free dot-product self-attention: Q = K = V = X.";
// awb-template: end
// awb-template: if kind qkv
constexpr uint64_t kCapabilities = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_CAUSAL;
constexpr const char* kDescription =
    "Scaled dot-product attention with Q/K/V projections, one head.";
// awb-template: end
// awb-template: if kind multi-head
constexpr uint64_t kCapabilities = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD |
                                   AWB_CAP_OUTPUT_PROJ | AWB_CAP_CAUSAL;
constexpr const char* kDescription =
    "Multi-head attention: heads over column blocks of W_q, W_k, W_v, concatenated, then W_o.";
// awb-template: end
// awb-template: if kind causal
constexpr uint64_t kCapabilities = AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_QKV | AWB_CAP_MULTI_HEAD |
                                   AWB_CAP_OUTPUT_PROJ | AWB_CAP_CAUSAL | AWB_CAP_CAUSAL_ONLY;
constexpr const char* kDescription =
    "Causal multi-head attention: query t sees only keys up to t, whatever the problem says.";
// awb-template: end

// Queries, keys and values (T × d_k, T × d_k, T × d_v), or their gradients.
template <class T>
struct Qkv {
  Matrix<T> q, k, v;
};

// What one head computes.
template <class T>
struct Head {
  Matrix<T> s;    // T × T scores: the softmax input (after scale and sharpness, before the mask)
  Matrix<T> a;    // T × T weights: each row sums to 1; masked entries are exactly 0
  Matrix<T> out;  // T × d_v: row t blends the values with row t of A
};

// awb-template: if kind parameter-free
// Without projections every token is its own query, key and value: Q = K = V = X.
template <class T>
Qkv<T> project(const awb::Problem<T>& p) {
  return {p.x(), p.x(), p.x()};
}
// awb-template: else
// The projections: Q = X·W_q, K = X·W_k, V = X·W_v.
// awb-template: if kind multi-head causal
// Every head's columns side by side: head h owns columns [h·d_k, (h+1)·d_k) of Q and K and
// [h·d_v, (h+1)·d_v) of V.
// awb-template: end
template <class T>
Qkv<T> project(const awb::Problem<T>& p) {
  // awb-template: if solution
  return {p.x() * p.w_q(), p.x() * p.w_k(), p.x() * p.w_v()};
  // awb-template: else
  throw todo("the projections Q = X·W_q, K = X·W_k, V = X·W_v in project()");
  // awb-template: end
}
// awb-template: end

// awb-template: if kind multi-head causal
// Head h's columns of Q, K and V (or of their gradients).
template <class T>
Qkv<T> head_columns(const Qkv<T>& all, int h, Eigen::Index dk, Eigen::Index dv) {
  return {all.q.middleCols(h * dk, dk), all.k.middleCols(h * dk, dk), all.v.middleCols(h * dv, dv)};
}

// awb-template: end
// One head of attention. `factor` is the problem's score_factor(): sharpness, times 1/sqrt(d_k)
// when the problem asks for scaling. `causal`: query t sees keys 0..t only.
template <class T>
Head<T> attend(const Qkv<T>& in, T factor, bool causal) {
  Head<T> result;
  // The scores S = factor · Q·Kᵀ: how well each query matches each key.
  // awb-template: if solution
  result.s = factor * (in.q * in.k.transpose());
  // awb-template: else
  throw todo("the scores S = factor · Q·Kᵀ in attend()");
  // awb-template: end

  // The weights A: a softmax over each row of S, over the keys the row may see (all of them, or
  // 0..t when causal); the others get exactly 0. Subtract the row's largest score before exp():
  // it changes nothing mathematically and keeps exp() from overflowing (a float overflows above
  // about 88.7).
  // awb-template: if solution
  const Eigen::Index tokens = result.s.rows();
  result.a = Matrix<T>::Zero(tokens, tokens);
  for (Eigen::Index t = 0; t < tokens; ++t) {
    const Eigen::Index visible = causal ? t + 1 : tokens;
    const T largest = result.s.row(t).head(visible).maxCoeff();
    result.a.row(t).head(visible) = (result.s.row(t).head(visible).array() - largest).exp();
    result.a.row(t).head(visible) /= result.a.row(t).head(visible).sum();
  }
  // awb-template: else
  throw todo(std::string("the row softmax A = softmax(S) in attend()") +
             (causal ? ", with the causal mask" : ""));
  // awb-template: end

  // The head's output A·V: each row a blend of the values, weighted by its row of A.
  // awb-template: if solution
  result.out = result.a * in.v;
  // awb-template: else
  throw todo("the output A·V in attend()");
  // awb-template: end
  return result;
}

// The backward pass of one head: given ∂L/∂out (and ∂L/∂A when the loss reads the weights,
// else zeros), the gradients of its Q, K and V. `head` is attend(in, factor, causal).
template <class T>
Qkv<T> attend_backward(const Qkv<T>& in, const Head<T>& head, T factor, const Matrix<T>& d_out,
                       const Matrix<T>& d_a_loss) {
  Qkv<T> d;
  // Through out = A·V: ∂L/∂A = ∂L/∂out · Vᵀ (plus the loss's own ∂L/∂A); ∂L/∂V = Aᵀ · ∂L/∂out.
  // awb-template: if solution
  const Matrix<T> d_a = d_out * in.v.transpose() + d_a_loss;
  d.v = head.a.transpose() * d_out;
  // awb-template: else
  throw todo("the gradients through A·V in attend_backward()");
  // awb-template: end

  // Through the softmax, row by row: ∂L/∂S = A ∘ (∂L/∂A − rowsum(A ∘ ∂L/∂A)). Masked entries
  // have A = 0, so they pass nothing back, as the mask says they should not.
  // awb-template: if solution
  const auto shared = (head.a.array() * d_a.array()).rowwise().sum();
  const Matrix<T> d_s = (head.a.array() * (d_a.array().colwise() - shared)).matrix();
  // awb-template: else
  throw todo("the gradient through the softmax in attend_backward()");
  // awb-template: end

  // Through S = factor · Q·Kᵀ: ∂L/∂Q = factor · ∂L/∂S · K, ∂L/∂K = factor · ∂L/∂Sᵀ · Q.
  // awb-template: if solution
  d.q = factor * (d_s * in.k);
  d.k = factor * (d_s.transpose() * in.q);
  // awb-template: else
  throw todo("the gradients through S = factor · Q·Kᵀ in attend_backward()");
  // awb-template: end
  return d;
}

// ∂L/∂A of head h when the loss reads the weights, else zeros.
template <class T>
Matrix<T> loss_weights_gradient(const awb::Upstream<T>& up, int h, Eigen::Index tokens) {
  return up.has_da() ? Matrix<T>(up.da(h)) : Matrix<T>(Matrix<T>::Zero(tokens, tokens));
}

// awb-template: if kind parameter-free
// Back through Q = K = V = X: the three paths into X add up.
template <class T>
void project_backward(const awb::Problem<T>&, const Qkv<T>& d, awb::Gradients<T>& g) {
  g.dx() = d.q + d.k + d.v;
}
// awb-template: else
// Back through the projections: ∂L/∂X = ∂L/∂Q·W_qᵀ + ∂L/∂K·W_kᵀ + ∂L/∂V·W_vᵀ, and
// ∂L/∂W_q = Xᵀ·∂L/∂Q (the same for W_k and W_v).
template <class T>
void project_backward(const awb::Problem<T>& p, const Qkv<T>& d, awb::Gradients<T>& g) {
  // awb-template: if solution
  g.dx() = d.q * p.w_q().transpose() + d.k * p.w_k().transpose() + d.v * p.w_v().transpose();
  g.dw_q() = p.x().transpose() * d.q;
  g.dw_k() = p.x().transpose() * d.k;
  g.dw_v() = p.x().transpose() * d.v;
  // awb-template: else
  throw todo("the gradients of X, W_q, W_k and W_v in project_backward()");
  // awb-template: end
}
// awb-template: end

// Hands head h's S and A to the host when it wants them (when it does not, never write them).
template <class T>
void keep(awb::Results<T>& r, int h, const Head<T>& head) {
  if (r.wants_scores()) r.scores(h) = head.s;  // S is the softmax input, before any mask
  if (r.wants_weights()) r.weights(h) = head.a;
}

struct StudentAttention {
  static constexpr awb::VariantInfo kInfo{kVariantId, kName, kDescription, kCapabilities};

  // awb-template: if kind causal
  // This variant always masks, whatever the problem's causal flag says (AWB_CAP_CAUSAL_ONLY).
  template <class T>
  static bool causal(const awb::Problem<T>&) {
    return true;
  }
  // awb-template: else
  // Whether query t may see only keys 0..t: the problem says.
  template <class T>
  static bool causal(const awb::Problem<T>& p) {
    return p.causal();
  }
  // awb-template: end

  // awb-template: if kind parameter-free qkv
  template <class T>
  void forward(const awb::Problem<T>& p, awb::Results<T>& r) {
    const Head<T> head = attend(project(p), p.score_factor(), causal(p));
    keep(r, 0, head);
    r.z() = head.out;
  }

  // The backward pass: `awb train` and the exercises' gradient checks call it after forward().
  // Given ∂L/∂Z (and ∂L/∂A when the loss reads the weights), write ∂L/∂X and the gradient of
  // every weight the problem has.
  template <class T>
  void backward(const awb::Problem<T>& p, const awb::Upstream<T>& up, awb::Gradients<T>& g) {
    const Qkv<T> in = project(p);
    const Head<T> head = attend(in, p.score_factor(), causal(p));
    const Matrix<T> d_a_loss = loss_weights_gradient(up, 0, p.tokens());
    const Qkv<T> d = attend_backward(in, head, p.score_factor(), Matrix<T>(up.dz()), d_a_loss);
    project_backward(p, d, g);
  }
  // awb-template: end
  // awb-template: if kind multi-head causal
  template <class T>
  void forward(const awb::Problem<T>& p, awb::Results<T>& r) {
    const Qkv<T> in = project(p);
    const Eigen::Index dk = p.d_k(), dv = p.d_v();
    Matrix<T> heads(p.tokens(), p.heads() * dv);  // the heads' outputs side by side
    for (int h = 0; h < p.heads(); ++h) {
      const Head<T> head = attend(head_columns(in, h, dk, dv), p.score_factor(), causal(p));
      keep(r, h, head);
      heads.middleCols(h * dv, dv) = head.out;
    }
    // The output projection Z = [head 0 | head 1 | ...]·W_o; without W_o, Z is the heads.
    // awb-template: if solution
    if (p.has_output_projection())
      r.z() = heads * p.w_o();
    else
      r.z() = heads;
    // awb-template: else
    throw todo("the output projection Z = heads·W_o in forward()");
    // awb-template: end
  }

  // The backward pass: `awb train` and the exercises' gradient checks call it after forward().
  // Given ∂L/∂Z (and ∂L/∂A when the loss reads the weights), write ∂L/∂X and the gradient of
  // every weight the problem has.
  template <class T>
  void backward(const awb::Problem<T>& p, const awb::Upstream<T>& up, awb::Gradients<T>& g) {
    const Qkv<T> in = project(p);
    const Eigen::Index tokens = p.tokens(), dk = p.d_k(), dv = p.d_v();
    // Back through Z = heads·W_o: ∂L/∂heads = ∂L/∂Z·W_oᵀ (and ∂L/∂W_o = headsᵀ·∂L/∂Z, below).
    // awb-template: if solution
    const Matrix<T> d_heads =
        p.has_output_projection() ? Matrix<T>(up.dz() * p.w_o().transpose()) : Matrix<T>(up.dz());
    // awb-template: else
    const Matrix<T> d_heads;
    throw todo("the gradient through Z = heads·W_o in backward()");
    // awb-template: end
    Matrix<T> heads(tokens, p.heads() * dv);
    Qkv<T> d{Matrix<T>(tokens, p.heads() * dk), Matrix<T>(tokens, p.heads() * dk),
             Matrix<T>(tokens, p.heads() * dv)};
    for (int h = 0; h < p.heads(); ++h) {
      const Qkv<T> in_h = head_columns(in, h, dk, dv);
      const Head<T> head = attend(in_h, p.score_factor(), causal(p));
      heads.middleCols(h * dv, dv) = head.out;
      const Qkv<T> d_h =
          attend_backward(in_h, head, p.score_factor(), Matrix<T>(d_heads.middleCols(h * dv, dv)),
                          loss_weights_gradient(up, h, tokens));
      d.q.middleCols(h * dk, dk) = d_h.q;
      d.k.middleCols(h * dk, dk) = d_h.k;
      d.v.middleCols(h * dv, dv) = d_h.v;
    }
    // awb-template: if solution
    if (g.has_dw_o()) g.dw_o() = heads.transpose() * up.dz();
    // awb-template: else
    throw todo("the gradient of W_o in backward()");
    // awb-template: end
    project_backward(p, d, g);
  }
  // awb-template: end
};

}  // namespace

AWB_EXPORT_PLUGIN((awb::PluginInfo{kPluginId, kName, "0.1.0", "A. Student",
                                   "Built from the Attention Workbench template."}),
                  StudentAttention)
