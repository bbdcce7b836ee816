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

namespace awb::gui {

// Colours of the rows of `x`: for d = 3 the three dimensions are R, G, B; otherwise a fixed
// projection (row c of a cosine basis) maps d dimensions to three. Each channel is scaled to
// the tokens' own range, so the colours span the cube.
std::vector<std::array<double, 3>> embedding_colors(const Matrix& x);
// Σ_j weights[j] · colors[j]: a convex blend when the weights are a softmax row.
std::array<double, 3> blend(const std::vector<std::array<double, 3>>& colors,
                            const std::vector<double>& weights);
QColor to_qcolor(const std::array<double, 3>& rgb);

class ContextSwatch : public QWidget {
  Q_OBJECT
 public:
  explicit ContextSwatch(QWidget* parent = nullptr);
  void setData(const Matrix& x, const std::vector<double>& weights, const QStringList& tokens,
               int query);
  QColor contextColor() const { return context_; }
  QSize sizeHint() const override { return {360, 90}; }

 protected:
  void paintEvent(QPaintEvent*) override;

 private:
  std::vector<QColor> tokens_colors_;
  QStringList tokens_;
  QColor context_;
  int query_ = 0;
  QString legend_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_CONTEXT_SWATCH_HPP_
