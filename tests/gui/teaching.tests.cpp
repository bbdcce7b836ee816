// teaching.tests.cpp: the window as a teacher drives it from a projector: zoom of the whole
// window, presentation mode, a sidebar that keeps its width, plugin folders that can be removed,
// grading a whole assignment with expandable rows, Cancel that leaves no runner behind, and
// `awb-gui --help` without a display.
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFontInfo>
#include <QLabel>
#include <QProcess>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>
#include <QTreeWidget>
#include <algorithm>
#include <catch2/catch.hpp>

#include "gui/views/grade/grade_view.hpp"
#include "gui/views/train/train_view.hpp"
#include "gui_support.hpp"

using namespace awb;

namespace {

gui::Session& fresh_session() {
  static gui::Session session({AWB_TEST_PLUGIN_DIR}, {AWB_TEST_EXERCISE_DIR},
                              gui::Session::Memory::kThisRunOnly);
  return session;
}

// The awb-runner processes alive now that serve `plugin` (their command line names it).
int runners_serving(const QString& plugin) {
  int n = 0;
  for (const QString& pid : QDir("/proc").entryList(QDir::Dirs)) {
    QFile f("/proc/" + pid + "/cmdline");
    if (!f.open(QIODevice::ReadOnly)) continue;
    const QByteArray cmd = f.readAll();
    if (!cmd.contains("awb-runner")) continue;
    // A runner from the zygote was never exec'd: its command line is the zygote's, and the
    // plugin shows among its mappings once loaded.
    QFile maps("/proc/" + pid + "/maps");
    n += cmd.contains(plugin.toUtf8()) ||
         (maps.open(QIODevice::ReadOnly) && maps.readAll().contains(plugin.toUtf8()));
  }
  return n;
}

}  // namespace

TEST_CASE("zoom scales the whole window's type and comes back", "[gui][teaching]") {
  gui::MainWindow w(fresh_session());
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.selectExercise("journey"));
  w.activateWindow();  // shortcuts reach the active window only
  REQUIRE(QTest::qWaitForWindowActive(&w));
  const double base = w.explore()->heatmap()->font().pointSizeF();
  REQUIRE(base > 0);
  QTest::keyClick(&w, Qt::Key_Equal, Qt::ControlModifier);
  CHECK(w.zoom() == 110);
  w.setZoom(150);
  CHECK(w.explore()->heatmap()->font().pointSizeF() == Approx(1.5 * base));
  CHECK(w.grade()->checksTree()->font().pointSizeF() == Approx(1.5 * base));
  // The grade total keeps its 1.4 × headline size at every zoom.
  CHECK(w.grade()->totalLabel()->font().pointSizeF() == Approx(1.4 * 1.5 * base));
  QTest::keyClick(&w, Qt::Key_Minus, Qt::ControlModifier);
  CHECK(w.zoom() == 125);
  QTest::keyClick(&w, Qt::Key_0, Qt::ControlModifier);
  CHECK(w.zoom() == 100);
  CHECK(w.explore()->heatmap()->font().pointSizeF() == Approx(base));
  w.setZoom(10000);
  CHECK(w.zoom() == gui::MainWindow::zoomSteps().back());
}

TEST_CASE("presentation mode hides the browsers and shows the lesson beside the view",
          "[gui][teaching]") {
  gui::MainWindow w(fresh_session());
  w.resize(1600, 900);
  w.show();
  REQUIRE(w.selectExercise("animal-road"));
  w.activateWindow();
  REQUIRE(QTest::qWaitForWindowActive(&w));
  REQUIRE(w.browserPanel()->isVisible());
  CHECK_FALSE(w.presentationLesson()->isVisible());
  QTest::keyClick(&w, Qt::Key_F5);
  CHECK(w.presenting());
  CHECK_FALSE(w.browserPanel()->isVisible());
  CHECK(w.presentationLesson()->isVisible());
  CHECK(w.presentationLesson()->toPlainText().contains("Two layers"));
  CHECK(w.zoom() >= 150);
  CHECK(w.currentView()->width() > 900);  // the view takes the browsers' room
  QTest::keyClick(&w, Qt::Key_Escape);
  CHECK_FALSE(w.presenting());
  CHECK(w.zoom() == 100);
  CHECK(w.browserPanel()->isVisible());
}

