// heads_grid.cpp: the maps are made anew only when the number of heads changes, so a slider
// drag redraws them in place.
#include "gui/views/explore/heads_grid.hpp"

#include <QEvent>
#include <QMouseEvent>
#include <algorithm>
#include <cmath>

namespace awb::gui {

HeadsGrid::HeadsGrid(QWidget* parent) : QWidget(parent), grid_(new QGridLayout(this)) {
  grid_->setContentsMargins(0, 0, 0, 0);
}

void HeadsGrid::setHeads(const std::vector<Matrix>& heads, const QStringList& tokens, int layer,
                         int query, const CellMask& mask, int selected) {
  if (heads.size() != maps_.size()) {
    for (auto* m : maps_) delete m;
    maps_.clear();
    // As square as the heads allow: 2 heads side by side, 4 as 2 × 2, 8 as 3 × 3 less one.
    const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(heads.size()))));
    for (size_t h = 0; h < heads.size(); ++h) {
      auto* map = new HeatmapWidget;
      map->setCursor(Qt::PointingHandCursor);
      map->installEventFilter(this);
      grid_->addWidget(map, static_cast<int>(h) / columns, static_cast<int>(h) % columns);
      maps_.push_back(map);
    }
  }
  for (size_t h = 0; h < heads.size(); ++h) {
    HeatmapWidget* map = maps_[h];
    const QString title = tr("layer %1, head %2").arg(layer).arg(h);
    map->setTitle(static_cast<int>(h) == selected ? tr("%1 (selected)").arg(title) : title);
    map->setMatrix(heads[h], 0, 1, mask);
    map->setLabels(tokens, tokens);
    map->setHighlightRow(query);
  }
  // One min–max spans every head, so the heads' colours compare.
  double lo = INFINITY, hi = -INFINITY;
  for (const auto* map : maps_) {
    lo = std::min(lo, map->ownMinMax().first);
    hi = std::max(hi, map->ownMinMax().second);
  }
  for (auto* map : maps_) {
    map->setSharedMinMax(lo, hi);
    map->setScaleNote(tr("shared by every head"));
  }
}

bool HeadsGrid::eventFilter(QObject* watched, QEvent* event) {
  if (event->type() == QEvent::MouseButtonRelease &&
      static_cast<QMouseEvent*>(event)->button() == Qt::LeftButton)
    for (size_t h = 0; h < maps_.size(); ++h)
      if (watched == maps_[h]) {
        emit headClicked(static_cast<int>(h));
        return true;
      }
  return QWidget::eventFilter(watched, event);
}

}  // namespace awb::gui
