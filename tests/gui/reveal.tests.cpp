// reveal.tests.cpp: predict, then reveal, driven like a student would: the weights hidden until
// a chip or a head button answers, then shown with the verdict; every head of a layer at once,
// a click picking one; one query through the layers with host/core's numbers; and awb-gui
// rendering each new view to a PNG.
#include <QAbstractItemView>
#include <QApplication>
#include <QComboBox>
#include <QFile>
#include <QLabel>
#include <QPushButton>
#include <QTest>
#include <QTextEdit>
#include <algorithm>
#include <catch2/catch.hpp>

#include "core/compare/layer_trace.hpp"
#include "core/exercises/questions.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/plugins/subjects.hpp"
#include "gui/app/headless.hpp"
#include "gui/charts/labels.hpp"
#include "gui_support.hpp"

using namespace awb;
using Catch::Matchers::WithinAbs;
using Mode = gui::ExploreView::Mode;

namespace {

gui::ViewOptions options(const QString& exercise, const QString& variant, int query = -1,
                         const QString& case_id = {}) {
  gui::ViewOptions o;
  o.exercise = exercise;
  o.plugins = {variant};
  o.query = query;
  o.case_id = case_id;
  return o;
}

void prepare(gui::MainWindow& window, const gui::ViewOptions& o) {
  QString error;
  const bool ready = gui::prepare_window(window, o, &error);
  INFO(error.toStdString());
  REQUIRE(ready);
}

void settle(gui::MainWindow& window) {
  REQUIRE(test::wait_for([&] { return !window.busy(); }));
}

void click(QWidget* w) {
  REQUIRE(w);
  QTest::mouseClick(w, Qt::LeftButton);
}

}  // namespace

TEST_CASE("a token question hides the weights until a chip answers it", "[gui][questions]") {
  gui::MainWindow window(test::gui_session());
  prepare(window, options("journey", "parameter-free"));
  auto* view = window.explore();
  auto* panel = view->questionPanel();
  REQUIRE(panel->isVisible());

  REQUIRE(view->askQuestion("journey-attends-to"));
  settle(window);
  CHECK(view->weightsHidden());
  CHECK_FALSE(view->weightsChart()->isVisible());
  CHECK_FALSE(view->scoresChart()->isVisible());
  CHECK_FALSE(view->heatmap()->isVisible());
  CHECK_FALSE(view->contextSwatch()->isVisible());
  CHECK(view->query() == 1);  // "journey"
  CHECK(panel->askLabel()->text().contains("journey"));
  CHECK(panel->promptLabel()->text().contains("click a token"));
  CHECK_FALSE(panel->verdictLabel()->isVisible());
  // The query is the question's while it is asked: arrows do not move it.
  QTest::keyClick(view->chip(1), Qt::Key_Right);
  CHECK(view->query() == 1);

  SECTION("a wrong chip reveals and says not quite") {
    click(view->chip(2));  // "starts": close, but not the largest
    settle(window);
    REQUIRE(view->verdict());
    CHECK_FALSE(view->verdict()->right);
    CHECK(view->verdict()->picked == 2);
    CHECK(view->verdict()->answer == 1);
    CHECK_FALSE(view->weightsHidden());
    CHECK(view->weightsChart()->isVisible());
    CHECK(view->heatmap()->isVisible());
    CHECK(view->query() == 1);
    const QString verdict = panel->verdictLabel()->text();
    CHECK(verdict.contains("Not quite"));
    CHECK(verdict.contains("journey · journey = 1.4950"));  // the lesson's explanation
    // The revealed bars are the question's row, and the verdict's numbers the reference's.
    const auto& ex = *test::gui_session().exercise("journey");
    const auto truth = core::reference_truth(ex, ex.questions[0]);
    const auto w = view->weightsChart()->values();
    REQUIRE(w.size() == truth.weights.size());
    for (size_t i = 0; i < w.size(); ++i) CHECK_THAT(w[i], WithinAbs(truth.weights[i], 1e-12));
    CHECK(verdict.contains(QString::number(truth.weights[2], 'f', 3)));
  }
  SECTION("the right chip says right") {
    click(view->chip(1));
    settle(window);
    REQUIRE(view->verdict());
    CHECK(view->verdict()->right);
    CHECK(panel->verdictLabel()->text().startsWith("<b>Right.</b>"));
    CHECK_FALSE(view->weightsHidden());
    // Leaving the question frees the query again.
    view->closeQuestion();
    view->setQuery(3);
    CHECK(view->query() == 3);
  }
}