TEST_CASE("the sidebar keeps the width it was dragged to", "[gui][teaching]") {
  QSettings().remove("window");
  gui::Session session({AWB_TEST_PLUGIN_DIR}, {AWB_TEST_EXERCISE_DIR});
  {
    gui::MainWindow w(session);
    w.resize(1600, 900);
    w.show();
    w.splitter()->setSizes({480, 1100, 0});
    emit w.splitter()->splitterMoved(480, 1);
  }
  gui::MainWindow again(session);
  again.resize(1600, 900);
  again.show();
  QApplication::processEvents();
  CHECK(std::abs(again.splitter()->sizes().at(0) - 480) <= 2);
  QSettings().remove("window");
}

TEST_CASE("a plugin folder can be removed, and a one-shot session remembers none",
          "[gui][teaching]") {
  QTemporaryDir dir;
  REQUIRE(QFile::copy(AWB_TEST_PLUGIN_DIR "/awb_qkv.so", dir.filePath("awb_student.so")));
  QSettings().remove("plugins/folders");
  {
    gui::Session session({}, {AWB_TEST_EXERCISE_DIR});
    session.addPluginFolder(dir.path());
    CHECK(QSettings().value("plugins/folders").toStringList().contains(dir.path()));
    // A screenshot's session does not see what was remembered.
    gui::Session one_shot({}, {AWB_TEST_EXERCISE_DIR}, gui::Session::Memory::kThisRunOnly);
    CHECK_FALSE(one_shot.pluginFolders().contains(dir.path()));
    session.removePluginFolder(dir.path());
    CHECK_FALSE(session.pluginFolders().contains(dir.path()));
    for (const auto& f : session.catalog()->failures) CHECK(f.path.filename() != "awb_student.so");
  }
  gui::Session later({}, {AWB_TEST_EXERCISE_DIR});
  CHECK_FALSE(later.pluginFolders().contains(dir.path()));
  QSettings().remove("plugins/folders");
}

TEST_CASE("the grade view grades a whole assignment, one expandable row per exercise",
          "[gui][teaching][grade]") {
  gui::MainWindow w(test::mutant_session());
  w.resize(1600, 900);
  w.show();
  REQUIRE(w.setView("grade"));
  REQUIRE(w.selectExercise("journey"));
  REQUIRE(w.selectVariants({"org.awb.mutant.divide-by-sum:parameter-free"}));
  REQUIRE(test::wait_for([&] { return !w.busy(); }, 60000));
  auto* scope = w.grade()->scopeBox();
  const int assignment = scope->findText("assignment parameter-free", Qt::MatchStartsWith);
  REQUIRE(assignment >= 2);
  REQUIRE(w.grade()->setScope(assignment));
  REQUIRE(test::wait_for([&] { return !w.busy(); }, 120000));
  const auto& report = w.grade()->report();
  REQUIRE(report);
  REQUIRE(report->exercises.size() > 1);
  auto* tree = w.grade()->checksTree();
  CHECK(tree->topLevelItemCount() == static_cast<int>(report->exercises.size()));
  // A failed check shows its hint in full: the feedback column wraps, nothing is elided.
  bool hint_shown = false;
  for (QTreeWidgetItemIterator it(tree); *it; ++it) {
    if ((*it)->text(0) != "hint") continue;
    const QRect r = tree->visualItemRect(*it);
    CHECK_FALSE(r.isEmpty());  // under an expanded (failed) check
    hint_shown = true;
  }
  CHECK(hint_shown);
  CHECK(tree->wordWrap());
  CHECK(w.grade()->statusLabel()->text().isEmpty());
  CHECK(w.grade()->totalLabel()->text().contains(QString::number(report->exercises.size())));
}

