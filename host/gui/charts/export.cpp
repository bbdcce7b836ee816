// export.cpp: PNG through QWidget::grab or QWidget::render, SVG through QSvgGenerator, PDF through
// QPdfWriter, text through QSaveFile.
#include "gui/charts/export.hpp"

#include <QPageSize>
#include <QPainter>
#include <QPdfWriter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace awb::gui {

QImage render_widget(QWidget* widget) { return widget->grab().toImage(); }

bool save_png(QWidget* widget, const QString& path) {
  return render_widget(widget).save(path, "PNG");
}

QImage render_widget(QWidget* widget, double device_pixel_ratio) {
  QImage image(widget->size() * device_pixel_ratio, QImage::Format_ARGB32_Premultiplied);
  image.setDevicePixelRatio(device_pixel_ratio);
  image.fill(widget->palette().window().color());
  QPainter painter(&image);
  widget->render(&painter, QPoint(), QRegion(),
                 QWidget::DrawWindowBackground | QWidget::DrawChildren);
  return image;
}

bool save_png(QWidget* widget, const QString& path, double device_pixel_ratio) {
  return render_widget(widget, device_pixel_ratio).save(path, "PNG");
}

bool save_svg(QWidget* widget, const QString& path) {
  QSvgGenerator svg;
  svg.setFileName(path);
  svg.setSize(widget->size());
  svg.setViewBox(QRect(QPoint(0, 0), widget->size()));
  // The generator writes a font's point size as its pixels at this resolution: the widget's own,
  // so text keeps the size it was laid out at (at the default 72 it came out three quarters).
  svg.setResolution(widget->logicalDpiX());
  svg.setTitle(widget->windowTitle());
  svg.setDescription(QStringLiteral("Attention Workbench view"));
  QPainter painter;
  if (!painter.begin(&svg)) return false;
  widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
  return painter.end();
}

bool save_pdf(QWidget* widget, const QString& path) {
  constexpr int kDpi = 96;
  QPdfWriter pdf(path);
  pdf.setResolution(kDpi);
  pdf.setCreator(QStringLiteral("Attention Workbench"));
  pdf.setTitle(widget->windowTitle());
  const QSizeF points = QSizeF(widget->size()) * 72.0 / kDpi;
  pdf.setPageSize(QPageSize(points, QPageSize::Point, QString(), QPageSize::ExactMatch));
  pdf.setPageMargins(QMarginsF(0, 0, 0, 0));
  QPainter painter;
  if (!painter.begin(&pdf)) return false;
  // Heatmaps are images of a pixel a cell: JPEG (the PDF engine's default for colour images)
  // would blur and shift a 6 × 6 map's colours.
  painter.setRenderHint(QPainter::LosslessImageRendering);
  widget->render(&painter, QPoint(), QRegion(),
                 QWidget::DrawWindowBackground | QWidget::DrawChildren);
  return painter.end();
}

bool save_figure(QWidget* widget, const QString& path) {
  const QString lower = path.toLower();
  if (lower.endsWith(QStringLiteral(".pdf"))) return save_pdf(widget, path);
  if (lower.endsWith(QStringLiteral(".svg"))) return save_svg(widget, path);
  if (lower.endsWith(QStringLiteral(".png"))) return save_png(widget, path, 2);
  return false;
}

bool save_text(const QString& text, const QString& path) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  file.write(text.toUtf8());
  return file.commit();
}

}  // namespace awb::gui
