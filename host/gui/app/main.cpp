// main.cpp: awb-gui: the window, or one view rendered offscreen to a PNG, or the repaint
// benchmark. Errors become messages and exit codes here.
#include <QApplication>
#include <QCommandLineParser>
#include <QDir>
#include <QFileInfo>
#include <QScreen>
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "core/base/version.hpp"
#include "gui/app/headless.hpp"
#include "gui/app/view_registry.hpp"
#include "gui/charts/export.hpp"
#include "gui/charts/layout_check.hpp"

using namespace awb::gui;

namespace {

// Whether any of `names` is on the command line (as itself or as name=value).
bool has_option(const QStringList& args, std::initializer_list<const char*> names) {
  for (const char* n : names)
    for (const QString& a : args)
      if (a == QLatin1String(n) || a.startsWith(QLatin1String(n) + '=')) return true;
  return false;
}

// Every option of awb-gui, added to the parser by add_to().
struct GuiOptions {
  const QCommandLineOption exercise{QStringLiteral("exercise"), "Exercise id to open.", "ID"};
  const QCommandLineOption case_id{QStringLiteral("case"), "Case of the exercise.", "ID"};
  const QCommandLineOption plugin{{QStringLiteral("variant"), QStringLiteral("plugin")},
                                  "Variant id or plugin-id:variant-id; repeatable (--plugin: the "
                                  "former name).",
                                  "ID"};
  const QCommandLineOption plugin_dir{QStringLiteral("plugin-dir"),
                                      "Extra plugin folder; repeatable.", "DIR"};
  const QCommandLineOption exercises{QStringLiteral("exercises"),
                                     "Exercise folder or file; repeatable.", "PATH"};
  const QCommandLineOption view{QStringLiteral("view"), view_names_text(true) + ".", "VIEW",
                                QString::fromUtf8(view_registry().front().name)};
  const QCommandLineOption query{QStringLiteral("query"), "Query token index (0-based).", "N"};
  const QCommandLineOption head{QStringLiteral("head"), "Head index (0-based).", "N"};
  const QCommandLineOption sharpness{QStringLiteral("sharpness"), "Sharpness.", "S"};
  const QCommandLineOption question{QStringLiteral("question"),
                                    "Ask the exercise's question ID in explore.", "ID"};
  const QCommandLineOption answer{QStringLiteral("answer"),
                                  "Answer it: a token index or a head (0-based).", "N"};
  const QCommandLineOption screenshot{QStringLiteral("screenshot"),
                                      "Render the view to FILE.png and exit (offscreen, or the "
                                      "real window's pixels on a display).",
                                      "FILE"};
  const QCommandLineOption check_layout{
      QStringLiteral("check-layout"),
      "Open the view, list every text shown cut off (labels, buttons, tabs, table cells, "
      "plot labels), every plot or slider squeezed below the room it is read in, and a window "
      "larger than --size (the screen), then exit: 0 when none is, 1 otherwise."};
  const QCommandLineOption size{QStringLiteral("size"),
                                "Window size (default 1280x800); with --check-layout the screen, "
                                "repeatable: each size is checked.",
                                "WxH"};
  const QCommandLineOption zoom{QStringLiteral("zoom"),
                                "Zoom of the whole window in percent (Ctrl+= / Ctrl+- / Ctrl+0).",
                                "PERCENT"};
  const QCommandLineOption presentation{QStringLiteral("presentation"),
                                        "Start in presentation mode (F5)."};
  const QCommandLineOption both_modes{
      QStringLiteral("both-modes"),
      "With --check-layout: check every size and zoom in and out of presentation mode."};
  const QCommandLineOption scope{QStringLiteral("grade-scope"),
                                 "What the grade view grades: 0 the exercise, 1 every exercise, "
                                 "2.. a bundled assignment (as its list shows them).",
                                 "N"};
  const QCommandLineOption export_page{
      QStringLiteral("export-page"),
      "Write the teaching page of --exercise and --variant to FILE.html (File → Export "
      "interactive page…, the same file as `awb page`) and exit.",
      "FILE"};
  const QCommandLineOption bench{QStringLiteral("bench-repaint"),
                                 "Print the median heatmap repaint time for T × T and exit.", "T"};

