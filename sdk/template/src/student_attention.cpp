// student_attention.cpp: your attention variant. It already runs; the TODOs are your next steps.
//
// The host hands you a Problem (X, optional weights, heads, causal flag, sharpness, scale) and
// Results (Z always; A and S only when wanted). Shapes: X is T × d_model, A and S are T × T per
// head, Z is T × d_out. All views are Eigen row-major maps over the host's buffers.
#include <awb/plugin.hpp>

namespace {

struct StudentAttention {
  // What this variant can do. The host refuses to run it on a problem that needs more, and says
  // why ("the variant lacks the causal capability"), before calling forward().
  // TODO: when you add Q/K/V projections, add AWB_CAP_QKV (and AWB_CAP_MULTI_HEAD for heads).
  static constexpr awb::VariantInfo kInfo{
      "student-attention", "Student attention",
      "Parameter-free dot-product self-attention, written from the template.",
      AWB_CAP_F64 | AWB_CAP_F32 | AWB_CAP_CAUSAL};

  template <class T>
  void forward(const awb::Problem<T>& p, awb::Results<T>& r) {
    const auto x = p.x();  // T × d_model
    const Eigen::Index tokens = p.tokens();

    // 1. Scores: every query against every key. score_factor() is sharpness (times 1/sqrt(d_k)
    //    when the problem asks for scaling).
    // TODO: with projections, use Q = X·W_q and K = X·W_k instead of X for both.
    awb::RowMatrix<T> s = p.score_factor() * (x * x.transpose());
    if (r.wants_scores()) r.scores(0) = s;  // S is the softmax input, before any mask

    // 2. Weights: a softmax per row. Subtracting the row maximum changes nothing mathematically
    //    and keeps exp() from overflowing.
    awb::RowMatrix<T> a = awb::RowMatrix<T>::Zero(tokens, tokens);
    for (Eigen::Index t = 0; t < tokens; ++t) {
      const Eigen::Index visible = p.causal() ? t + 1 : tokens;  // causal: no peeking ahead
      const T mx = s.row(t).head(visible).maxCoeff();
      a.row(t).head(visible) = (s.row(t).head(visible).array() - mx).exp();
      a.row(t).head(visible) /= a.row(t).head(visible).sum();
    }
    if (r.wants_weights()) r.weights(0) = a;

    // 3. Context vectors: each row of Z is a weighted blend of the token vectors.
    // TODO: with projections, blend V = X·W_v instead of X.
    r.z() = a * x;
  }
};

}  // namespace

// TODO: give your plugin its own reverse-DNS id, name, version and author.
AWB_EXPORT_PLUGIN((awb::PluginInfo{"org.example.student-attention", "Student attention", "0.1.0",
                                   "A. Student", "Built from the Attention Workbench template."}),
                  StudentAttention)
