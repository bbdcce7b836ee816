// loss_chart.hpp: a training loss against the step: steps on a linear axis, the loss on a log
// axis (decade grid), the curve with its points, and the loss to get below as a dashed line.
#ifndef AWB_GUI_LOSS_CHART_HPP_
#define AWB_GUI_LOSS_CHART_HPP_

#include <QPointF>
#include <QString>
#include <QWidget>
#include <optional>
#include <vector>

#include "gui/charts/chart_frame.hpp"
#include "gui/charts/layout_check.hpp"

class QPainter;

namespace awb::gui {

class LossChart : public QWidget, public DrawnTextSource, public PlotSource {
  Q_OBJECT
 public:
  explicit LossChart(QWidget* parent = nullptr);

  // (step, loss) in drawing order; a loss ≤ 0 cannot be drawn on the log axis and is left out.
  void setPoints(std::vector<QPointF> points);
  // The x axis spans 0 .. `steps` (the step budget), so the curve grows across a fixed frame.
  void setStepRange(int steps);
  void setThreshold(std::optional<double> loss);  // success: the loss under this
  void setTitle(const QString& title) {
    title_ = title;
    update();
  }

  // Geometry the tests read. The y axis spans whole decades [10^lo, 10^hi] around the data.
  const std::vector<QPointF>& points() const { return points_; }
  QRectF plotRect() const;
  QPointF toPixel(QPointF data) const;
  int decadeLow() const { return decades().first; }
  int decadeHigh() const { return decades().second; }
  QSize sizeHint() const override { return QSize{560, 300}.expandedTo(minimumSizeHint()); }
  QSize minimumSizeHint() const override {
    return chart_minimum(*this, plotRect(), curve_plot_minimum(*this));
  }
  std::vector<Plot> plots() const override {
    return {{QStringLiteral("curves"), plotRect().size(), curve_plot_minimum(*this)}};
  }
  // Title, tick labels, axis title and the threshold's label, where they are drawn.
  std::vector<Text> drawnTexts() const override;

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override { follow_minimum(*this, last_minimum_); }

 private:
  std::pair<int, int> decades() const;
  AxisBands frame() const;  // the bands around the plot, in the widget's font
  // Every text but the title: x and y tick labels, the axis title, the threshold's label.
  struct Labels {
    std::vector<Text> x, y;
    Text axis, threshold;
  };
  Labels labels(const QRectF& plot) const;
  void drawAxes(QPainter& painter, const QRectF& plot) const;

  std::vector<QPointF> points_;
  int steps_ = 1;
  std::optional<double> threshold_;
  QString title_;
  QSize last_minimum_;  // as the layout last knew it
};

}  // namespace awb::gui

#endif  // AWB_GUI_LOSS_CHART_HPP_
