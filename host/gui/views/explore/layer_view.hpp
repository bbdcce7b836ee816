// layer_view.hpp: one query through the stack, layer by layer: what its input row carries into
// each layer (its cosine with every token's embedding, the residual stream made visible) and
// where it attends there. The numbers are core::trace_query's; this only draws them.
#ifndef AWB_GUI_LAYER_VIEW_HPP_
#define AWB_GUI_LAYER_VIEW_HPP_

#include <QScrollArea>
#include <QStringList>
#include <QVBoxLayout>
#include <vector>

#include "core/compare/layer_trace.hpp"
#include "gui/charts/bar_chart.hpp"
#include "gui/charts/cell_mask.hpp"

namespace awb::gui {

class LayerView : public QScrollArea {
  Q_OBJECT
 public:
  explicit LayerView(QWidget* parent = nullptr);

  void setTrace(const std::vector<core::LayerStep>& steps, const QStringList& tokens, int query,
                int head, const CellMask& mask);

  int layers() const { return static_cast<int>(resemblance_.size()); }
  // Layer l's charts: the cosines of the query's input row, and its weights row.
  BarChart* resemblanceChart(int layer) const {
    return resemblance_.at(static_cast<size_t>(layer));
  }
  BarChart* weightsChart(int layer) const { return weights_.at(static_cast<size_t>(layer)); }

 private:
  QVBoxLayout* rows_;
  std::vector<BarChart*> resemblance_, weights_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_LAYER_VIEW_HPP_
