// context_swatch.cpp: the projection, the blend and the swatch drawing.
#include "gui/context_swatch.hpp"

#include <QPainter>
#include <algorithm>
#include <cmath>
#include <numbers>

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

ContextSwatch::ContextSwatch(QWidget* parent) : QWidget(parent) { setMinimumHeight(80); }

void ContextSwatch::setData(const Matrix& x, const std::vector<double>& weights,
                            const QStringList& tokens, int query) {
  const auto colors = embedding_colors(x);
  tokens_colors_.clear();
  for (const auto& c : colors) tokens_colors_.push_back(to_qcolor(c));
  context_ = to_qcolor(blend(colors, weights));
  tokens_ = tokens;
  query_ = query;
  legend_ =
      x.cols == 3
          ? tr("colour = embedding dims 1, 2, 3 as R, G, B (scaled to the tokens)")
          : tr("colour = fixed projection of the %1 dims to R, G, B (cosine basis)").arg(x.cols);
  update();
}

void ContextSwatch::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  painter.setPen(palette().windowText().color());
  if (tokens_colors_.empty()) return;
  const int n = static_cast<int>(tokens_colors_.size());
  const double slot = std::min(60.0, (width() - 120.0) / n);
  for (int i = 0; i < n; ++i) {
    const QRectF sw(4 + slot * i, 4, slot - 4, 24);
    painter.fillRect(sw, tokens_colors_[static_cast<size_t>(i)]);
    if (i == query_) painter.drawRect(sw.adjusted(-1, -1, 0, 0));
    painter.drawText(QRectF(sw.left(), sw.bottom() + 2, slot, 14), Qt::AlignLeft,
                     painter.fontMetrics().elidedText(i < tokens_.size() ? tokens_[i] : "",
                                                      Qt::ElideRight, static_cast<int>(slot)));
  }
  const QRectF ctx(width() - 100, 4, 40, 40);
  painter.fillRect(ctx, context_);
  painter.drawRect(ctx);
  painter.drawText(QRectF(width() - 100, 46, 100, 14), Qt::AlignLeft, tr("context"));
  painter.drawText(QRectF(4, height() - 18, width() - 8, 16), Qt::AlignLeft | Qt::AlignVCenter,
                   legend_);
}

}  // namespace awb::gui
