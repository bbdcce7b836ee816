// views.tests.cpp: the colour map's properties, the compare and grade views, the browsers and
// the exports.
#include <QDir>
#include <QFile>
#include <QListWidget>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <cmath>
#include <set>

#include "gui/charts/colormap.hpp"
#include "gui/charts/export.hpp"
#include "gui/charts/labels.hpp"
#include "gui/views/bench/bench_view.hpp"
#include "gui_support.hpp"

using namespace awb;
using Catch::Matchers::WithinAbs;

namespace {

double luminance(QRgb c) {
  auto lin = [](int v) {
    const double s = v / 255.0;
    return s <= 0.04045 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4);
  };
  return 0.2126 * lin(qRed(c)) + 0.7152 * lin(qGreen(c)) + 0.0722 * lin(qBlue(c));
}

}  // namespace

TEST_CASE("the colour map is uniform in Oklab, inside sRGB, and monotone in lightness",
          "[gui][colormap]") {
  const auto& map = gui::ColorMap::instance();
  auto dist = [&](int i) {
    const auto a = map.oklab(i), b = map.oklab(i + 1);
    return std::hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
  };
  const double step = dist(0);
  for (int i = 0; i + 1 < gui::ColorMap::kSize; ++i) {
    CHECK_THAT(dist(i), WithinAbs(step, 1e-12));
    for (double c : map.linear_srgb(i)) CHECK((c >= 0.0 && c <= 1.0));  // no clipping
    // Lightness alone carries the order: it survives every kind of colour blindness. (Two
    // neighbours may round to the same 8-bit luminance; four steps apart never do.)
    CHECK(luminance(map.entry(i + 1)) >= luminance(map.entry(i)));
    if (i + 4 < gui::ColorMap::kSize) CHECK(luminance(map.entry(i + 4)) > luminance(map.entry(i)));
  }
  CHECK(map.rgb(0) == map.entry(0));
  CHECK(map.rgb(1) == map.entry(255));
  CHECK(map.rgb(0.5) == map.entry(128));
}

TEST_CASE("compare view: parameter-free against Q/K/V on river-bank", "[gui][compare]") {
  gui::MainWindow w(test::gui_session());
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("compare"));
  REQUIRE(w.selectExercise("river-bank"));
  REQUIRE(w.selectVariants({"parameter-free", "qkv"}));
  REQUIRE(test::wait_for([&] { return !w.busy(); }));
  auto* cv = w.compare();
  const auto& c = cv->comparison();
  REQUIRE(c.entries.size() == 2);
  // The table shows what `awb compare` computes.
  auto* table = cv->metricsTable();
  REQUIRE(table->rowCount() == 3);
  CHECK(table->item(1, 0)->text() == "parameter-free");
  CHECK(table->item(1, 2)->text() == gui::value_text(c.entries[0].metrics.max_abs_diff));
  CHECK(table->item(2, 4)->text() == "1");  // an exact whole number reads whole
  CHECK(table->item(1, 5)->text().contains("weights are ignored"));
  // Q/K/V's difference map is all zero; parameter-free's is not.
  const Matrix& dq = cv->diffHeatmap(1)->matrix();
  const Matrix& dp = cv->diffHeatmap(0)->matrix();
  CHECK(*std::max_element(dq.data.begin(), dq.data.end()) < 1e-12);
  CHECK(*std::max_element(dp.data.begin(), dp.data.end()) ==
        Approx(c.entries[0].metrics.max_abs_diff));
  CHECK(cv->csv().startsWith("variant,max_abs_error"));
  // Each matrix of the CSV is a table with the tokens as its headers.
  const QString csv = cv->csv();
  CHECK(csv.contains("\nA reference head 0,she,sat,by,the,river,bank\nshe,"));
  CHECK(csv.contains("\nA qkv head 0,she,sat,by,the,river,bank\nshe,"));
}

