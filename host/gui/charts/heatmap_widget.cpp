// heatmap_widget.cpp: the image is rebuilt only when the data or the colour range changes; a
// repaint only scales it. The layout is computed from the font's metrics alone (no pixel sizes
// of text), so labels, values and legend grow with the application font and the plot shrinks
// to leave them room.
#include "gui/charts/heatmap_widget.hpp"

#include <QHelpEvent>
#include <QPainter>
#include <QPainterPath>
#include <QToolTip>
#include <algorithm>

#include "gui/charts/chart_frame.hpp"
#include "gui/charts/colormap.hpp"
#include "gui/charts/labels.hpp"

namespace awb::gui {
namespace {

// The map entry of `value`: nearest of 256, clamped (NaN gives the lowest).
inline int map_index(double value, double lo, double scale) {
  const double t = (value - lo) * scale + 0.5;
  if (!(t >= 1)) return 0;
  return t < ColorMap::kSize ? static_cast<int>(t) : ColorMap::kSize - 1;
}

inline double map_scale(Span span) { return (ColorMap::kSize - 1) / (span.second - span.first); }

}  // namespace

HeatmapWidget::HeatmapWidget(QWidget* parent) : QWidget(parent) {
  setMouseTracking(true);
  setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Expanding);
}

void HeatmapWidget::setMatrix(const Matrix& m, double lo, double hi, const CellMask& mask) {
  // Another shape needs other room; a new frame of the same shape (a slider drag) does not.
  const bool reshaped = m.rows != matrix_.rows || m.cols != matrix_.cols;
  matrix_ = m;
  lo_ = lo;
  hi_ = hi > lo ? hi : lo + 1;
  mask_ = mask;
  has_masked_ = false;
  if (mask_.any())
    for (int64_t r = 0; r < m.rows && !has_masked_; ++r)
      for (int64_t c = 0; c < m.cols && !has_masked_; ++c) has_masked_ = mask_.hides(m, r, c);
  resolveRange();
  if (reshaped) updateGeometry();
}

void HeatmapWidget::setLabels(const QStringList& rows, const QStringList& cols) {
  row_labels_ = rows;
  col_labels_ = cols;
  invalidate();
  updateGeometry();
}

void HeatmapWidget::setTitle(const QString& title) {
  title_ = title;
  invalidate();
  updateGeometry();
}

void HeatmapWidget::setHighlightRow(int row) {
  highlight_ = row;
  invalidate();  // the per-row caption names the selected row's numbers
}

void HeatmapWidget::clear() {
  matrix_ = {};
  image_ = {};
  spans_ = {};
  invalidate();
}

void HeatmapWidget::setColorRange(ColorRange choice) {
  choice_ = choice;
  resolveRange();
}

void HeatmapWidget::setSharedMinMax(double min, double max) {
  shared_ = {min, max};
  resolveRange();
}

void HeatmapWidget::setScaleNote(const QString& note) {
  scale_note_ = note;
  invalidate();
}

void HeatmapWidget::setLegendShown(bool shown) {
  legend_shown_ = shown;
  invalidate();
  updateGeometry();
}

void HeatmapWidget::invalidate() {
  layout_valid_ = false;
  update();
}

void HeatmapWidget::resizeEvent(QResizeEvent*) {
  // Another width wraps the title and caption otherwise: the least height follows.
  layout_valid_ = false;
  follow_minimum(*this, last_minimum_);
}

void HeatmapWidget::changeEvent(QEvent* e) {
  // A larger application font (the window's zoom) reaches every widget as a FontChange.
  if (e->type() == QEvent::FontChange) {
    invalidate();
    updateGeometry();
  }
  QWidget::changeEvent(e);
}

void HeatmapWidget::resolveRange() {
  spans_.resolve(matrix_, {lo_, hi_}, mask_, choice_, shared_);
  rebuildImage();
  invalidate();
}

QRgb HeatmapWidget::colorFor(double value, int row) const {
  const auto s = spans_.span(row);
  return ColorMap::instance().entry(map_index(value, s.first, map_scale(s)));
}

