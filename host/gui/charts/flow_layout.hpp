// flow_layout.hpp: a row of widgets that wraps onto further lines when the width runs out, as
// words do: token chips and control rows stay whole at any zoom instead of asking the window for
// more width than the screen has.
#ifndef AWB_GUI_FLOW_LAYOUT_HPP_
#define AWB_GUI_FLOW_LAYOUT_HPP_

#include <QLayout>
#include <QList>

namespace awb::gui {

class FlowLayout : public QLayout {
 public:
  explicit FlowLayout(QWidget* parent = nullptr);
  ~FlowLayout() override;

  void addItem(QLayoutItem* item) override;
  int count() const override { return static_cast<int>(items_.size()); }
  QLayoutItem* itemAt(int index) const override;
  QLayoutItem* takeAt(int index) override;

  Qt::Orientations expandingDirections() const override { return {}; }
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override { return arrange(QRect(0, 0, width, 0), false); }
  QSize sizeHint() const override;
  QSize minimumSize() const override;
  void setGeometry(const QRect& rect) override;

 private:
  // Places the items line by line in `rect` (only measures when `place` is false); returns the
  // height used.
  int arrange(const QRect& rect, bool place) const;
  QList<QLayoutItem*> items_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_FLOW_LAYOUT_HPP_