TEST_CASE("a head question is answered with the panel's head buttons", "[gui][questions]") {
  gui::MainWindow window(test::gui_session());
  prepare(window, options("multi-head", "multi-head"));
  auto* view = window.explore();
  REQUIRE(view->askQuestion("head-looks-back"));
  settle(window);
  CHECK(view->weightsHidden());
  auto* panel = view->questionPanel();
  REQUIRE(panel->headButton(0));
  REQUIRE(panel->headButton(1));
  CHECK_FALSE(panel->headButton(2));
  click(panel->headButton(1));
  settle(window);
  REQUIRE(view->verdict());
  CHECK_FALSE(view->verdict()->right);
  CHECK(view->verdict()->answer == 0);
  CHECK(panel->verdictLabel()->text().contains("Not quite"));
  // Revealed as every head side by side, the answer's head selected.
  CHECK_FALSE(view->weightsHidden());
  CHECK(view->mode() == Mode::kAllHeads);
  CHECK(view->headsGrid()->isVisible());
  CHECK(view->head() == 0);

  REQUIRE(view->askQuestion("head-looks-back"));
  settle(window);
  CHECK(view->weightsHidden());
  click(panel->headButton(0));
  settle(window);
  REQUIRE(view->verdict());
  CHECK(view->verdict()->right);
}

TEST_CASE("a question of another case moves explore and the case list there", "[gui][questions]") {
  gui::MainWindow window(test::gui_session());
  prepare(window, options("animal-road", "qkv", -1, "tired"));
  auto* view = window.explore();
  REQUIRE(view->askQuestion("it-wide"));
  settle(window);
  CHECK(view->weightsHidden());
  CHECK(qobject_cast<QAbstractButton*>(view->chip(10))->text() == "wide");
  CHECK(view->query() == 7);
  CHECK(view->shownLayer() == 1);
  click(view->chip(5));  // "road"
  settle(window);
  REQUIRE(view->verdict());
  CHECK(view->verdict()->right);
  CHECK(view->heatmap()->matrix()(7, 5) == view->output().layers[1].result.weights[0](7, 5));
}

TEST_CASE("heads grid: one heatmap per head, clicking head k explores head k",
          "[gui][heads-grid]") {
  gui::MainWindow window(test::gui_session());
  prepare(window, options("multi-head", "multi-head", 7));
  auto* view = window.explore();
  CHECK(view->mode() == Mode::kOneHead);  // the single head stays the default
  view->setMode(Mode::kAllHeads);
  settle(window);  // the maps made for the heads show once events run
  auto* grid = view->headsGrid();
  REQUIRE(grid->isVisible());
  const auto& heads = view->output().layers.back().result.weights;
  REQUIRE(grid->count() == 2);
  for (int h = 0; h < 2; ++h) {
    INFO("head " << h);
    CHECK(grid->map(h)->isVisible());
    CHECK(grid->map(h)->matrix().data == heads[size_t(h)].data);
  }
  QTest::mouseClick(grid->map(1), Qt::LeftButton, {}, grid->map(1)->rect().center());
  CHECK(view->head() == 1);
  CHECK(view->headSelector()->currentIndex() == 1);
  CHECK(view->mode() == Mode::kOneHead);
  CHECK(view->heatmap()->isVisible());
  CHECK(view->heatmap()->matrix().data == heads[1].data);
  view->setMode(Mode::kAllHeads);
  QTest::mouseClick(grid->map(0), Qt::LeftButton, {}, grid->map(0)->rect().center());
  CHECK(view->head() == 0);
}

