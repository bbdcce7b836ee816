// heatmap_widget.hpp: a T × T matrix drawn from one QImage (one pixel per cell, scaled without
// smoothing), with token labels beside it, values in cells large enough for them, a legend that
// names the colour range in force, the selected row outlined, masked cells hatched and exact
// values in tooltips.
#ifndef AWB_GUI_HEATMAP_WIDGET_HPP_
#define AWB_GUI_HEATMAP_WIDGET_HPP_

#include <QImage>
#include <QString>
#include <QStringList>
#include <QWidget>
#include <utility>
#include <vector>

#include "graders/model/tensor.hpp"
#include "gui/charts/cell_mask.hpp"
#include "gui/charts/color_range.hpp"
#include "gui/charts/labels.hpp"
#include "gui/charts/layout_check.hpp"

class QPainter;

namespace awb::gui {

class HeatmapWidget : public QWidget, public DrawnTextSource, public PlotSource {
  Q_OBJECT
 public:
  explicit HeatmapWidget(QWidget* parent = nullptr);

  // `lo`..`hi` is the matrix's scale (0..1 for weights); the colour range (below) decides
  // whether the colour map spans it. The cells `mask` masks are drawn hatched, not as a colour
  // of the map, and left out of every min–max. `causal`: the causal mask.
  void setMatrix(const Matrix& m, double lo, double hi, const CellMask& mask);
  void setMatrix(const Matrix& m, double lo, double hi, bool causal) {
    setMatrix(m, lo, hi, CellMask::causal(causal));
  }
  const CellMask& mask() const { return mask_; }
  // Whether cell (r, c) is drawn as masked, and the legend's name for such cells ("masked",
  // "out of window"; empty when the map has none).
  bool cellMasked(int r, int c) const { return masked(r, c); }
  QString maskedLegend() const;
  void setLabels(const QStringList& rows, const QStringList& cols);
  void setTitle(const QString& title);
  void setHighlightRow(int row);  // -1: none
  void clear();

  // The user's choice of colour range (kAuto by default) and the range it puts in force.
  void setColorRange(ColorRange choice);
  ColorRange colorRangeChoice() const { return choice_; }
  ColorRange range() const { return spans_.in_force(); }
  // Maps shown side by side compare only when one min–max spans them all: the min–max that
  // kMatrix and kAuto use instead of this matrix's own. NaN for either: the matrix's own.
  void setSharedMinMax(double min, double max);
  // Said in the legend's caption after the scale's numbers, e.g. "shared by every diff map".
  void setScaleNote(const QString& note);
  // Without its colour bar and caption: maps that share one bar drawn beside them (a figure).
  void setLegendShown(bool shown);
  // This matrix's own min and max over its unmasked finite cells (+inf, −inf when none).
  Span ownMinMax() const { return spans_.own(); }

  const Matrix& matrix() const { return matrix_; }
  // Where cell (r, c) is drawn, in widget coordinates (logical pixels).
  QRectF cellRect(int r, int c) const;
  QRectF plotArea() const { return layout().plot; }
  // The colour the map gives `value` in the range in force; under kRow, that of row `row`.
  QRgb colorFor(double value, int row = -1) const;
  // A point of cell (r, c) that shows its colour: its centre, or above its value's text.
  QPointF swatchPoint(int r, int c) const;

  // What the labels, cell values and legend show, where (empty when not drawn), as drawn.
  QRectF rowLabelRect(int r) const;
  QRectF columnLabelRect(int c) const;
  bool columnLabelsTurned() const { return layout().cols.turned; }
  QString cellText(int r, int c) const;
  QRectF cellTextRect(int r, int c) const;
  QColor cellTextColor(int r, int c) const;
  QString rangeCaption() const;
  // The legend's numbers from the top of its colour bar down.
  QStringList legendTicks() const;
  QRectF legendRect() const { return layout().legend; }
  QRectF captionRect() const { return layout().caption; }
  // Every text the map draws and where, for the layout check.
  std::vector<Text> drawnTexts() const override;

  // The cells' plot and its least size: cells four fifths of a line square (up to 32 a side;
  // a larger matrix shares 32 such cells' room), labels and legend beside them.
  std::vector<Plot> plots() const override;
  double minimumCell() const;

  QSize sizeHint() const override { return QSize{360, 320}.expandedTo(minimumSizeHint()); }
  QSize minimumSizeHint() const override;

 protected:
  void paintEvent(QPaintEvent*) override;
  bool event(QEvent* e) override;
  void resizeEvent(QResizeEvent*) override;
  void changeEvent(QEvent* e) override;

 private:
  // Everything's place, computed from the size, the font, the labels and the matrix's shape;
  // cached until one of them changes.
  struct Layout {
    QRectF title, plot, legend, caption;
    double cell = 0;
    double row_label_width = 0, gap = 0;
    AxisLabels cols;  // below the plot
    int row_stride = 1;
    bool values = false;  // every unmasked cell shows its value
    QFont value_font;     // in type that grows with the cells
  };
  const Layout& layout() const;
  // Whether every unmasked cell's value fits in `l.cell`, and in which type (layout()'s end).
  void fitValues(Layout& l, double line) const;
  void paintCells(QPainter& painter, const Layout& l) const;
  void paintLegend(QPainter& painter, const Layout& l) const;
  void invalidate();
  double legendWidth() const;  // the colour bar, its numbers and the masked swatch
  void resolveRange();
  void rebuildImage();
  bool masked(int r, int c) const { return mask_.hides(matrix_, r, c); }
  QString rowLabel(int r) const;
  QString columnLabel(int c) const;
  std::vector<std::pair<QString, QRectF>> legendTexts() const;

  Matrix matrix_;
  double lo_ = 0, hi_ = 1;  // the scale
  CellMask mask_;
  bool has_masked_ = false;  // some cell is drawn masked
  bool legend_shown_ = true;
  int highlight_ = -1;
  QString title_, scale_note_;
  QStringList row_labels_, col_labels_;
  QImage image_;

  ColorRange choice_ = ColorRange::kAuto;
  Span shared_{NAN, NAN};
  ColorSpans spans_;

  mutable Layout layout_;
  mutable bool layout_valid_ = false;
  QSize last_minimum_;  // as the layout last knew it
};

}  // namespace awb::gui

#endif  // AWB_GUI_HEATMAP_WIDGET_HPP_