TEST_CASE("Cancel stops a hanging plugin's grading and explore runs, leaving no runner",
          "[gui][teaching][isolation]") {
  gui::Session session({AWB_TEST_HOSTILE_SLEEP}, {AWB_TEST_EXERCISE_DIR},
                       gui::Session::Memory::kThisRunOnly);
  gui::MainWindow w(session);
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("grade"));
  REQUIRE(w.selectExercise("journey"));
  REQUIRE(w.grade()->setScope(1));  // every exercise: minutes of hanging without Cancel
  REQUIRE(w.selectVariants({"org.awb.hostile.sleep:hostile"}));
  REQUIRE(test::wait_for([&] { return runners_serving(AWB_TEST_HOSTILE_SLEEP) > 0; }, 20000));
  CHECK(w.grade()->cancelButton()->isEnabled());
  QElapsedTimer clock;
  clock.start();
  QTest::mouseClick(w.grade()->cancelButton(), Qt::LeftButton);
  REQUIRE(test::wait_for([&] { return !w.grade()->busy(); }, 5000));
  INFO("grading ended " << clock.elapsed() << " ms after Cancel");
  CHECK(clock.elapsed() < 3000);
  CHECK(w.grade()->statusLabel()->text().startsWith("cancelled"));
  REQUIRE(w.grade()->report());
  CHECK(w.grade()->report()->exercises.size() < session.exercises().exercises.size());
  // An exercise of which no check ran is grey "not-run" or "not gradable", never "failed 0/0".
  const auto& cancelled = *w.grade()->report();
  auto* tree = w.grade()->checksTree();
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    const auto& ex = cancelled.exercises[static_cast<size_t>(i)];
    const bool ran = std::any_of(ex.checks.begin(), ex.checks.end(),
                                 [](const auto& c) { return c.status != grade::Status::kNotRun; });
    INFO(ex.exercise_id);
    if (!ran || !ex.not_gradable.empty()) CHECK(tree->topLevelItem(i)->text(1) != "failed");
  }

  // Explore: the Cancel button shows while the plugin hangs, and ends the run.
  REQUIRE(w.setView("explore"));
  REQUIRE(test::wait_for([&] { return w.explore()->cancelButton()->isVisible(); }, 5000));
  REQUIRE(test::wait_for([&] { return runners_serving(AWB_TEST_HOSTILE_SLEEP) > 0; }, 20000));
  clock.restart();
  QTest::mouseClick(w.explore()->cancelButton(), Qt::LeftButton);
  REQUIRE(test::wait_for([&] { return !w.explore()->busy(); }, 5000));
  CHECK(clock.elapsed() < 3000);
  CHECK_FALSE(w.explore()->cancelButton()->isVisible());
  // Compare still runs its own (it ends at the wall limit); only the cancelled runners are gone.
  w.compare()->setVariants({});
  REQUIRE(test::wait_for([&] { return !w.compare()->busy(); }, 60000));
  REQUIRE(test::wait_for([&] { return runners_serving(AWB_TEST_HOSTILE_SLEEP) == 0; }, 5000));
}

TEST_CASE("awb-gui --help works without a display, without one the GUI says why",
          "[gui][teaching]") {
  auto env = QProcessEnvironment::systemEnvironment();
  env.remove("DISPLAY");
  env.remove("WAYLAND_DISPLAY");
  env.remove("QT_QPA_PLATFORM");
  QProcess help;
  help.setProcessEnvironment(env);
  help.start(AWB_TEST_GUI_EXE, {"--help"});
  REQUIRE(help.waitForFinished(20000));
  CHECK(help.exitStatus() == QProcess::NormalExit);
  CHECK(help.exitCode() == 0);
  const QString text = help.readAllStandardOutput();
  CHECK(text.contains("--check-layout"));
  CHECK(text.contains("--zoom"));
  QProcess bare;
  bare.setProcessEnvironment(env);
  bare.start(AWB_TEST_GUI_EXE, {});
  REQUIRE(bare.waitForFinished(20000));
  CHECK(bare.exitStatus() == QProcess::NormalExit);
  CHECK(bare.exitCode() == 2);
  CHECK(QString(bare.readAllStandardError()).contains("no display"));
}

