// main.cpp: awb-gui: the window, or one view rendered offscreen to a PNG, or the repaint
// benchmark. Errors become messages and exit codes here.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <cstdio>

#include "core/base/version.hpp"
#include "gui/export.hpp"
#include "gui/headless.hpp"

using namespace awb::gui;

int main(int argc, char** argv) {
  // Our options are parsed here, not by Qt: QGuiApplication would take --plugin as its own
  // (a Qt platform plugin) and drop it. The platform comes from QT_QPA_PLATFORM.
  QStringList args;
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  int qt_argc = 1;
  QApplication app(qt_argc, argv);
  QApplication::setOrganizationName(QStringLiteral("awb"));
  QApplication::setApplicationName(QStringLiteral("awb-gui"));
  QApplication::setApplicationVersion(QStringLiteral(AWB_VERSION));

  QCommandLineParser cli;
  cli.setApplicationDescription(QStringLiteral(
      "Attention Workbench: explore, compare and grade attention variants.\n"
      "With --screenshot it renders one view offscreen (QT_QPA_PLATFORM=offscreen) and exits."));
  cli.addHelpOption();
  cli.addVersionOption();
  const QCommandLineOption exercise(QStringLiteral("exercise"), "Exercise id to open.", "ID");
  const QCommandLineOption case_id(QStringLiteral("case"), "Case of the exercise.", "ID");
  const QCommandLineOption plugin({QStringLiteral("variant"), QStringLiteral("plugin")},
                                  "Variant id or plugin-id:variant-id; repeatable (--plugin: the "
                                  "former name).",
                                  "ID");
  const QCommandLineOption plugin_dir(QStringLiteral("plugin-dir"),
                                      "Extra plugin folder; repeatable.", "DIR");
  const QCommandLineOption exercises(QStringLiteral("exercises"),
                                     "Exercise folder or file; repeatable.", "PATH");
  const QCommandLineOption view(QStringLiteral("view"),
                                "explore, explore-heads, explore-layers, compare, grade or bench.",
                                "VIEW", "explore");
  const QCommandLineOption query(QStringLiteral("query"), "Query token index (0-based).", "N");
  const QCommandLineOption head(QStringLiteral("head"), "Head index (0-based).", "N");
  const QCommandLineOption sharpness(QStringLiteral("sharpness"), "Sharpness.", "S");
  const QCommandLineOption question(QStringLiteral("question"),
                                    "Ask the exercise's question ID in explore.", "ID");
  const QCommandLineOption answer(QStringLiteral("answer"),
                                  "Answer it: a token index or a head (0-based).", "N");
  const QCommandLineOption screenshot(QStringLiteral("screenshot"),
                                      "Render the view to FILE.png and exit.", "FILE");
  const QCommandLineOption bench(QStringLiteral("bench-repaint"),
                                 "Print the median heatmap repaint time for T × T and exit.", "T");
  for (const auto& o : {exercise, case_id, plugin, plugin_dir, exercises, view, query, head,
                        sharpness, question, answer, screenshot, bench})
    cli.addOption(o);
  cli.process(args);

  if (cli.isSet(bench)) {
    const int t = cli.value(bench).toInt();
    if (t <= 0) {
      std::fprintf(stderr, "awb-gui: --bench-repaint needs T > 0\n");
      return 2;
    }
    const RepaintTiming r = bench_repaint(t, 60);
    std::printf("heatmap repaint, T = %d: median %.2f ms, max %.2f ms over %d frames (goal: %s)\n",
                t, r.median_ms, r.max_ms, r.frames,
                r.median_ms <= 16 ? "met, <= 16 ms" : "missed, > 16 ms");
    return 0;
  }

  Session session(cli.values(plugin_dir), cli.values(exercises));
  MainWindow window(session);
  ViewOptions o;
  o.exercise = cli.value(exercise);
  o.case_id = cli.value(case_id);
  o.plugins = cli.values(plugin);
  o.view = cli.value(view);
  o.query = cli.isSet(query) ? cli.value(query).toInt() : -1;
  o.head = cli.isSet(head) ? cli.value(head).toInt() : 0;
  o.sharpness = cli.isSet(sharpness) ? cli.value(sharpness).toDouble() : 0;
  o.question = cli.value(question);
  o.answer = cli.isSet(answer) ? cli.value(answer).toInt() : -1;

  if (cli.isSet(screenshot)) {
    if (o.exercise.isEmpty() || o.plugins.isEmpty()) {
      std::fprintf(stderr, "awb-gui: --screenshot needs --exercise and --variant\n");
      return 2;
    }
    QString error;
    if (!prepare_window(window, o, &error)) {
      std::fprintf(stderr, "awb-gui: %s\n", qPrintable(error));
      return 1;
    }
    const QString file = cli.value(screenshot);
    QDir().mkpath(QFileInfo(file).absolutePath());
    if (!save_png(&window, file)) {
      std::fprintf(stderr, "awb-gui: cannot write %s\n", qPrintable(file));
      return 1;
    }
    std::printf("%s: %s of %s on %s\n", qPrintable(file), qPrintable(o.view),
                qPrintable(o.plugins.join(", ")), qPrintable(o.exercise));
    return 0;
  }

  window.resize(o.size);
  window.show();
  if (!o.exercise.isEmpty()) {
    QString error;
    window.setView(o.view);
    if (!window.selectExercise(o.exercise, &error) ||
        (!o.case_id.isEmpty() && !window.selectCase(o.case_id, &error)) ||
        (!o.plugins.isEmpty() && !window.selectVariants(o.plugins, &error)))
      std::fprintf(stderr, "awb-gui: %s\n", qPrintable(error));
    else if (!o.question.isEmpty() && !window.explore()->askQuestion(o.question))
      std::fprintf(stderr, "awb-gui: no question '%s'\n", qPrintable(o.question));
  }
  return app.exec();
}