void HeatmapWidget::rebuildImage() {
  const int rows = static_cast<int>(matrix_.rows), cols = static_cast<int>(matrix_.cols);
  image_ = QImage(cols, rows, QImage::Format_RGB32);
  const QRgb masked_rgb = masked_color().rgb();
  const ColorMap& map = ColorMap::instance();
  // The hot loop of a slider drag at large T: a multiply and a table read per cell.
  for (int r = 0; r < rows; ++r) {
    const auto s = spans_.span(r);
    const double lo = s.first, scale = map_scale(s);
    auto* line = reinterpret_cast<QRgb*>(image_.scanLine(r));
    const double* values = matrix_.data.data() + static_cast<size_t>(r) * cols;
    for (int c = 0; c < cols; ++c)
      line[c] = masked(r, c) ? masked_rgb : map.entry(map_index(values[c], lo, scale));
  }
}

QStringList HeatmapWidget::legendTicks() const {
  if (spans_.in_force() == ColorRange::kRow) return {tr("row max"), QString(), tr("row min")};
  const auto s = spans_.span(-1);
  return {value_text(s.second), value_text((s.first + s.second) / 2), value_text(s.first)};
}

QString HeatmapWidget::rangeCaption() const {
  const QString head =
      choice_ == ColorRange::kAuto ? tr("colour range (auto): %1") : tr("colour range: %1");
  const auto s = spans_.span(-1);
  const QString numbers = QStringLiteral("%1–%2").arg(value_text(s.first), value_text(s.second));
  switch (spans_.in_force()) {
    case ColorRange::kMatrix:
      return head.arg(spans_.shared() ? tr("min–max of the maps shown, %1").arg(numbers)
                                      : tr("matrix min–max, %1").arg(numbers));
    case ColorRange::kRow: {
      // The selected row's own numbers: what its colours span.
      QString text = tr("per row, from each row's min to its max");
      if (highlight_ >= 0 && highlight_ < matrix_.rows) {
        const auto row = spans_.span(highlight_);
        text += tr(" (%1: %2–%3)")
                    .arg(rowLabel(highlight_), value_text(row.first), value_text(row.second));
      }
      return head.arg(text);
    }
    default:
      return head.arg(scale_note_.isEmpty() ? numbers : numbers + ", " + scale_note_);
  }
}

QString HeatmapWidget::maskedLegend() const {
  if (!has_masked_) return {};
  if (!mask_.windowed()) return tr("masked");
  return mask_.ahead == 0 ? tr("masked or out of window") : tr("out of window");
}

QString HeatmapWidget::rowLabel(int r) const {
  return r < row_labels_.size() ? row_labels_[r] : QString::number(r);
}

QString HeatmapWidget::columnLabel(int c) const {
  return c < col_labels_.size() ? col_labels_[c] : QString::number(c);
}

double HeatmapWidget::legendWidth() const {
  if (!legend_shown_) return 0;
  // The legend: colour bar, its numbers, and the masked swatch.
  const double line = std::ceil(QFontMetricsF(font()).height());
  const double gap = std::max(5.0, std::ceil(line / 3));
  double w = line + gap / 2 + widest(font(), legendTicks());
  if (has_masked_) w = std::max(w, line + gap / 2 + text_width(font(), maskedLegend()));
  return std::ceil(w);
}