TEST_CASE("the train view follows a switch between exercises with different targets",
          "[gui][teaching][train]") {
  // previous-token shows four target maps, resolve-it two: the outcome of the new exercise is
  // drawn on its own maps (an earlier order read the old maps' targets out of range).
  gui::MainWindow w(test::gui_session());
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("train"));
  REQUIRE(w.selectVariants({"causal"}));
  REQUIRE(w.selectExercise("previous-token"));
  const size_t before = w.train()->targetHeatmaps().size();
  REQUIRE(w.selectVariants({"qkv"}));
  REQUIRE(w.selectExercise("resolve-it"));
  CHECK(w.train()->targetHeatmaps().size() == 2);
  CHECK(before != w.train()->targetHeatmaps().size());
  CHECK(w.train()->whyNot().isEmpty());
}

TEST_CASE("type grows with a screen past 1920x1080, and presentation gives 24 px per 1080 lines",
          "[gui][teaching]") {
  gui::MainWindow w(fresh_session());
  w.resize(1280, 720);
  w.show();
  const auto px = [&] { return QFontInfo(w.explore()->heatmap()->font()).pixelSize(); };
  w.planForScreen({1920, 1080});
  const int at_1080 = px();
  w.planForScreen({3840, 2160});
  CHECK(w.typeScale() == 2);
  CHECK(std::abs(px() - 2 * at_1080) <= 1);  // the same size on a panel of the same size
  w.planForScreen({1280, 720});
  CHECK(px() == at_1080);  // a smaller screen keeps the type readable
  w.planForScreen({1920, 1080});
  w.setPresentation(true);
  CHECK(px() >= 24);
  CHECK(w.size() == QSize(1920, 1080));  // full screen: the screen planned for, offscreen
  CHECK(w.presentationBar()->isVisible());
  w.setPresentation(false);
  w.planForScreen({1280, 720});
  w.setPresentation(true);
  CHECK(px() >= 16);  // 24 px per 1080 lines
  CHECK(w.zoom() >= 150);
  w.setPresentation(false);
}

TEST_CASE("presentation names variant, exercise and case, and switches case and variant",
          "[gui][teaching]") {
  gui::MainWindow w(fresh_session());
  w.planForScreen({1280, 720});
  w.resize(1280, 720);
  w.show();
  REQUIRE(w.selectExercise("river-bank"));
  REQUIRE(w.selectVariants({"qkv"}));
  w.setPresentation(true);
  CHECK(w.presentationTitle()->text() == "qkv · river-bank · case river");
  CHECK(w.windowTitle().startsWith("qkv · river-bank · case river"));
  // The case chooser of the bar moves the view to "money", keeping the query ("bank").
  w.explore()->setQuery(5);
  auto* cases = w.presentationCases();
  REQUIRE(cases->isVisible());
  cases->setCurrentIndex(cases->findText("money"));
  emit cases->activated(cases->currentIndex());
  CHECK(w.presentationTitle()->text() == "qkv · river-bank · case money");
  CHECK(w.explore()->query() == 5);
  // The variant chooser switches what is shown.
  auto* variants = w.presentationVariants();
  const int mh = variants->findText("multi-head");
  REQUIRE(mh >= 0);
  variants->setCurrentIndex(mh);
  emit variants->activated(mh);
  CHECK(w.presentationTitle()->text().startsWith("multi-head · river-bank"));
  w.setPresentation(false);
}
