// export.hpp: any widget as PNG (at the screen's pixel ratio or a chosen one), SVG or PDF; text
// files.
#ifndef AWB_GUI_EXPORT_HPP_
#define AWB_GUI_EXPORT_HPP_

#include <QImage>
#include <QString>
#include <QWidget>

namespace awb::gui {

// What the widget shows, in device pixels (a high-DPI screen gives a sharper image).
QImage render_widget(QWidget* widget);
bool save_png(QWidget* widget, const QString& path);
// The same at a chosen device pixel ratio, whatever the screen's (2: twice the pixels of the
// widget's logical size, for a sharp figure).
QImage render_widget(QWidget* widget, double device_pixel_ratio);
bool save_png(QWidget* widget, const QString& path, double device_pixel_ratio);
// Vector output through QSvgGenerator: the widget paints into it as into a screen.
bool save_svg(QWidget* widget, const QString& path);
// Vector output through QPdfWriter: one page the widget's size (at 96 dots per inch, so a logical
// pixel is 0.75 pt), text as text.
bool save_pdf(QWidget* widget, const QString& path);
// By the name's extension: .pdf, .svg, or .png at twice the pixels; false for another one.
bool save_figure(QWidget* widget, const QString& path);
bool save_text(const QString& text, const QString& path);

}  // namespace awb::gui

#endif  // AWB_GUI_EXPORT_HPP_
