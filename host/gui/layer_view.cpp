// layer_view.cpp: two bar charts per layer, made anew only when the number of layers changes.
#include "gui/layer_view.hpp"

namespace awb::gui {

LayerView::LayerView(QWidget* parent) : QScrollArea(parent) {
  auto* inner = new QWidget;
  rows_ = new QVBoxLayout(inner);
  rows_->addStretch(1);
  setWidget(inner);
  setWidgetResizable(true);
  setFrameShape(QFrame::NoFrame);
}

void LayerView::setTrace(const std::vector<core::LayerStep>& steps, const QStringList& tokens,
                         int query, int head, bool causal) {
  if (steps.size() != resemblance_.size()) {
    for (auto* c : resemblance_) delete c;
    for (auto* c : weights_) delete c;
    resemblance_.clear();
    weights_.clear();
    for (size_t l = 0; l < steps.size(); ++l) {
      auto* r = new BarChart;
      auto* w = new BarChart;
      r->setMinimumHeight(150);
      w->setMinimumHeight(150);
      // Above the stretch, in layer order: the reader follows the query down the stack.
      rows_->insertWidget(static_cast<int>(2 * l), r);
      rows_->insertWidget(static_cast<int>(2 * l + 1), w);
      resemblance_.push_back(r);
      weights_.push_back(w);
    }
  }
  const QString q = query >= 0 && query < tokens.size() ? tokens[query] : QString::number(query);
  std::vector<bool> masked(static_cast<size_t>(tokens.size()), false);
  if (causal)
    for (int c = query + 1; c < tokens.size(); ++c) masked[static_cast<size_t>(c)] = true;
  for (size_t l = 0; l < steps.size(); ++l) {
    const core::LayerStep& s = steps[l];
    BarChart* r = resemblance_[l];
    if (s.resemblance.empty()) {
      r->setTitle(tr("layer %1: the input of '%2' is not d_model wide (after a layer without "
                     "residual); nothing to compare with the embeddings")
                      .arg(l)
                      .arg(q));
      r->setValues({}, {}, {}, 0);
    } else {
      r->setTitle(tr("layer %1: what '%2' carries in: cosine of its input row with each token's "
                     "embedding")
                      .arg(l)
                      .arg(q));
      r->setValues(s.resemblance, {}, tokens, 0);  // cosines may be negative: a zero line
    }
    r->setHighlight(query);
    BarChart* w = weights_[l];
    w->setTitle(tr("layer %1: where '%2' attends (A, head %3)").arg(l).arg(q).arg(head));
    w->setValues(s.weights, masked, tokens, 1);
    int best = -1;
    for (size_t t = 0; t < s.weights.size(); ++t)
      if (best < 0 || s.weights[t] > s.weights[static_cast<size_t>(best)]) best = int(t);
    w->setCaption(best >= 0 ? tr("most: '%1' (%2)")
                                  .arg(tokens.value(best))
                                  .arg(s.weights[static_cast<size_t>(best)], 0, 'f', 3)
                            : QString());
  }
}

}  // namespace awb::gui