TEST_CASE("layer view: \"it\" through animal-road's two layers, with host/core's numbers",
          "[gui][layer-view]") {
  gui::MainWindow window(test::gui_session());
  prepare(window, options("animal-road", "qkv", 7, "tired"));
  auto* view = window.explore();
  view->setMode(Mode::kLayers);
  settle(window);
  auto* lv = view->layerView();
  REQUIRE(lv->isVisible());
  REQUIRE(lv->layers() == 2);
  const auto steps = core::trace_query(view->output(), 7, 0);
  // And the same story from the reference: the plugin's run agrees with it.
  const auto& ex = *test::gui_session().exercise("animal-road");
  core::ReferenceSubject reference(ex.reference_capabilities);
  const auto expected =
      core::trace_query(reference.run(core::case_input(ex, "tired"), Scalar::kF64), 7, 0);
  for (int l = 0; l < 2; ++l) {
    INFO("layer " << l);
    CHECK(lv->weightsChart(l)->values() == steps[size_t(l)].weights);
    CHECK(lv->resemblanceChart(l)->values() == steps[size_t(l)].resemblance);
    for (size_t t = 0; t < 11; ++t) {
      CHECK_THAT(lv->weightsChart(l)->values()[t], WithinAbs(expected[size_t(l)].weights[t], 1e-9));
      CHECK_THAT(lv->resemblanceChart(l)->values()[t],
                 WithinAbs(expected[size_t(l)].resemblance[t], 1e-9));
    }
  }
  auto argmax = [](const std::vector<double>& v) {
    return std::max_element(v.begin(), v.end()) - v.begin();
  };
  CHECK(argmax(lv->weightsChart(0)->values()) == 10);  // "tired"
  CHECK(argmax(lv->weightsChart(1)->values()) == 1);   // "animal"
  CHECK(lv->weightsChart(1)->caption().contains("animal"));
  // Another query redraws the view.
  view->setQuery(1);
  CHECK(lv->weightsChart(0)->values() == core::trace_query(view->output(), 1, 0)[0].weights);
}

TEST_CASE("awb-gui renders the new views: all heads, layers, an answered question",
          "[gui][screenshot]") {
  const struct {
    const char* file;
    QStringList args;
  } shots[] = {
      {"explore-heads-multi-head.png",
       {"--exercise", "multi-head", "--variant", "multi-head", "--view", "explore-heads", "--query",
        "7"}},
      {"explore-layers-animal-road.png",
       {"--exercise", "animal-road", "--case", "tired", "--variant", "qkv", "--view",
        "explore-layers", "--query", "7"}},
      {"explore-question-animal-road.png",
       {"--exercise", "animal-road", "--variant", "qkv", "--question", "it-tired", "--answer",
        "5"}},
  };
  for (const auto& s : shots) {
    const QString file = QStringLiteral(AWB_TEST_SCREENSHOT_DIR "/") + s.file;
    QFile::remove(file);
    const test::GuiRun gui = test::run_gui(QStringList(s.args) << "--screenshot" << file);
    REQUIRE(gui.finished);
    INFO(s.file << ": " << gui.err.toStdString());
    CHECK(gui.exit_code == 0);
    CHECK_FALSE(QImage(file).isNull());
  }
  // An unknown question is an error, not a silent screenshot.
  const test::GuiRun gui = test::run_gui({"--exercise", "journey", "--variant", "parameter-free",
                                          "--question", "nope", "--screenshot", "/dev/null"});
  REQUIRE(gui.finished);
  CHECK(gui.exit_code == 1);
  CHECK(gui.err.contains("no question 'nope'"));
}

namespace {

// Every text a view shows: labels, buttons, table and tree cells, text browsers.
QStringList texts_under(QWidget* root) {
  QStringList out;
  for (auto* w : root->findChildren<QWidget*>()) {
    if (auto* l = qobject_cast<QLabel*>(w)) out << l->text();
    if (auto* b = qobject_cast<QAbstractButton*>(w)) out << b->text();
    if (auto* t = qobject_cast<QTextEdit*>(w)) out << t->toPlainText();
    if (auto* v = qobject_cast<QAbstractItemView*>(w); v && v->model())
      for (int r = 0; r < v->model()->rowCount(); ++r)
        for (int c = 0; c < v->model()->columnCount(); ++c)
          out << v->model()->index(r, c).data().toString();
  }
  return out;
}

}  // namespace