  void add_to(QCommandLineParser& cli) const {
    for (const auto* o :
         {&exercise, &case_id,      &plugin,     &plugin_dir, &exercises,   &view,         &query,
          &head,     &sharpness,    &question,   &answer,     &screenshot,  &check_layout, &size,
          &zoom,     &presentation, &both_modes, &scope,      &export_page, &bench})
      cli.addOption(*o);
  }
};

// What the command line asks of the window; --size and --zoom repeat for --check-layout (the
// first one opens the window).
struct Request {
  ViewOptions view;
  std::vector<QSize> sizes;
  std::vector<int> zooms;
};

// The view options read; false (after a message) when a number or a size does not read.
bool read_request(const QCommandLineParser& cli, const GuiOptions& g, Request& r) {
  ViewOptions& o = r.view;
  o.exercise = cli.value(g.exercise);
  o.case_id = cli.value(g.case_id);
  o.plugins = cli.values(g.plugin);
  o.view = cli.value(g.view);
  o.query = cli.isSet(g.query) ? cli.value(g.query).toInt() : -1;
  o.head = cli.isSet(g.head) ? cli.value(g.head).toInt() : 0;
  o.sharpness = cli.isSet(g.sharpness) ? cli.value(g.sharpness).toDouble() : 0;
  o.presentation = cli.isSet(g.presentation);
  o.question = cli.value(g.question);
  o.answer = cli.isSet(g.answer) ? cli.value(g.answer).toInt() : -1;
  bool ok = true;
  for (const QString& z : cli.values(g.zoom)) {
    r.zooms.push_back(z.toInt(&ok));
    if (!ok) break;
  }
  if (!r.zooms.empty()) o.zoom = r.zooms.front();
  if (ok && cli.isSet(g.scope)) o.grade_scope = cli.value(g.scope).toInt(&ok);
  for (const QString& value : cli.values(g.size)) {
    const QStringList wh = value.split('x');
    bool w_ok = false, h_ok = false;
    QSize s;
    if (wh.size() == 2) s = {wh[0].toInt(&w_ok), wh[1].toInt(&h_ok)};
    ok = ok && w_ok && h_ok && s.width() > 0 && s.height() > 0;
    r.sizes.push_back(s);
  }
  if (!r.sizes.empty()) o.size = r.sizes.front();
  if (!ok)
    std::fprintf(stderr,
                 "awb-gui: --zoom and --grade-scope take a number, --size WxH (1920x1080)\n");
  return ok;
}

int run_bench_repaint(const QString& value) {
  const int t = value.toInt();
  if (t <= 0) {
    std::fprintf(stderr, "awb-gui: --bench-repaint needs T > 0\n");
    return 2;
  }
  const RepaintTiming r = bench_repaint(t, 60);
  std::printf("heatmap repaint, T = %d: median %.2f ms, max %.2f ms over %d frames (goal: %s)\n", t,
              r.median_ms, r.max_ms, r.frames,
              r.median_ms <= 16 ? "met, <= 16 ms" : "missed, > 16 ms");
  return 0;
}

// --screenshot FILE: on a display, what the screen shows; offscreen, the window rendered.
int save_screenshot(MainWindow& window, const ViewOptions& o, const QString& file) {
  QDir().mkpath(QFileInfo(file).absolutePath());
  const bool real = QGuiApplication::platformName() != QLatin1String("offscreen");
  const bool saved = real ? window.screen()->grabWindow(window.winId()).save(file, "PNG")
                          : save_png(&window, file);
  if (!saved) {
    std::fprintf(stderr, "awb-gui: cannot write %s\n", qPrintable(file));
    return 1;
  }
  std::printf("%s: %s of %s on %s (%dx%d, zoom %d%%, %s)\n", qPrintable(file), qPrintable(o.view),
              qPrintable(o.plugins.join(", ")), qPrintable(o.exercise), window.width(),
              window.height(), window.zoom(), qPrintable(QGuiApplication::platformName()));
  return 0;
}

// --check-layout: each size asked stands for a screen, which the window must fit at its minimum
// too. The first configuration is the window as prepared; the others re-lay it out.
int check_layouts(MainWindow& window, Request r, bool both_modes) {
  if (r.sizes.empty()) r.sizes.push_back(r.view.size);
  if (r.zooms.empty()) r.zooms.push_back(r.view.zoom);
  std::vector<bool> modes{r.view.presentation};
  if (both_modes) modes = {false, true};
  int failed = 0;
  for (const QSize& screen : r.sizes)
    for (const int z : r.zooms)
      for (const bool present : modes) {
        relayout(window, screen, z, present);
        const LayoutReport report = awb::gui::check_layout(&window, screen);
        for (const QString& line : report.lines()) std::printf("%s\n", qPrintable(line));
        std::printf("layout: %d widgets checked at %dx%d (scale %.3g, zoom %d%%%s): %s\n",
                    report.checked, window.width(), window.height(), window.devicePixelRatioF(),
                    window.zoom(), window.presenting() ? ", presentation" : "",
                    qPrintable(report.summary()));
        failed += report.ok() ? 0 : 1;
      }
  return failed == 0 ? 0 : 1;
}

// The window on the screen until it is closed.
int run_window(MainWindow& window, const ViewOptions& o) {
  window.resize(o.size);
  window.show();
  if (o.zoom != 100) window.setZoom(o.zoom);
  if (o.presentation) window.setPresentation(true);
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
  const int rc = QApplication::exec();
  // Jobs may still run on the pool (a plugin that hangs until its limit): stop what can be
  // stopped and wait a little; past that, leave without destroying what they still read (the
  // runners end with this process).
  cancel_variant_runs();
  window.grade()->cancel();
  window.train()->stop();
  window.close();
  if (!job_pool().waitForDone(3000)) std::_Exit(rc);
  return rc;
}

}  // namespace

