// layer_view.cpp: two bar charts per layer side by side, made anew only when the number of
// layers changes.
#include "gui/views/explore/layer_view.hpp"

#include <QHBoxLayout>
#include <algorithm>

namespace awb::gui {

LayerView::LayerView(QWidget* parent) : QScrollArea(parent) {
  auto* inner = new QWidget;
  rows_ = new QVBoxLayout(inner);
  setWidget(inner);
  setWidgetResizable(true);
  setFrameShape(QFrame::NoFrame);
}

void LayerView::setTrace(const std::vector<core::LayerStep>& steps, const QStringList& tokens,
                         int query, int head, const CellMask& mask) {
  if (steps.size() != resemblance_.size()) {
    for (auto* c : resemblance_) delete c;
    for (auto* c : weights_) delete c;
    resemblance_.clear();
    weights_.clear();
    while (rows_->count() > 0) delete rows_->takeAt(0);  // the emptied rows
    for (size_t l = 0; l < steps.size(); ++l) {
      auto* r = new BarChart;
      auto* w = new BarChart;
      // One row a layer, what comes in beside where it looks, in layer order: the reader
      // follows the query down the stack.
      auto* row = new QHBoxLayout;
      row->addWidget(r, 1);
      row->addWidget(w, 1);
      rows_->addLayout(row, 1);
      resemblance_.push_back(r);
      weights_.push_back(w);
    }
  }
  const QString q = query >= 0 && query < tokens.size() ? tokens[query] : QString::number(query);
  for (size_t l = 0; l < steps.size(); ++l) {
    const core::LayerStep& s = steps[l];
    BarChart* r = resemblance_[l];
    if (s.resemblance.empty()) {
      r->setTitle(
          tr("layer %1: the input of '%2' is not d_model wide (no residual)").arg(l).arg(q));
      r->setValues({}, {}, {}, 0);
    } else {
      r->setTitle(tr("layer %1: what '%2' carries in (cosine with each embedding)").arg(l).arg(q));
      // On one scale, 0 to 1, so layers compare by bar height; a negative cosine needs the
      // chart's own ± scale (its axis says the largest).
      const bool negative =
          std::any_of(s.resemblance.begin(), s.resemblance.end(), [](double c) { return c < 0; });
      r->setValues(s.resemblance, {}, tokens, negative ? 0 : 1);
    }
    r->setHighlight(query);
    BarChart* w = weights_[l];
    w->setTitle(tr("layer %1: where '%2' attends (head %3)").arg(l).arg(q).arg(head));
    const std::vector<bool> masked = masked_keys(mask, s.weights, query);
    w->setValues(s.weights, masked, tokens, 1);
    w->setCaption(most_text(s.weights, tokens, masked));
  }
}

}  // namespace awb::gui
