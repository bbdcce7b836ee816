// bar_chart.hpp: one bar per token, from a zero line (negative values below it), with a fixed
// or automatic scale; masked entries are marked, not drawn as zero-height bars.
#ifndef AWB_GUI_BAR_CHART_HPP_
#define AWB_GUI_BAR_CHART_HPP_

#include <QColor>
#include <QStringList>
#include <QWidget>
#include <vector>

namespace awb::gui {

class BarChart : public QWidget {
  Q_OBJECT
 public:
  explicit BarChart(QWidget* parent = nullptr);

  // `fixed_max` > 0: the value axis spans [0, fixed_max] (weights: 1); else ±max |value|.
  void setValues(const std::vector<double>& values, const std::vector<bool>& masked,
                 const QStringList& labels, double fixed_max);
  void setTitle(const QString& title) {
    title_ = title;
    update();
  }
  void setCaption(const QString& caption) {
    caption_ = caption;
    update();
  }
  void setHighlight(int index) {
    highlight_ = index;
    update();
  }

  // Geometry the tests read: the bar of entry i, and how many pixels one unit is.
  QRectF barRect(int i) const;
  double pixelsPerUnit() const;
  double zeroLine() const;  // y of the value 0
  const QString& caption() const { return caption_; }
  const std::vector<double>& values() const { return values_; }
  static QColor barColor() { return QColor(0x35, 0x6a, 0xa0); }
  QSize sizeHint() const override { return {360, 180}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  QRectF plotRect() const;
  double scaleMax() const;

  std::vector<double> values_;
  std::vector<bool> masked_;
  QStringList labels_;
  double fixed_max_ = 0;
  int highlight_ = -1;
  QString title_, caption_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_BAR_CHART_HPP_