const HeatmapWidget::Layout& HeatmapWidget::layout() const {
  if (layout_valid_) return layout_;
  layout_valid_ = true;
  Layout& l = layout_;
  l = {};
  const QFontMetricsF fm(font());
  const double line = std::ceil(fm.height());
  const double margin = std::ceil(line / 4);
  l.gap = std::max(5.0, std::ceil(line / 3));  // clears the selected row's outline too
  const double w = width(), h = height();
  const int rows = static_cast<int>(matrix_.rows), cols = static_cast<int>(matrix_.cols);

  // Title on top and the range's caption below, both wrapped to the width.
  const auto wrapped = [&](const QString& text) {
    if (text.isEmpty()) return 0.0;
    return std::ceil(
        fm.boundingRect(QRectF(0, 0, w - 2 * margin, 1e6), Qt::AlignLeft | Qt::TextWordWrap, text)
            .height());
  };
  l.title = QRectF(margin, margin, w - 2 * margin, wrapped(title_));
  const QString caption = rows > 0 && legend_shown_ ? rangeCaption() : QString();
  const double caption_h = wrapped(caption);

  const double legend_w = legendWidth();

  const bool labelled = !row_labels_.isEmpty() || !col_labels_.isEmpty();
  QStringList row_texts, col_texts;
  if (labelled) {
    for (int r = 0; r < rows; ++r) row_texts << rowLabel(r);
    for (int c = 0; c < cols; ++c) col_texts << columnLabel(c);
  }
  l.row_label_width = std::ceil(widest(font(), row_texts));
  const double col_widest = widest(font(), col_texts);

  const double left = margin + (labelled ? l.row_label_width + l.gap : 0);
  const double top = l.title.bottom() + (title_.isEmpty() ? 0 : l.gap);
  const double room_w = w - left - l.gap - legend_w - margin;
  const double room_h = h - top - (caption_h > 0 ? l.gap + caption_h : 0) - margin;
  if (rows == 0 || cols == 0) return l;
  // Square cells, as large as the room allows once the column labels have theirs; whole logical
  // pixels per cell when there is room, so cells stay crisp.
  auto cell_for = [&](double depth) {
    double cell = std::min(room_w / cols, (room_h - (labelled ? depth + l.gap : 0)) / rows);
    return cell >= 1 ? std::floor(cell) : cell;
  };
  double cell = cell_for(line);
  AxisLabels fit = fit_axis_labels(fm, col_widest, cell);
  if (fit.turned) {
    cell = cell_for(fit.depth);
    fit = fit_axis_labels(fm, col_widest, cell);
  }
  if (!(cell > 0)) return l;
  l.cell = cell;
  l.cols = {fit.turned, fit.stride, labelled ? fit.depth : 0};
  l.row_stride = label_stride(line, cell);
  l.plot = QRectF(left, top, cell * cols, cell * rows);
  const double below = l.plot.bottom() + (labelled ? l.gap + l.cols.depth : 0);
  l.caption = QRectF(margin, below + l.gap, w - 2 * margin, caption_h);
  const double legend_h =
      std::max(l.plot.height(), (has_masked_ ? 4 : 3) * line) - (has_masked_ ? line + l.gap : 0);
  l.legend = QRectF(l.plot.right() + l.gap, l.plot.top(), legend_w, legend_h);

  fitValues(l, line);
  return l;
}

void HeatmapWidget::fitValues(Layout& l, double line) const {
  const int rows = static_cast<int>(matrix_.rows), cols = static_cast<int>(matrix_.cols);
  // Values in cells only when every unmasked cell's text fits, a sixth of a line clear of the
  // cell's edges: all or none, so a map never reads as if some cells had no value. Their type
  // grows with the cells (up to twice the text's size) and shrinks to three fifths of it before
  // the values are left out.
  const double room = l.cell - 2 * std::ceil(line / 6);
  if (room < 0.6 * line) return;  // not even the smallest type fits (a long sequence)
  QStringList values;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      if (!masked(r, c)) values << value_text(matrix_(r, c));
  const double base_px = QFontInfo(font()).pixelSize();
  const double base_w = widest(font(), values);
  if (room > 0 && base_w > 0 && base_px > 0) {
    double px = std::floor(std::min({2 * base_px, base_px * room / base_w, room / 1.25}));
    l.value_font = font();
    for (; px >= std::ceil(0.6 * base_px); --px) {  // the metrics are not quite linear: check
      l.value_font.setPixelSize(static_cast<int>(px));
      if (widest(l.value_font, values) <= room &&
          std::ceil(QFontMetricsF(l.value_font).height()) <= room) {
        l.values = true;
        break;
      }
    }
  }
}

double HeatmapWidget::minimumCell() const {
  const double line = std::ceil(QFontMetricsF(font()).height());
  const double side = static_cast<double>(std::max<int64_t>({matrix_.rows, matrix_.cols, 1}));
  const double cell = 0.8 * line * std::min(1.0, 32 / side);
  return cell >= 1 ? std::ceil(cell) : cell;  // the layout gives whole pixels per cell
}

