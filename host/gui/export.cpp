// export.cpp: PNG through QWidget::grab, SVG through QSvgGenerator, text through QSaveFile.
#include "gui/export.hpp"

#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>

namespace awb::gui {

QImage render_widget(QWidget* widget) { return widget->grab().toImage(); }

bool save_png(QWidget* widget, const QString& path) {
  return render_widget(widget).save(path, "PNG");
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
