// context_swatch.hpp: the context vector as a colour: each token's embedding projected to RGB,
// and the query's context as the attention-weighted blend of those colours.
#ifndef AWB_GUI_CONTEXT_SWATCH_HPP_
#define AWB_GUI_CONTEXT_SWATCH_HPP_

#include <QColor>
#include <QStringList>
#include <QWidget>
#include <array>
#include <vector>

#include "graders/model/tensor.hpp"
#include "gui/charts/layout_check.hpp"

namespace awb::gui {

// Colours of the rows of `x`: for d = 3 the three dimensions are R, G, B; otherwise a fixed
// projection (row c of a cosine basis) maps d dimensions to three. Each channel is scaled to
// the tokens' own range, so the colours span the cube.
std::vector<std::array<double, 3>> embedding_colors(const Matrix& x);
// Σ_j weights[j] · colors[j]: a convex blend when the weights are a softmax row.
std::array<double, 3> blend(const std::vector<std::array<double, 3>>& colors,
                            const std::vector<double>& weights);
QColor to_qcolor(const std::array<double, 3>& rgb);

class ContextSwatch : public QWidget, public DrawnTextSource {
  Q_OBJECT
 public:
  explicit ContextSwatch(QWidget* parent = nullptr);
  // `empty_reason`: what to say when the weights are all 0 (there is no blend to show).
  void setData(const Matrix& x, const std::vector<double>& weights, const QStringList& tokens,
               int query, const QString& empty_reason = {});
  // Invalid when the weights are all 0: the square is hatched and the legend says why.
  QColor contextColor() const { return context_; }
  const QString& legend() const { return legend_; }
  // Sizes follow the font (the window's zoom): the height grows when token labels need more
  // than one row to stay whole.
  QSize sizeHint() const override;
  QSize minimumSizeHint() const override;
  bool hasHeightForWidth() const override { return true; }
  int heightForWidth(int width) const override;
  std::vector<Text> drawnTexts() const override;

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  // Where everything goes at `width`: swatches, their labels (staggered over as many rows as
  // the longest needs), the context square and its caption, the legend (word-wrapped).
  struct Layout {
    std::vector<QRectF> swatches;
    std::vector<Text> texts;  // token labels, "context", the legend
    QRectF context;
    int height = 0;
  };
  Layout layout(int width) const;

  std::vector<QColor> tokens_colors_;
  QStringList tokens_;
  QColor context_;
  int query_ = 0;
  QString legend_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_CONTEXT_SWATCH_HPP_