TEST_CASE("a pending question keeps its secret: lesson, compare and status hold no weight of it",
          "[gui][reveal]") {
  gui::MainWindow w(test::gui_session());
  prepare(w, options("animal-road", "qkv", -1, "tired"));
  REQUIRE(w.explore()->askQuestion("it-tired"));
  REQUIRE(gui::wait_idle(w, 30000));
  REQUIRE(w.explore()->weightsHidden());
  // The answer's row: layer 1, head 0, the row of "it" (7), as the view ran it.
  const auto& layers = w.explore()->output().layers;
  REQUIRE(layers.size() == 2);
  const Matrix& a = layers[1].result.weights.at(0);
  QStringList secrets;  // each weight as any view would print it
  for (int64_t c = 0; c < a.cols; ++c) {
    const double v = a(7, c);
    if (v < 0.01) continue;  // "0.00"-like strings say nothing of the row
    secrets << gui::value_text(v) << QString::number(v, 'f', 2) << QString::number(v, 'g', 3);
  }
  REQUIRE(secrets.size() >= 3);  // "animal" at least, and its strings

  const auto leaks = [&](const QStringList& shown) {
    QStringList found;
    for (const QString& text : shown)
      for (const QString& s : secrets)
        if (text.contains(s)) found << s + " in \"" + text.left(80) + "\"";
    return found;
  };
  // Compare, even opened (its tab is disabled meanwhile), runs but shows no map and no number.
  REQUIRE(w.setView("compare"));
  REQUIRE(gui::wait_idle(w, 30000));
  const QStringList lesson{w.lesson()->toPlainText(), w.presentationLesson()->toPlainText()};
  CHECK(leaks(lesson).isEmpty());
  CHECK(leaks(texts_under(w.compare())).isEmpty());
  CHECK(leaks({w.explore()->sumLabel()->text(), w.windowTitle()}).isEmpty());
  CHECK(leaks(texts_under(w.explore()->questionPanel())).isEmpty());
  // What gives the answer away waits: lesson_after, the checks, Compare, Grade, the sum.
  const std::string after = "puts most of its weight on";
  CHECK_FALSE(w.lesson()->toPlainText().toStdString().find(after) != std::string::npos);
  CHECK(w.lesson()->toPlainText().contains("once you have answered the question"));
  CHECK_FALSE(w.lesson()->toPlainText().contains("Checks"));
  CHECK(w.compare()->withheld());
  CHECK(w.compare()->findChildren<gui::HeatmapWidget*>().isEmpty());
  REQUIRE(w.setView("explore"));
  CHECK_FALSE(w.explore()->sumLabel()->isVisible());

  // Answered: everything comes back.
  w.explore()->answerQuestion(1);  // "animal"
  REQUIRE(gui::wait_idle(w, 30000));
  REQUIRE(w.explore()->verdict());
  CHECK(w.explore()->verdict()->right);
  CHECK(w.lesson()->toPlainText().toStdString().find(after) != std::string::npos);
  CHECK(w.lesson()->toPlainText().contains("Checks"));
  CHECK_FALSE(w.compare()->withheld());
  REQUIRE(w.setView("compare"));
  REQUIRE(gui::wait_idle(w, 30000));
  CHECK_FALSE(w.compare()->findChildren<gui::HeatmapWidget*>().isEmpty());
  // The weights are drawn there now: a map holds the answer's row.
  bool drawn = false;
  for (const auto* map : w.compare()->findChildren<gui::HeatmapWidget*>())
    drawn = drawn || (map->matrix().rows == a.rows && map->matrix()(7, 1) == a(7, 1));
  CHECK(drawn);
}

TEST_CASE("keyboard only: Tab to Ask, arrows along the chips, Enter answers the third",
          "[gui][reveal]") {
  gui::MainWindow w(test::gui_session());
  prepare(w, options("journey", "parameter-free"));
  w.activateWindow();
  REQUIRE(QTest::qWaitForWindowActive(&w));
  auto* panel = w.explore()->questionPanel();
  // From the last chip, Tab reaches the question chooser and then Ask: the reading order.
  w.explore()->chip(5)->setFocus();
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
  CHECK(QApplication::focusWidget() == panel->chooser());
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Tab);
  CHECK(QApplication::focusWidget() == panel->askButton());
  REQUIRE(static_cast<QComboBox*>(panel->chooser())->currentText() == "journey-attends-to");
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Space);  // Ask
  REQUIRE(w.explore()->weightsHidden());
  // The keyboard is on the first chip; the ring shows where.
  CHECK(QApplication::focusWidget() == w.explore()->chip(0));
  CHECK(w.focusRing()->target() == w.explore()->chip(0));
  CHECK(w.focusRing()->isVisible());
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Right);
  CHECK(QApplication::focusWidget() == w.explore()->chip(2));
  CHECK(w.explore()->query() == 1);  // the question's query ("journey") stays
  CHECK(w.explore()->weightsHidden());
  QTest::keyClick(QApplication::focusWidget(), Qt::Key_Return);
  REQUIRE(test::wait_for([&] { return w.explore()->verdict().has_value(); }));
  CHECK(w.explore()->verdict()->picked == 2);  // "starts"
  CHECK_FALSE(w.explore()->weightsHidden());
}
