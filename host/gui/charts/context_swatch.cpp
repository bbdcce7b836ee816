// context_swatch.cpp: the projection, the blend and the swatch drawing.
#include "gui/charts/context_swatch.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "gui/charts/colormap.hpp"

namespace awb::gui {

std::vector<std::array<double, 3>> embedding_colors(const Matrix& x) {
  const int64_t t = x.rows, d = x.cols;
  std::vector<std::array<double, 3>> raw(static_cast<size_t>(t), {0, 0, 0});
  for (int64_t r = 0; r < t; ++r)
    for (int c = 0; c < 3; ++c) {
      double v = 0;
      if (d == 3) {
        v = x(r, c);
      } else {
        // Fixed projection: DCT-II basis rows 0, 1, 2 (row 0 is the mean, 1 and 2 contrasts).
        for (int64_t k = 0; k < d; ++k)
          v += x(r, k) * std::cos(std::numbers::pi * c * (static_cast<double>(k) + 0.5) /
                                  static_cast<double>(d));
      }
      raw[static_cast<size_t>(r)][static_cast<size_t>(c)] = v;
    }
  for (size_t c = 0; c < 3; ++c) {
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& v : raw) lo = std::min(lo, v[c]), hi = std::max(hi, v[c]);
    for (auto& v : raw) v[c] = hi > lo ? (v[c] - lo) / (hi - lo) : 0.5;
  }
  return raw;
}

std::array<double, 3> blend(const std::vector<std::array<double, 3>>& colors,
                            const std::vector<double>& weights) {
  std::array<double, 3> out{0, 0, 0};
  for (size_t j = 0; j < colors.size() && j < weights.size(); ++j)
    for (size_t c = 0; c < 3; ++c) out[c] += weights[j] * colors[j][c];
  return out;
}

QColor to_qcolor(const std::array<double, 3>& rgb) {
  return QColor::fromRgbF(static_cast<float>(std::clamp(rgb[0], 0.0, 1.0)),
                          static_cast<float>(std::clamp(rgb[1], 0.0, 1.0)),
                          static_cast<float>(std::clamp(rgb[2], 0.0, 1.0)));
}

ContextSwatch::ContextSwatch(QWidget* parent) : QWidget(parent) {}

void ContextSwatch::setData(const Matrix& x, const std::vector<double>& weights,
                            const QStringList& tokens, int query, const QString& empty_reason) {
  const auto colors = embedding_colors(x);
  tokens_colors_.clear();
  for (const auto& c : colors) tokens_colors_.push_back(to_qcolor(c));
  // A blend of nothing is black, which would read as a colour: no weight shows no colour.
  const bool empty = std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0; });
  context_ = empty ? QColor() : to_qcolor(blend(colors, weights));
  tokens_ = tokens;
  query_ = query;
  legend_ =
      x.cols == 3
          ? tr("colour = embedding dims 0, 1, 2 as R, G, B (scaled to the tokens)")
          : tr("colour = fixed projection of the %1 dims to R, G, B (cosine basis)").arg(x.cols);
  if (empty)
    legend_ += QStringLiteral(". ") +
               (empty_reason.isEmpty() ? tr("No context: the weights are all 0") : empty_reason);
  updateGeometry();  // the label rows and the legend set the height
  update();
}

ContextSwatch::Layout ContextSwatch::layout(int width) const {
  Layout l;
  const QFontMetricsF fm(font());
  const double line = fm.lineSpacing(), pad = fm.averageCharWidth();
  const QString caption = tr("context");
  const double square = 2 * line + 4;
  const double ctx_w = std::max(square, fm.horizontalAdvance(caption) + 2);
  const int n = static_cast<int>(tokens_colors_.size());
  const double row_w = std::max(1.0, width - ctx_w - 3 * pad - 4);
  const double slot = n > 0 ? std::min(4 * line, row_w / n) : 0;
  // Labels alternate over `rows` rows, so each has `rows` slots of room.
  double widest = 0;
  for (const auto& t : tokens_) widest = std::max(widest, fm.horizontalAdvance(t));
  const int rows =
      slot > 0 ? std::clamp(static_cast<int>(std::ceil((widest + 2) / slot)), 1, std::max(1, n))
               : 1;
  const double top = 4, swatch_h = 1.5 * line;
  for (int i = 0; i < n; ++i) {
    l.swatches.emplace_back(4 + slot * i, top, std::max(1.0, slot - 4), swatch_h);
    const double y = top + swatch_h + 2 + (i % rows) * line;
    l.texts.push_back({i < tokens_.size() ? tokens_[i] : QString(),
                       QRectF(4 + slot * i, y, slot * rows - 2, line)});
  }
  l.context = QRectF(width - ctx_w - pad, top, square, square);
  l.texts.push_back({caption, QRectF(l.context.left(), l.context.bottom() + 2, ctx_w, line)});
  const double body = std::max(top + swatch_h + 2 + rows * line, l.context.bottom() + 2 + line);
  const double legend_w = std::max(1.0, width - 8.0);
  const double legend_h =
      fm.boundingRect(QRectF(0, 0, legend_w, 1 << 20), Qt::TextWordWrap, legend_).height();
  l.texts.push_back({legend_, QRectF(4, body + 4, legend_w, legend_h), false, true});
  l.height = static_cast<int>(std::ceil(body + 4 + legend_h + 4));
  return l;
}

QSize ContextSwatch::sizeHint() const {
  const int w = fontMetrics().averageCharWidth() * 50;
  return {w, heightForWidth(w)};
}

QSize ContextSwatch::minimumSizeHint() const {
  const int w = fontMetrics().averageCharWidth() * 20;
  return {w, std::max(80, heightForWidth(width() > 0 ? width() : w))};
}

int ContextSwatch::heightForWidth(int width) const { return layout(width).height; }

std::vector<DrawnTextSource::Text> ContextSwatch::drawnTexts() const {
  if (tokens_colors_.empty()) return {};
  return layout(width()).texts;
}

void ContextSwatch::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  painter.setPen(palette().windowText().color());
  if (tokens_colors_.empty()) return;
  const Layout l = layout(width());
  for (size_t i = 0; i < l.swatches.size(); ++i) {
    painter.fillRect(l.swatches[i], tokens_colors_[i]);
    if (static_cast<int>(i) == query_) painter.drawRect(l.swatches[i].adjusted(-1, -1, 0, 0));
  }
  if (context_.isValid()) {
    painter.fillRect(l.context, context_);
  } else {
    painter.fillRect(l.context, masked_color());
    painter.fillRect(l.context, QBrush(QColor(70, 70, 70), Qt::BDiagPattern));
  }
  painter.drawRect(l.context);
  for (const auto& t : l.texts)
    painter.drawText(t.rect, Qt::AlignLeft | Qt::AlignTop | (t.wrapped ? Qt::TextWordWrap : 0),
                     t.text);
}

}  // namespace awb::gui