TEST_CASE("compare view: a single-head variant on two heads says head 1 is unpaired",
          "[gui][compare]") {
  gui::MainWindow w(test::gui_session());
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("compare"));
  REQUIRE(w.selectExercise("multi-head"));
  REQUIRE(w.selectVariants({"qkv"}));
  REQUIRE(test::wait_for([&] { return !w.busy(); }));
  auto* table = w.compare()->metricsTable();
  REQUIRE(table->rowCount() == 2);
  CHECK(table->item(1, 0)->text() == "qkv");
  CHECK(table->item(1, 5)->text().contains("variant has 1 head, reference 2: head 1 unpaired"));
}

TEST_CASE("grade view: a mutant loses points with feedback and hints", "[gui][grade]") {
  gui::MainWindow w(test::mutant_session());
  w.resize(1280, 800);
  w.show();
  REQUIRE(w.setView("grade"));
  REQUIRE(w.selectExercise("journey"));
  REQUIRE(w.selectVariants({"org.awb.mutant.divide-by-sum:parameter-free"}));
  REQUIRE(test::wait_for([&] { return !w.busy(); }));
  const auto& report = w.grade()->report();
  REQUIRE(report);
  CHECK(report->score() < report->max_score());
  auto* tree = w.grade()->checksTree();
  REQUIRE(tree->topLevelItemCount() == 1);
  REQUIRE(tree->topLevelItem(0)->childCount() > 0);
  // A failed check is open, with its hint in full on a row of its own.
  bool failed_with_hint = false;
  for (int r = 0; r < tree->topLevelItem(0)->childCount(); ++r) {
    auto* check = tree->topLevelItem(0)->child(r);
    if (check->text(1) != "failed") continue;
    CHECK(check->isExpanded());
    for (int d = 0; d < check->childCount(); ++d)
      if (check->child(d)->text(0) == "hint" && !check->child(d)->text(3).isEmpty())
        failed_with_hint = true;
  }
  CHECK(failed_with_hint);
  CHECK(w.grade()->statusLabel()->text().isEmpty());  // "grading …" gives way to the result
  CHECK(w.grade()->totalLabel()->text().contains(QString::number(report->score())));
  CHECK(w.grade()->reportText("json").contains("\"exercises\""));
  CHECK(w.grade()->reportText("junit").startsWith("<?xml"));

  // The bundled variant aces it.
  REQUIRE(w.selectVariants({"org.awb.parameter-free:parameter-free"}));
  REQUIRE(test::wait_for([&] { return !w.busy(); }));
  CHECK(w.grade()->report()->score() == w.grade()->report()->max_score());
}

TEST_CASE("the plugin browser lists variants with capabilities and load failures",
          "[gui][browser]") {
  gui::Session session({AWB_TEST_BROKEN_DIR}, {AWB_TEST_EXERCISE_DIR});
  gui::MainWindow w(session);
  auto* tree = w.pluginTree();
  bool qkv = false, failure = false;
  for (QTreeWidgetItemIterator it(tree); *it; ++it) {
    if ((*it)->text(0) == "qkv" && (*it)->text(1).contains("qkv")) qkv = true;
    if ((*it)->text(1).startsWith("not loaded (abi)")) failure = true;
  }
  CHECK(qkv);
  CHECK(failure);
}

TEST_CASE("export: PNG, SVG and CSV of a view", "[gui][export]") {
  gui::MainWindow w(test::gui_session());
  w.resize(1000, 700);
  w.show();
  REQUIRE(w.selectExercise("journey"));
  REQUIRE(w.selectVariants({"parameter-free"}));
  REQUIRE(test::wait_for([&] { return !w.busy(); }));
  QTemporaryDir dir;
  const QString png = dir.filePath("v.png"), svg = dir.filePath("v.svg"),
                csv = dir.filePath("v.csv");
  REQUIRE(gui::save_png(w.explore(), png));
  REQUIRE(gui::save_svg(w.explore(), svg));
  REQUIRE(gui::save_text(w.explore()->csv(), csv));
  CHECK(QImage(png).size() == w.explore()->size() * w.explore()->devicePixelRatioF());
  QFile s(svg);
  REQUIRE(s.open(QIODevice::ReadOnly));
  const QByteArray svg_text = s.readAll();
  CHECK(svg_text.contains("<svg"));
  CHECK(svg_text.contains("<image"));  // the heatmap, as the image it is drawn from
  QFile c(csv);
  REQUIRE(c.open(QIODevice::ReadOnly));
  const QString text = QString::fromUtf8(c.readAll());
  CHECK(text.startsWith("A layer 0 head 0\nYour,"));
  CHECK(text.contains("Z layer 0"));
}

