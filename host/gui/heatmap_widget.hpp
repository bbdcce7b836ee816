// heatmap_widget.hpp: a T × T matrix drawn from one QImage (one pixel per cell, scaled without
// smoothing), with a legend, the selected row outlined, masked cells hatched and exact values
// in tooltips.
#ifndef AWB_GUI_HEATMAP_WIDGET_HPP_
#define AWB_GUI_HEATMAP_WIDGET_HPP_

#include <QImage>
#include <QString>
#include <QStringList>
#include <QWidget>

#include "graders/model/tensor.hpp"

namespace awb::gui {

class HeatmapWidget : public QWidget {
  Q_OBJECT
 public:
  explicit HeatmapWidget(QWidget* parent = nullptr);

  // `lo`..`hi` is the value range the colour map spans. `causal`: cells above the diagonal are
  // masked (drawn hatched, not as a colour of the map).
  void setMatrix(const Matrix& m, double lo, double hi, bool causal);
  void setLabels(const QStringList& rows, const QStringList& cols);
  void setTitle(const QString& title) {
    title_ = title;
    update();
  }
  void setHighlightRow(int row);  // -1: none
  void clear();

  const Matrix& matrix() const { return matrix_; }
  // Where cell (r, c) is drawn, in widget coordinates (logical pixels).
  QRectF cellRect(int r, int c) const;
  // The colour the map gives `value` in this widget's range.
  QRgb colorFor(double value) const;
  QSize sizeHint() const override { return {360, 320}; }
  QSize minimumSizeHint() const override { return {160, 140}; }

 protected:
  void paintEvent(QPaintEvent*) override;
  bool event(QEvent* e) override;

 private:
  QRectF plotRect() const;
  void rebuildImage();

  Matrix matrix_;
  double lo_ = 0, hi_ = 1;
  bool causal_ = false;
  int highlight_ = -1;
  QString title_;
  QStringList row_labels_, col_labels_;
  QImage image_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_HEATMAP_WIDGET_HPP_