std::vector<PlotSource::Plot> HeatmapWidget::plots() const {
  if (matrix_.rows == 0 || matrix_.cols == 0) return {};
  const double cell = minimumCell();
  return {
      {QStringLiteral("cells"), layout().plot.size(),
       QSizeF(static_cast<double>(matrix_.cols) * cell, static_cast<double>(matrix_.rows) * cell)}};
}

QSize HeatmapWidget::minimumSizeHint() const {
  if (matrix_.rows == 0 || matrix_.cols == 0) return {160, 140};
  // The bands as they are (title and caption wrapped at this width), the cells at their least,
  // and the column labels as deep as they can be (turned, the widest one's length).
  const Layout& l = layout();
  const QFontMetricsF fm(font());
  const double line = std::ceil(fm.height()), margin = std::ceil(line / 4);
  const double gap = std::max(5.0, std::ceil(line / 3)), cell = minimumCell();
  const bool labelled = !row_labels_.isEmpty() || !col_labels_.isEmpty();
  QStringList col_texts;
  for (int c = 0; labelled && c < static_cast<int>(matrix_.cols); ++c) col_texts << columnLabel(c);
  QStringList row_texts;
  for (int r = 0; labelled && r < static_cast<int>(matrix_.rows); ++r) row_texts << rowLabel(r);
  const double cols = static_cast<double>(matrix_.cols), rows = static_cast<double>(matrix_.rows);
  const double w = margin + (labelled ? std::ceil(widest(font(), row_texts)) + gap : 0) +
                   cols * cell + gap + legendWidth() + margin;
  const double h = margin + l.title.height() + gap + rows * cell +
                   (labelled ? gap + std::max(line, widest(font(), col_texts)) : 0) + gap +
                   l.caption.height() + margin;
  return QSize(static_cast<int>(std::ceil(w)), static_cast<int>(std::ceil(h)))
      .expandedTo({160, 140});
}

QRectF HeatmapWidget::cellRect(int r, int c) const {
  const Layout& l = layout();
  if (l.plot.isEmpty()) return {};
  return {l.plot.left() + c * l.cell, l.plot.top() + r * l.cell, l.cell, l.cell};
}

QRectF HeatmapWidget::rowLabelRect(int r) const {
  const Layout& l = layout();
  if (l.plot.isEmpty() || (row_labels_.isEmpty() && col_labels_.isEmpty()) || r < 0 ||
      r >= matrix_.rows || r % l.row_stride != 0)
    return {};
  const QFontMetricsF fm(font());
  const double tw = text_width(font(), rowLabel(r)), th = std::ceil(fm.height());
  const double cy = l.plot.top() + (r + 0.5) * l.cell;
  return {l.plot.left() - l.gap - tw, cy - th / 2, tw, th};
}

QRectF HeatmapWidget::columnLabelRect(int c) const {
  const Layout& l = layout();
  if (l.plot.isEmpty() || (row_labels_.isEmpty() && col_labels_.isEmpty()) || c < 0 ||
      c >= matrix_.cols || c % l.cols.stride != 0)
    return {};
  const QFontMetricsF fm(font());
  const double tw = text_width(font(), columnLabel(c)), th = std::ceil(fm.height());
  const double cx = l.plot.left() + (c + 0.5) * l.cell, y = l.plot.bottom() + l.gap;
  return l.cols.turned ? QRectF(cx - th / 2, y, th, tw) : QRectF(cx - tw / 2, y, tw, th);
}

QString HeatmapWidget::cellText(int r, int c) const {
  if (!layout().values || r < 0 || c < 0 || r >= matrix_.rows || c >= matrix_.cols || masked(r, c))
    return {};
  return value_text(matrix_(r, c));
}

