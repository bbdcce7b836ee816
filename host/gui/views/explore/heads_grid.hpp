// heads_grid.hpp: every head of one layer side by side, one heatmap each; clicking a head's map
// picks that head (the explore view then shows it alone).
#ifndef AWB_GUI_HEADS_GRID_HPP_
#define AWB_GUI_HEADS_GRID_HPP_

#include <QGridLayout>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "graders/model/tensor.hpp"
#include "gui/charts/heatmap_widget.hpp"

namespace awb::gui {

class HeadsGrid : public QWidget {
  Q_OBJECT
 public:
  explicit HeadsGrid(QWidget* parent = nullptr);

  // One heatmap per matrix of `heads` (A of each head of the layer), rows `query` outlined;
  // `selected` is the head the one-head mode shows (named so in its title).
  void setHeads(const std::vector<Matrix>& heads, const QStringList& tokens, int layer, int query,
                const CellMask& mask, int selected);

  int count() const { return static_cast<int>(maps_.size()); }
  HeatmapWidget* map(int head) const { return maps_.at(static_cast<size_t>(head)); }

 signals:
  void headClicked(int head);

 protected:
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  QGridLayout* grid_;
  std::vector<HeatmapWidget*> maps_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_HEADS_GRID_HPP_
