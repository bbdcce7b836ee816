// color_bar.hpp: one colour bar for several heatmaps that share a range: the map's ramp from the
// range's low end (bottom) to its high end (top), three numbers beside it and a title above.
#ifndef AWB_FIGURE_COLOR_BAR_HPP_
#define AWB_FIGURE_COLOR_BAR_HPP_

#include <QString>
#include <QWidget>

namespace awb::figure {

class ColorBar : public QWidget {
 public:
  ColorBar(const QString& title, double low, double high, QWidget* parent = nullptr);
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override { return sizeHint(); }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  QString title_;
  double low_ = 0, high_ = 1;
};

}  // namespace awb::figure

#endif  // AWB_FIGURE_COLOR_BAR_HPP_
