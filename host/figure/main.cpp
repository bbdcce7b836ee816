// main.cpp: awb-figure SPEC.json OUT.{pdf,svg,png}: draws the figure the spec describes, offscreen,
// with a white page and the bundled font, and writes it to OUT. awb runs it (--figure) and owns
// both files; exit 0 when OUT is complete, 1 with a message on stderr otherwise, 2 for a bad
// command line.
#include <QApplication>
#include <QFile>
#include <QFont>
#include <QLayout>
#include <QPalette>
#include <QWidget>
#include <cstdio>
#include <exception>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "figure/bench_figure.hpp"
#include "figure/compare_figure.hpp"
#include "gui/charts/export.hpp"

int main(int argc, char** argv) {
  // A figure never needs a display: the same pixels on a server as on a desktop.
  qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  if (argc != 3) {
    std::fprintf(stderr, "usage: awb-figure SPEC.json OUT.{pdf,svg,png}\n");
    return 2;
  }
  try {
    QApplication::setPalette(QPalette(Qt::black, Qt::white));
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(9);
    QApplication::setFont(font);

    QFile file(QString::fromLocal8Bit(argv[1]));
    if (!file.open(QIODevice::ReadOnly))
      throw std::runtime_error("cannot read the spec " + std::string(argv[1]));
    const auto spec = nlohmann::json::parse(file.readAll().toStdString());
    const std::string kind = spec.at("figure").get<std::string>();
    std::unique_ptr<QWidget> figure;
    if (kind == "compare")
      figure = awb::figure::compare_figure(spec);
    else if (kind == "bench")
      figure = awb::figure::bench_figure(spec);
    else
      throw std::runtime_error("a spec of an unknown figure '" + kind + "'");
    // Laid out as it would be shown, without a window: the layout places every part.
    figure->ensurePolished();
    figure->layout()->activate();
    figure->adjustSize();
    figure->layout()->activate();
    if (!awb::gui::save_figure(figure.get(), QString::fromLocal8Bit(argv[2])))
      throw std::runtime_error("cannot write " + std::string(argv[2]));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "awb-figure: %s\n", e.what());
    return 1;
  }
  return 0;
}