int main(int argc, char** argv) {
  // Our options are parsed here, not by Qt: QGuiApplication would take --plugin as its own
  // (a Qt platform plugin) and drop it. The platform comes from QT_QPA_PLATFORM.
  QStringList args;
  for (int i = 0; i < argc; ++i) args << QString::fromLocal8Bit(argv[i]);
  // Help and version need no display: a QCoreApplication prints them and exits, where a
  // QApplication without a display would abort before reading a single option.
  const bool info_only = has_option(args, {"--help", "-h", "--help-all", "-?", "--version", "-v"});
  // A screenshot is rendered offscreen anyway: without a display it needs no setting.
  const bool no_display = qEnvironmentVariableIsEmpty("DISPLAY") &&
                          qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY") &&
                          qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
  if (no_display &&
      has_option(args, {"--screenshot", "--bench-repaint", "--check-layout", "--export-page"}))
    qputenv("QT_QPA_PLATFORM", "offscreen");
  else if (no_display && !info_only) {
    std::fprintf(stderr,
                 "awb-gui: no display (DISPLAY and WAYLAND_DISPLAY are unset). Run it on a "
                 "desktop, with QT_QPA_PLATFORM=offscreen for --screenshot, or use the CLI "
                 "(awb --help).\n");
    return 2;
  }
  int qt_argc = 1;
  std::unique_ptr<QCoreApplication> app_holder =
      info_only ? std::make_unique<QCoreApplication>(qt_argc, argv)
                : std::make_unique<QApplication>(qt_argc, argv);
  QCoreApplication::setOrganizationName(QStringLiteral("awb"));
  QCoreApplication::setApplicationName(QStringLiteral("awb-gui"));
  QCoreApplication::setApplicationVersion(QStringLiteral(AWB_VERSION));

  QCommandLineParser cli;
  cli.setApplicationDescription(QStringLiteral(
      "Attention Workbench: explore, compare and grade attention variants.\n"
      "With --screenshot it renders one view offscreen (QT_QPA_PLATFORM=offscreen) and exits."));
  cli.addHelpOption();
  cli.addVersionOption();
  const GuiOptions g;
  g.add_to(cli);
  cli.process(args);

  if (cli.isSet(g.bench)) return run_bench_repaint(cli.value(g.bench));
  Request request;
  if (!read_request(cli, g, request)) return 2;
  const ViewOptions& o = request.view;

  // A rendering for a file or a check remembers nothing: the same window on every machine.
  const bool one_shot =
      cli.isSet(g.screenshot) || cli.isSet(g.check_layout) || cli.isSet(g.export_page);
  Session session(cli.values(g.plugin_dir), cli.values(g.exercises),
                  one_shot ? Session::Memory::kThisRunOnly : Session::Memory::kRemembered);
  MainWindow window(session);
  if (!one_shot) return run_window(window, o);

  if (o.exercise.isEmpty() || o.plugins.isEmpty()) {
    std::fprintf(stderr,
                 "awb-gui: --screenshot, --check-layout and --export-page need --exercise and "
                 "--variant\n");
    return 2;
  }
  QString error;
  if (!prepare_window(window, o, &error)) {
    std::fprintf(stderr, "awb-gui: %s\n", qPrintable(error));
    return 1;
  }
  if (cli.isSet(g.export_page)) {
    if (!window.exportPage(cli.value(g.export_page), &error)) {
      std::fprintf(stderr, "awb-gui: cannot export the page: %s\n", qPrintable(error));
      return 1;
    }
    std::printf("wrote %s\n", qPrintable(cli.value(g.export_page)));
  }
  if (cli.isSet(g.screenshot))
    if (const int rc = save_screenshot(window, o, cli.value(g.screenshot)); rc != 0) return rc;
  if (cli.isSet(g.check_layout)) return check_layouts(window, request, cli.isSet(g.both_modes));
  return 0;
}