QRectF HeatmapWidget::cellTextRect(int r, int c) const {
  const QString text = cellText(r, c);
  if (text.isEmpty()) return {};
  const QFont& f = layout().value_font;
  const double tw = text_width(f, text), th = std::ceil(QFontMetricsF(f).height());
  const QPointF centre = cellRect(r, c).center();
  return {centre.x() - tw / 2, centre.y() - th / 2, tw, th};
}

QColor HeatmapWidget::cellTextColor(int r, int c) const {
  if (cellText(r, c).isEmpty()) return {};
  return contrast_text_color(colorFor(matrix_(r, c), r));
}

QPointF HeatmapWidget::swatchPoint(int r, int c) const {
  const QRectF cell = cellRect(r, c), text = cellTextRect(r, c);
  if (text.isEmpty()) return cell.center();
  return {cell.center().x(), (cell.top() + text.top()) / 2};
}

// The masked cells' hatch and, where they fit, every cell's value.
void HeatmapWidget::paintCells(QPainter& painter, const Layout& l) const {
  const int n = static_cast<int>(matrix_.rows);
  if (has_masked_) {
    // The masked cells as one path of each row's runs (at most two per row for a band), so the
    // hatch runs on across cells as one pattern.
    QPainterPath cells;
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < matrix_.cols;) {
        if (!masked(r, c)) {
          ++c;
          continue;
        }
        const int start = c;
        while (c < matrix_.cols && masked(r, c)) ++c;
        cells.addRect(cellRect(r, start).united(cellRect(r, c - 1)));
      }
    painter.fillPath(cells, QBrush(QColor(70, 70, 70), Qt::BDiagPattern));
  }
  if (l.values) {
    painter.setFont(l.value_font);
    for (int r = 0; r < n; ++r)
      for (int c = 0; c < matrix_.cols; ++c) {
        const QString text = cellText(r, c);
        if (text.isEmpty()) continue;
        painter.setPen(cellTextColor(r, c));
        painter.drawText(cellRect(r, c), Qt::AlignCenter, text);
      }
    painter.setFont(font());
  }
}

void HeatmapWidget::paintLegend(QPainter& painter, const Layout& l) const {
  // Legend: the colour bar from the range's low end (bottom) to its high end (top), its
  // numbers, the masked swatch, and the caption naming the range in force.
  const double line = std::ceil(QFontMetricsF(font()).height());
  const QRectF bar(l.legend.left(), l.legend.top(), line, l.legend.height());
  QImage ramp(1, ColorMap::kSize, QImage::Format_RGB32);
  for (int i = 0; i < ColorMap::kSize; ++i)
    ramp.setPixel(0, ColorMap::kSize - 1 - i, ColorMap::instance().entry(i));
  painter.drawImage(bar, ramp);
  for (const auto& [text, box] : legendTexts())
    painter.drawText(box, Qt::AlignLeft | Qt::AlignVCenter, text);
  if (has_masked_) {
    const QRectF sw(bar.left(), bar.bottom() + l.gap, line, line);
    painter.fillRect(sw, masked_color());
    painter.fillRect(sw, QBrush(QColor(70, 70, 70), Qt::BDiagPattern));
  }
  painter.drawText(l.caption, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, rangeCaption());
}

void HeatmapWidget::paintEvent(QPaintEvent*) {
  QPainter painter(this);
  const Layout& l = layout();
  const QColor ink = palette().windowText().color();
  painter.fillRect(rect(), palette().window());
  painter.setPen(ink);
  painter.drawText(l.title, Qt::AlignLeft | Qt::AlignTop | Qt::TextWordWrap, title_);
  const QRectF p = l.plot;
  if (p.isEmpty() || image_.isNull()) return;
  painter.setRenderHint(QPainter::SmoothPixmapTransform, false);
  painter.drawImage(p, image_);

  const int n = static_cast<int>(matrix_.rows);
  paintCells(painter, l);
  if (highlight_ >= 0 && highlight_ < n) {
    // Black and white outline: visible over every colour of the map.
    const QRectF row = cellRect(highlight_, 0).united(cellRect(highlight_, n - 1));
    painter.setBrush(Qt::NoBrush);
    painter.setPen(QPen(Qt::white, 3));
    painter.drawRect(row.adjusted(-2, -2, 2, 2));
    painter.setPen(QPen(Qt::black, 1));
    painter.drawRect(row.adjusted(-2, -2, 2, 2));
  }

  // Token labels: queries left of the rows, keys below the columns (turned when too wide).
  painter.setPen(ink);
  for (int r = 0; r < n; ++r) {
    const QRectF box = rowLabelRect(r);
    if (!box.isEmpty()) painter.drawText(box, Qt::AlignRight | Qt::AlignVCenter, rowLabel(r));
  }
  for (int c = 0; c < matrix_.cols; ++c) {
    const QRectF box = columnLabelRect(c);
    if (box.isEmpty()) continue;
    if (l.cols.turned)
      draw_turned_text(painter, box, columnLabel(c), Qt::AlignTop);
    else
      painter.drawText(box, Qt::AlignHCenter | Qt::AlignTop, columnLabel(c));
  }

  if (legend_shown_) paintLegend(painter, l);
}

