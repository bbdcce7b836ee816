// export.cpp: PNG through QWidget::grab or QWidget::render, SVG through QSvgGenerator, text through
// QSaveFile.
#include "gui/export.hpp"

#include <QPainter>
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
  svg.setTitle(widget->windowTitle());
  svg.setDescription(QStringLiteral("Attention Workbench view"));
  QPainter painter;
  if (!painter.begin(&svg)) return false;
  widget->render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
  return painter.end();
}

bool save_text(const QString& text, const QString& path) {
  QSaveFile file(path);
  if (!file.open(QIODevice::WriteOnly)) return false;
  file.write(text.toUtf8());
  return file.commit();
}

}  // namespace awb::gui
