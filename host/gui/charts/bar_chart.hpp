// bar_chart.hpp: one bar per token, from a zero line (negative values below it), with a fixed
// or automatic scale, each bar's value written at its end and its token below; masked entries
// are marked, not drawn as zero-height bars.
#ifndef AWB_GUI_BAR_CHART_HPP_
#define AWB_GUI_BAR_CHART_HPP_

#include <QColor>
#include <QStringList>
#include <QWidget>
#include <vector>

#include "gui/charts/labels.hpp"
#include "gui/charts/layout_check.hpp"

namespace awb::gui {

class BarChart : public QWidget, public DrawnTextSource, public PlotSource {
  Q_OBJECT
 public:
  explicit BarChart(QWidget* parent = nullptr);

  // `fixed_max` > 0: the value axis spans [0, fixed_max] (weights: 1); else ±max |value|.
  void setValues(const std::vector<double>& values, const std::vector<bool>& masked,
                 const QStringList& labels, double fixed_max);
  void setTitle(const QString& title) {
    title_ = title;
    invalidate();
  }
  void setCaption(const QString& caption) {
    caption_ = caption;
    invalidate();
  }
  void setHighlight(int index) {
    highlight_ = index;
    update();
  }

  // Geometry the tests read: the bar of entry i, and how many pixels one unit is.
  QRectF barRect(int i) const;
  double pixelsPerUnit() const;
  double zeroLine() const;  // y of the value 0
  // The value written at bar i's end and where (empty when not drawn: masked, or between the
  // every-k-th labels that fit), and whether values are turned 90° to fit their slots.
  QString valueLabel(int i) const;
  QRectF valueLabelRect(int i) const;
  bool valueLabelsTurned() const { return layout().values.turned; }
  // Where token i's label is drawn (empty when skipped).
  QRectF tokenLabelRect(int i) const;
  const QString& caption() const { return caption_; }
  const std::vector<double>& values() const { return values_; }
  static QColor barColor() { return QColor(0x35, 0x6a, 0xa0); }
  QSize sizeHint() const override { return QSize{360, 180}.expandedTo(minimumSizeHint()); }
  QSize minimumSizeHint() const override;
  // Every text the chart draws and where, for the layout check.
  std::vector<Text> drawnTexts() const override;
  // The bars' plot and its least size: four lines high, a line per bar wide.
  std::vector<Plot> plots() const override;

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override;
  void changeEvent(QEvent* e) override;

 private:
  // Every band's place, from the size, the font and the values; cached until one changes.
  struct Layout {
    QRectF plot;  // where bars are drawn
    double line = 0, gap = 0, title = 0;
    AxisLabels values, tokens;
  };
  const Layout& layout() const;
  void invalidate();
  QRectF plotRect() const { return layout().plot; }
  QRectF captionRect() const;
  double scaleMax() const;
  bool signedAxis() const;
  QString tokenLabel(int i) const;

  std::vector<double> values_;
  std::vector<bool> masked_;
  QStringList labels_;
  double fixed_max_ = 0;
  int highlight_ = -1;
  QString title_, caption_;
  mutable Layout layout_;
  mutable bool layout_valid_ = false;
  QSize last_minimum_;  // as the layout last knew it
};

}  // namespace awb::gui

#endif  // AWB_GUI_BAR_CHART_HPP_
