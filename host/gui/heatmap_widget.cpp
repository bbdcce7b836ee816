// heatmap_widget.cpp: the image is rebuilt only when the data changes; a repaint only scales it.
#include "gui/heatmap_widget.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QToolTip>
#include <algorithm>
#include <cmath>

#include "gui/colormap.hpp"

namespace awb::gui {
namespace {

constexpr int kLegendWidth = 64;  // colour bar and its labels, right of the plot
constexpr int kTitleHeight = 18;

// The map entry of `value`: nearest of 256, clamped (NaN gives the lowest).
inline int map_index(double value, double lo, double scale) {
  const double t = (value - lo) * scale + 0.5;
  if (!(t >= 1)) return 0;
  return t < ColorMap::kSize ? static_cast<int>(t) : ColorMap::kSize - 1;
}

}  // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeatmapWidget::setMatrix(const Matrix& m, double lo, double hi, bool causal) {
  matrix_ = m;
  lo_ = lo;
  hi_ = hi > lo ? hi : lo + 1;
  causal_ = causal;
  rebuildImage();
  update();
}

void HeatmapWidget::setLabels(const QStringList& rows, const QStringList& cols) {
  row_labels_ = rows;
  col_labels_ = cols;
  update();
}

void HeatmapWidget::setHighlightRow(int row) {
  highlight_ = row;
  update();
}

void HeatmapWidget::clear() {
  matrix_ = {};
  image_ = {};
  update();
}

QRgb HeatmapWidget::colorFor(double value) const {
  return ColorMap::instance().entry(map_index(value, lo_, (ColorMap::kSize - 1) / (hi_ - lo_)));
}

void HeatmapWidget::rebuildImage() {
  const int rows = static_cast<int>(matrix_.rows), cols = static_cast<int>(matrix_.cols);
  image_ = QImage(cols, rows, QImage::Format_RGB32);
  const QRgb masked = masked_color().rgb();
  const ColorMap& map = ColorMap::instance();
  const double scale = (ColorMap::kSize - 1) / (hi_ - lo_);
  // The hot loop of a slider drag at large T: a multiply and a table read per cell.
  for (int r = 0; r < rows; ++r) {
    auto* line = reinterpret_cast<QRgb*>(image_.scanLine(r));
    const double* values = matrix_.data.data() + static_cast<size_t>(r) * cols;
    for (int c = 0; c < cols; ++c)
      line[c] = causal_ && c > r ? masked : map.entry(map_index(values[c], lo_, scale));
  }
}

QRectF HeatmapWidget::plotRect() const {
  // Square cells, whole logical pixels per cell when there is room, so cells stay crisp.
  const double w = width() - kLegendWidth - 8, h = height() - kTitleHeight - 4;
  const int n = static_cast<int>(std::max(matrix_.rows, matrix_.cols));
  if (n == 0 || w <= 0 || h <= 0) return {};
  double cell = std::min(w, h) / n;
  if (cell >= 1) cell = std::floor(cell);
  return {4, kTitleHeight + 2.0, cell * static_cast<double>(matrix_.cols),
          cell * static_cast<double>(matrix_.rows)};
}

QRectF HeatmapWidget::cellRect(int r, int c) const {
  const QRectF p = plotRect();
  if (p.isEmpty()) return {};
  const double cw = p.width() / static_cast<double>(matrix_.cols);
  const double ch = p.height() / static_cast<double>(matrix_.rows);
  return {p.left() + c * cw, p.top() + r * ch, cw, ch};
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  painter.fillRect(rect(), palette().window());
  painter.setPen(palette().windowText().color());
  painter.drawText(QRectF(4, 0, width() - 8, kTitleHeight), Qt::AlignLeft | Qt::AlignVCenter,
                   title_);
  const QRectF p = plotRect();
  if (p.isEmpty() || image_.isNull()) return;
  painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  painter.drawImage(p, image_);

  const int n = static_cast<int>(matrix_.rows);
  if (causal_ && n > 1) {
    // The masked upper triangle as one staircase polygon, hatched.
    QPolygonF stairs;
    for (int r = 0; r + 1 < n; ++r) {
      const QRectF a = cellRect(r, r + 1);
      stairs << QPointF(a.left(), a.top()) << QPointF(a.left(), a.bottom());
    }
    stairs << QPointF(p.right(), p.bottom() - cellRect(n - 1, 0).height())
           << QPointF(p.right(), p.top());
    painter.setPen(Qt::NoPen);
    painter.setBrush(QBrush(QColor(70, 70, 70), Qt::BDiagPattern));
    painter.drawPolygon(stairs);
  }
  if (highlight_ >= 0 && highlight_ < n) {
    // Black and white outline: visible over every colour of the map.
    const QRectF row = cellRect(highlight_, 0).united(cellRect(highlight_, n - 1));
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(Qt::white, 3));
    painter.drawRect(row.adjusted(-2, -2, 2, 2));
    painter.setPen(QPen(Qt::black, 1));
    painter.drawRect(row.adjusted(-2, -2, 2, 2));
  }

  // Legend: the colour bar from lo (bottom) to hi (top), and the masked swatch.
  const QRectF bar(p.right() + 10, p.top(), 14, std::max(40.0, p.height() - 30));
  QImage ramp(1, ColorMap::kSize, QImage::Format_RGB32);
  for (int i = 0; i < ColorMap::kSize; ++i)
    ramp.setPixel(0, ColorMap::kSize - 1 - i, ColorMap::instance().entry(i));
  painter.drawImage(bar, ramp);
  painter.setPen(palette().windowText().color());
  const QFontMetrics fm(font());
  const auto label = [&](double v) { return QString::number(v, 'g', 3); };
  painter.drawText(QPointF(bar.right() + 3, bar.top() + fm.ascent()), label(hi_));
  painter.drawText(QPointF(bar.right() + 3, bar.center().y() + fm.ascent() / 2.0),
                   label((lo_ + hi_) / 2));
  painter.drawText(QPointF(bar.right() + 3, bar.bottom()), label(lo_));
  if (causal_) {
    const QRectF sw(bar.left(), bar.bottom() + 8, 14, 14);
    painter.fillRect(sw, masked_color());
    painter.fillRect(sw, QBrush(QColor(70, 70, 70), Qt::BDiagPattern));
    painter.drawText(QPointF(sw.right() + 3, sw.bottom() - 2), tr("masked"));
  }
}

bool HeatmapWidget::event(QEvent* e) {
  if (e->type() != QEvent::ToolTip) return QWidget::event(e);
  auto* help = static_cast<QHelpEvent*>(e);
  const QRectF p = plotRect();
  if (p.isEmpty() || !p.contains(help->pos())) {
    QToolTip::hideText();
    return true;
  }
  const int c = std::min<int>(static_cast<int>((help->pos().x() - p.left()) / p.width() *
                                               static_cast<double>(matrix_.cols)),
                              static_cast<int>(matrix_.cols) - 1);
  const int r = std::min<int>(static_cast<int>((help->pos().y() - p.top()) / p.height() *
                                               static_cast<double>(matrix_.rows)),
                              static_cast<int>(matrix_.rows) - 1);
  const QString rl = r < row_labels_.size() ? row_labels_[r] : QString::number(r);
  const QString cl = c < col_labels_.size() ? col_labels_[c] : QString::number(c);
  const QString value =
      causal_ && c > r ? tr("masked (causal): exactly 0") : QString::number(matrix_(r, c), 'g', 10);
  QToolTip::showText(help->globalPos(), tr("query %1, key %2: %3").arg(rl, cl, value), this);
  return true;
}

}  // namespace awb::gui
