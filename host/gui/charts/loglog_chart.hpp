// loglog_chart.hpp: y against x on log-log axes: decade grid, ticks and labels, one coloured line
// with markers per series, and a legend that carries a note per series (its log-log slope).
#ifndef AWB_GUI_LOGLOG_CHART_HPP_
#define AWB_GUI_LOGLOG_CHART_HPP_

#include <QColor>
#include <QPointF>
#include <QString>
#include <QWidget>
#include <utility>
#include <vector>

#include "gui/charts/chart_frame.hpp"
#include "gui/charts/layout_check.hpp"

class QPainter;

namespace awb::gui {

// "slope 2.01 (R² 0.999)": the least-squares log-log slope of y against x, from three points or
// more (two always fit a line); empty when there is none.
QString loglog_slope_note(const std::vector<double>& x, const std::vector<double>& y);

class LogLogChart : public QWidget, public DrawnTextSource, public PlotSource {
  Q_OBJECT
 public:
  struct Series {
    QString label;
    QString note;                 // after the label in the legend, e.g. "slope 2.01"
    std::vector<QPointF> points;  // data units, in drawing order; only x, y > 0 can be drawn
    // Per point, the low and high ends of its interval in y (drawn as an error bar with caps);
    // empty: none. Only ends > 0 are drawn.
    std::vector<std::pair<double, double>> intervals{};
  };

  explicit LogLogChart(QWidget* parent = nullptr);

  void setSeries(std::vector<Series> series);
  void setTitle(const QString& title) {
    title_ = title;
    update();
  }
  void setAxisTitle(const QString& x_title) {
    x_title_ = x_title;
    update();
  }
  // The legend below the plot instead of over its top left corner (a figure, where no line may
  // pass under it).
  void setLegendBelow(bool below) {
    legend_below_ = below;
    update();
  }

  // Geometry the tests read. Each axis spans whole decades [10^lo, 10^hi] around the data.
  const std::vector<Series>& series() const { return series_; }
  QRectF plotRect() const;
  QPointF toPixel(QPointF data) const;
  int decadeLow(Qt::Orientation axis) const;
  int decadeHigh(Qt::Orientation axis) const;
  static QColor seriesColor(int i);
  QSize sizeHint() const override { return QSize{560, 300}.expandedTo(minimumSizeHint()); }
  QSize minimumSizeHint() const override {
    return chart_minimum(*this, plotRect(), curve_plot_minimum(*this));
  }
  std::vector<Plot> plots() const override {
    return {{QStringLiteral("curves"), plotRect().size(), curve_plot_minimum(*this)}};
  }
  // Title, tick labels, axis title and legend lines, where they are drawn.
  std::vector<Text> drawnTexts() const override;

 protected:
  void paintEvent(QPaintEvent*) override;
  void resizeEvent(QResizeEvent*) override { follow_minimum(*this, last_minimum_); }

 private:
  struct Decades {
    int lo = 0, hi = 1;
  };
  AxisBands frame() const;  // the bands around the plot, in the widget's font
  Decades decades(Qt::Orientation axis) const;
  void drawAxes(QPainter& painter, const QRectF& plot) const;
  struct AxisTexts {
    std::vector<Text> x, y;  // tick labels
    Text title;              // of the x axis
  };
  AxisTexts axisTexts(const QRectF& plot) const;
  QRectF legendBox(const QRectF& plot) const;
  double legendBelowHeight() const;  // the room a legend below the plot takes (0: none)
  void drawLegend(QPainter& painter, const QRectF& plot) const;
  QStringList legendLines() const;

  std::vector<Series> series_;
  QString title_, x_title_;
  bool legend_below_ = false;
  QSize last_minimum_;  // as the layout last knew it
};

}  // namespace awb::gui

#endif  // AWB_GUI_LOGLOG_CHART_HPP_