std::vector<std::pair<QString, QRectF>> HeatmapWidget::legendTexts() const {
  // The numbers beside the colour bar's top, middle (when there is room) and bottom, and the
  // masked swatch's name below it.
  const Layout& l = layout();
  const double line = std::ceil(QFontMetricsF(font()).height());
  const QRectF bar(l.legend.left(), l.legend.top(), line, l.legend.height());
  const double tx = bar.right() + l.gap / 2, tw = l.legend.right() - tx;
  const QStringList ticks = legendTicks();
  std::vector<std::pair<QString, QRectF>> out{{ticks[0], QRectF(tx, bar.top(), tw, line)}};
  if (bar.height() >= 3 * line)
    out.push_back({ticks[1], QRectF(tx, bar.center().y() - line / 2, tw, line)});
  out.push_back({ticks[2], QRectF(tx, bar.bottom() - line, tw, line)});
  if (has_masked_) out.push_back({maskedLegend(), QRectF(tx, bar.bottom() + l.gap, tw, line)});
  return out;
}

std::vector<DrawnTextSource::Text> HeatmapWidget::drawnTexts() const {
  const Layout& l = layout();
  std::vector<Text> out;
  out.push_back({title_, l.title, false, true});
  if (l.plot.isEmpty() || image_.isNull()) return out;
  for (int r = 0; r < matrix_.rows; ++r)
    if (!rowLabelRect(r).isEmpty()) out.push_back({rowLabel(r), rowLabelRect(r)});
  for (int c = 0; c < matrix_.cols; ++c)
    if (!columnLabelRect(c).isEmpty())
      out.push_back({columnLabel(c), columnLabelRect(c), l.cols.turned});
  if (l.values)
    for (int r = 0; r < matrix_.rows; ++r)
      for (int c = 0; c < matrix_.cols; ++c)
        if (!cellText(r, c).isEmpty())
          out.push_back({cellText(r, c), cellTextRect(r, c), false, false, l.value_font});
  if (!legend_shown_) return out;
  for (const auto& [text, box] : legendTexts()) out.push_back({text, box});
  out.push_back({rangeCaption(), l.caption, false, true});
  return out;
}

bool HeatmapWidget::event(QEvent* e) {
  if (e->type() != QEvent::ToolTip) return QWidget::event(e);
  auto* help = static_cast<QHelpEvent*>(e);
  const QRectF p = layout().plot;
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
  QString value = QString::number(matrix_(r, c), 'g', 10);
  if (masked(r, c)) {
    // A nonzero value where the mask allows none is said, not hidden behind the hatch's word.
    const QString what = matrix_(r, c) == 0 ? tr("exactly 0") : tr("%1, not 0").arg(value);
    value = c > r && mask_.ahead == 0 ? tr("masked (causal): %1").arg(what)
                                      : tr("out of the window (more than %1 keys away): %2")
                                            .arg(c > r ? mask_.ahead : mask_.behind)
                                            .arg(what);
  }
  QToolTip::showText(help->globalPos(),
                     tr("query %1, key %2: %3").arg(rowLabel(r), columnLabel(c), value), this);
  return true;
}

}  // namespace awb::gui