TEST_CASE("a plugin file rebuilt on disk is reloaded", "[gui][browser]") {
  QTemporaryDir dir;
  const QString copy = dir.filePath("student.so");
  REQUIRE(QFile::copy(AWB_TEST_PLUGIN_DIR "/awb_qkv.so", copy));
  gui::Session session({dir.path()}, {AWB_TEST_EXERCISE_DIR});
  int reloads = 0;
  QObject::connect(&session, &gui::Session::catalogChanged, [&] { ++reloads; });
  // The student rebuilds: the file is replaced.
  REQUIRE(QFile::remove(copy));
  REQUIRE(QFile::copy(AWB_TEST_PLUGIN_DIR "/awb_parameter_free.so", copy));
  REQUIRE(test::wait_for([&] { return reloads > 0; }, 5000));
  // The new catalog has read the new file: a copy of the bundled parameter-free plugin, which it
  // replaces (a plugin the user points at wins over a bundled one of its id).
  const auto ref = core::find_variant(*session.catalog(), "parameter-free");
  CHECK(ref.plugin->path.filename() == "student.so");
  CHECK_FALSE(ref.plugin->bundled);
}

TEST_CASE("names that repeat are told apart in the plugin tree and the bench",
          "[gui][cells][names]") {
  gui::Session session({AWB_TEST_PLUGIN_DIR, AWB_TEST_MUTANT, AWB_TEST_MUTANT_FLIP},
                       {AWB_TEST_EXERCISE_DIR}, gui::Session::Memory::kThisRunOnly);
  gui::MainWindow w(session);
  std::set<QString> plugins;
  int mutants = 0;
  auto* tree = w.pluginTree();
  for (int i = 0; i < tree->topLevelItemCount(); ++i) {
    const QString name = tree->topLevelItem(i)->text(0);
    CHECK(plugins.insert(name).second);  // no name twice
    if (name.startsWith("Mutant 1.0.0")) {
      ++mutants;
      CHECK(name.contains(tree->topLevelItem(i)->text(1)));  // its id
    }
  }
  CHECK(mutants == 2);

  REQUIRE(w.setView("bench"));
  auto* bv = w.bench();
  auto* list = bv->findChild<QListWidget*>();
  REQUIRE(list);
  std::set<QString> rows;
  for (int i = 0; i < list->count(); ++i) CHECK(rows.insert(list->item(i)->text()).second);
  CHECK(rows.count("org.awb.mutant.divide-by-sum:qkv") == 1);
  CHECK(rows.count("parameter-free") == 0);  // three plugins provide it: each by its spec

  // The legend of a sweep of two "qkv": each by its spec.
  REQUIRE(w.selectVariants({"org.awb.qkv:qkv", "org.awb.mutant.divide-by-sum:qkv"}));
  bv->tokensEdit()->setText("16");
  auto r = bv->request();
  REQUIRE(r);
  r->quick = true;
  r->warmup = 0;
  r->reps = 1;
  bv->start(*r);
  REQUIRE(test::wait_for([&] { return !bv->busy(); }, 180000));
  std::set<QString> legend;
  for (const auto& s : bv->timeChart()->series()) CHECK(legend.insert(s.label).second);
  CHECK(legend == std::set<QString>{"org.awb.qkv:qkv", "org.awb.mutant.divide-by-sum:qkv"});
}
