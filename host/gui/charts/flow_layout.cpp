// flow_layout.cpp: items keep their size hint (at least their minimum); a line ends where the
// next item would pass the right edge, and each item is centred on its line's height.
#include "gui/charts/flow_layout.hpp"

#include <QWidget>
#include <algorithm>

namespace awb::gui {
namespace {

QSize item_size(const QLayoutItem* item) {
  return item->sizeHint().expandedTo(item->minimumSize());
}

}  // namespace

FlowLayout::FlowLayout(QWidget* parent) : QLayout(parent) {
  setContentsMargins(0, 0, 0, 0);
  setSpacing(6);
}

FlowLayout::~FlowLayout() {
  while (QLayoutItem* item = takeAt(0)) delete item;
}

void FlowLayout::addItem(QLayoutItem* item) { items_.append(item); }

QLayoutItem* FlowLayout::itemAt(int index) const {
  return index >= 0 && index < items_.size() ? items_[index] : nullptr;
}

QLayoutItem* FlowLayout::takeAt(int index) {
  return index >= 0 && index < items_.size() ? items_.takeAt(index) : nullptr;
}

QSize FlowLayout::sizeHint() const {
  // Everything on one line.
  QSize s;
  for (const QLayoutItem* item : items_) {
    if (item->isEmpty()) continue;
    const QSize i = item_size(item);
    s.setWidth(s.width() + (s.width() > 0 ? spacing() : 0) + i.width());
    s.setHeight(std::max(s.height(), i.height()));
  }
  const QMargins m = contentsMargins();
  return s + QSize(m.left() + m.right(), m.top() + m.bottom());
}

QSize FlowLayout::minimumSize() const {
  // As narrow as the widest item; the height follows from the width (heightForWidth).
  QSize s;
  for (const QLayoutItem* item : items_)
    if (!item->isEmpty()) s = s.expandedTo(item_size(item));
  const QMargins m = contentsMargins();
  return s + QSize(m.left() + m.right(), m.top() + m.bottom());
}

void FlowLayout::setGeometry(const QRect& rect) {
  QLayout::setGeometry(rect);
  arrange(rect, true);
}

int FlowLayout::arrange(const QRect& rect, bool place) const {
  const QRect r = rect.marginsRemoved(contentsMargins());
  const int gap = std::max(0, spacing());
  // First the lines (which items, how tall), then their places.
  struct Line {
    int first = 0, end = 0, height = 0;
  };
  std::vector<Line> lines;
  int x = 0;
  for (int i = 0; i < items_.size(); ++i) {
    if (items_[i]->isEmpty()) continue;
    const QSize s = item_size(items_[i]);
    if (lines.empty() || (x > 0 && x + s.width() > r.width())) {
      lines.push_back({i, i, 0});
      x = 0;
    }
    Line& line = lines.back();
    line.end = i + 1;
    line.height = std::max(line.height, s.height());
    x += s.width() + gap;
  }
  int y = r.top();
  for (const Line& line : lines) {
    int left = r.left();
    for (int i = line.first; i < line.end; ++i) {
      if (items_[i]->isEmpty()) continue;
      const QSize s = item_size(items_[i]);
      if (place) items_[i]->setGeometry(QRect(QPoint(left, y + (line.height - s.height()) / 2), s));
      left += s.width() + gap;
    }
    y += line.height + gap;
  }
  const QMargins m = contentsMargins();
  return (lines.empty() ? 0 : y - gap - r.top()) + m.top() + m.bottom();
}

}  // namespace awb::gui
