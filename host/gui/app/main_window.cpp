// main_window.cpp: browsers, menus and the wiring between the selection and the views.
#include "gui/app/main_window.hpp"

#include <QApplication>
#include <QFileDialog>
#include <QGuiApplication>
#include <QHeaderView>
#include <QInputDialog>
#include <QMenuBar>
#include <QMessageBox>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QSettings>
#include <QShortcut>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <functional>

#include "core/base/atomic_file.hpp"
#include "core/page/page.hpp"
#include "core/plugins/capabilities.hpp"
#include "graders/report/formats.hpp"
#include "gui/app/view_registry.hpp"
#include "gui/charts/export.hpp"
#include "gui/charts/labels.hpp"

namespace awb::gui {
namespace {

constexpr int kSpecRole = Qt::UserRole + 1;
constexpr const char* kZoomKey = "window/zoom";
constexpr const char* kSplitterKey = "window/splitter";
constexpr int kPresentationZoom = 150;      // the least zoom of presentation mode
constexpr double kPresentationTypePx = 24;  // its type at 1080 lines, in proportion elsewhere

// A view in its tab: where the window is smaller than the view's least size the view scrolls,
// so no chart is squeezed below its minimum and the window never asks for more than the screen.
// Each resize tells the view the width it may use (a vertical scroll bar's width kept aside,
// so the view's choice does not flip when one appears).
class ViewScroller : public QScrollArea {
 public:
  explicit ViewScroller(View* view) : view_(view) {
    setWidget(view);
    setWidgetResizable(true);
    setFrameShape(QFrame::NoFrame);
  }

 protected:
  void resizeEvent(QResizeEvent* e) override {
    view_->fitWidth(width() - 2 * frameWidth() - verticalScrollBar()->sizeHint().width());
    QScrollArea::resizeEvent(e);
  }

 private:
  View* view_;
};

}  // namespace

// Long for a reason: the widget tree, built top to bottom in the order it is shown, with its
// connections beside each widget.
MainWindow::MainWindow(Session& session, QWidget* parent) : QMainWindow(parent), session_(session) {
  setWindowTitle(tr("Attention Workbench"));
  plugins_ = new QTreeWidget;
  plugins_->setHeaderLabels({tr("plugin / variant"), tr("capabilities")});
  // Columns as wide as their text (a narrow sidebar scrolls sideways rather than cut ids off).
  plugins_->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
  plugins_->header()->setStretchLastSection(false);
  plugins_->setSelectionMode(QAbstractItemView::ExtendedSelection);
  plugins_->setToolTip(tr("Select one variant to explore and grade; several to compare"));
  exercises_ = new QListWidget;
  exercises_->setWordWrap(true);  // long titles wrap in a narrow sidebar rather than run off it
  exercises_->setResizeMode(QListView::Adjust);
  cases_ = new QComboBox;
  lesson_ = new QTextBrowser;
  lesson_->setOpenExternalLinks(true);

  auto* browser = new QSplitter(Qt::Vertical);
  browser_ = browser;
  browser->addWidget(plugins_);
  auto* ex_panel = new QWidget;
  auto* ex_layout = new QVBoxLayout(ex_panel);
  ex_layout->setContentsMargins(0, 0, 0, 0);
  ex_layout->addWidget(exercises_, 1);
  ex_layout->addWidget(cases_);
  ex_layout->addWidget(lesson_, 2);
  browser->addWidget(ex_panel);

  tabs_ = new QTabWidget;
  for (const auto& entry : view_registry()) {
    View* view = entry.make(session_);
    views_.push_back(view);
    tabs_->addTab(new ViewScroller(view), tr(entry.title));
  }

  // The lesson beside the view, for presentation mode only.
  side_lesson_ = new QTextBrowser;
  side_lesson_->setOpenExternalLinks(true);
  side_lesson_->hide();

  split_ = new QSplitter;
  split_->addWidget(browser);
  split_->addWidget(tabs_);
  split_->addWidget(side_lesson_);
  split_->setChildrenCollapsible(false);
  split_->setStretchFactor(1, 3);
  split_->setSizes({300, 980, 0});
  base_font_ = font();
  if (session_.remembers()) {
    // The sidebar keeps the width the user dragged it to, and the zoom its last step.
    split_->restoreState(QSettings().value(kSplitterKey).toByteArray());
    setZoom(QSettings().value(kZoomKey, 100).toInt());
  }
  connect(split_, &QSplitter::splitterMoved, this, [this] {
    if (session_.remembers() && !presenting_)
      QSettings().setValue(kSplitterKey, split_->saveState());
  });
  buildPresentationBar();
  auto* central = new QWidget;
  auto* central_layout = new QVBoxLayout(central);
  central_layout->setContentsMargins(0, 0, 0, 0);
  central_layout->setSpacing(0);
  central_layout->addWidget(present_bar_);
  central_layout->addWidget(split_, 1);
  setCentralWidget(central);

  QMenu* file = menuBar()->addMenu(tr("&File"));
  file->addAction(tr("Add plugin &folder…"), QKeySequence::Open, this, [this] {
    const QString dir = QFileDialog::getExistingDirectory(this, tr("Plugin folder"));
    if (!dir.isEmpty()) session_.addPluginFolder(dir);
  });
  file->addAction(tr("Re&move plugin folder…"), this, &MainWindow::removePluginFolder);
  file->addAction(tr("&Reload plugins"), QKeySequence(Qt::CTRL | Qt::Key_R), &session_,
                  &Session::reloadCatalog);
  file->addSeparator();
  file->addAction(tr("Export view as &PNG…"), this, &MainWindow::exportPng);
  file->addAction(tr("Export view as &SVG…"), this, &MainWindow::exportSvg);
  file->addAction(tr("Export matrices as &CSV…"), this, &MainWindow::exportCsv);
  file->addAction(tr("Export grade &report…"), this, &MainWindow::exportReport);
  file->addAction(tr("Export interactive pa&ge…"), this, &MainWindow::exportPageDialog);
  file->addSeparator();
  file->addAction(tr("&Quit"), QKeySequence::Quit, this, &QWidget::close);
  addViewMenu();

  connect(&session_, &Session::catalogChanged, this, &MainWindow::fillPlugins);
  connect(plugins_, &QTreeWidget::itemSelectionChanged, this, &MainWindow::variantsChanged);
  connect(exercises_, &QListWidget::currentRowChanged, this, &MainWindow::exerciseChanged);
  connect(cases_, &QComboBox::activated, this,
          [this] { showCase(nullptr, cases_->currentText()); });
  for (View* view : views_) {
    connect(view, &View::questionPendingChanged, this,
            [this, view](bool pending) { questionPending(view, pending); });
    // A question of another case moves its view there; the case list and the other views of
    // one case follow.
    connect(view, &View::caseChanged, this,
            [this, view](const QString& case_id) { showCase(view, case_id); });
    // The parameters set in explore (feature_map=relu) are those compare runs with: each run of
    // explore, after an edit or a new variant or exercise, passes its editors' values on.
    connect(view, &View::paramsChanged, this, [this, view](const ParamValues& values) {
      for (View* other : views_)
        if (other != view) other->showParams(values);
    });
  }
  fillPlugins();
  fillExercises();
  focus_ring_ = new FocusRing(this);
}

void MainWindow::fillPlugins() {
  const QStringList selected = selectedSpecs();
  const QSignalBlocker block(plugins_);
  plugins_->clear();
  const auto catalog = session_.catalog();
  // Plugins that share a name and version (every mutant is "Mutant 1.0.0") are told apart by
  // their id, and by their file where even that repeats.
  QStringList names, ids, files;
  for (const auto& p : catalog->plugins) {
    names << QString::fromStdString(p.name + " " + p.version);
    ids << QString::fromStdString(p.id);
    files << QString::fromStdString(p.path.filename().string());
  }
  names = distinct_names(distinct_names(names, ids), files);
  for (const auto& p : catalog->plugins) {
    auto* top = new QTreeWidgetItem(
        plugins_, {names[plugins_->topLevelItemCount()], QString::fromStdString(p.id)});
    top->setToolTip(0, QString::fromStdString(p.path.string() + "\n" + p.description));
    top->setFlags(top->flags() & ~Qt::ItemIsSelectable);
    for (const auto& v : p.variants) {
      auto* item = new QTreeWidgetItem(
          top, {QString::fromStdString(v.id),
                QString::fromStdString(core::describe_capabilities(v.capabilities))});
      item->setData(0, kSpecRole, variant_spec(p, v));
      item->setToolTip(0, QString::fromStdString(v.name + ": " + v.description));
      if (selected.contains(variant_spec(p, v))) item->setSelected(true);
    }
  }
  for (const auto& f : catalog->failures) {
    auto* item =
        new QTreeWidgetItem(plugins_, {QString::fromStdString(f.path.filename().string()),
                                       tr("not loaded (%1)").arg(core::to_string(f.stage))});
    const QString why =
        QString::fromStdString(f.message + (f.system_error.empty() ? "" : ": ") + f.system_error);
    item->setToolTip(0, QString::fromStdString(f.path.string()) + "\n" + why);
    item->setToolTip(1, why);
    item->setForeground(0, QColor(0xd9, 0x6c, 0x06));
    item->setFlags(item->flags() & ~Qt::ItemIsSelectable);
    new QTreeWidgetItem(item, {why});
  }
  plugins_->expandAll();
  plugins_->resizeColumnToContents(0);
  variantsChanged();  // a reloaded plugin reruns the views
}

void MainWindow::fillExercises() {
  for (const auto& e : session_.exercises().exercises) {
    auto* item = new QListWidgetItem(QString::fromStdString(e.id + " — " + e.title), exercises_);
    item->setData(kSpecRole, QString::fromStdString(e.id));
  }
  for (const auto& err : session_.exercises().errors) {
    auto* item = new QListWidgetItem(tr("not loaded: %1").arg(err.what()), exercises_);
    item->setFlags(Qt::NoItemFlags);
  }
}

void MainWindow::exerciseChanged() {
  auto* item = exercises_->currentItem();
  const auto* ex = item ? session_.exercise(item->data(kSpecRole).toString()) : nullptr;
  if (!ex) return;
  showLesson();
  {
    const QSignalBlocker block(cases_);
    cases_->clear();
    for (const auto& c : ex->cases) cases_->addItem(QString::fromStdString(c.id));
    cases_->setVisible(ex->cases.size() > 1);
  }
  for (View* view : views_) view->showExercise(ex, cases_->currentText());
  updateTitles();
}

void MainWindow::showCase(View* mover, const QString& case_id) {
  if (mover) {
    const QSignalBlocker block(cases_);
    cases_->setCurrentText(case_id);
  }
  const auto* ex = session_.exercise(exercises_->currentItem()->data(kSpecRole).toString());
  for (View* view : views_)
    if (view != mover) view->showCase(ex, case_id);
  updateTitles();
}

void MainWindow::showLesson() {
  auto* item = exercises_->currentItem();
  const auto* ex = item ? session_.exercise(item->data(kSpecRole).toString()) : nullptr;
  if (!ex) return;
  // While a question waits, the text that gives answers away (lesson_after) and the checks,
  // whose names can say the same, wait too.
  QString lesson = QStringLiteral("# %1\n\n%2")
                       .arg(QString::fromStdString(ex->title), QString::fromStdString(ex->lesson));
  if (question_pending_ && (!ex->lesson_after.empty() || !ex->checks.empty()))
    lesson += tr("\n\n*More of the lesson, and its checks, once you have answered the question.*");
  else if (!ex->lesson_after.empty())
    lesson += QStringLiteral("\n\n") + QString::fromStdString(ex->lesson_after);
  side_lesson_->setMarkdown(lesson);
  QString md = lesson;
  if (!question_pending_) {
    md += QStringLiteral("\n\n## Checks\n\n");
    for (const auto& c : ex->checks)
      md += QStringLiteral("- **%1** (%2, %3 points)%4\n")
                .arg(QString::fromStdString(c.id), grade::to_string(c.kind))
                .arg(c.points)
                .arg(c.visibility == grade::Visibility::kVisible ? QString() : tr(" — hidden"));
  }
  lesson_->setMarkdown(md);
}

void MainWindow::questionPending(View* asker, bool pending) {
  question_pending_ = pending;
  showLesson();
  // The other views that show answers (Compare draws the weights asked about, Grade's checks
  // judge them) wait.
  const int asking =
      static_cast<int>(std::find(views_.begin(), views_.end(), asker) - views_.begin());
  for (int i = 0; i < static_cast<int>(views_.size()); ++i) {
    View* view = views_[static_cast<size_t>(i)];
    if (view == asker || !view->showsAnswers()) continue;
    view->withhold(pending);
    tabs_->setTabEnabled(i, !pending);
    tabs_->setTabToolTip(i, pending ? tr("Answer the question in %1 first")
                                          .arg(tabs_->tabText(asking).remove(QLatin1Char('&')))
                                    : QString());
  }
}

bool MainWindow::busy() const {
  return std::any_of(views_.begin(), views_.end(), [](const View* v) { return v->busy(); });
}

QStringList MainWindow::selectedSpecs() const {
  QStringList out;
  for (auto* item : plugins_->selectedItems())
    if (item->data(0, kSpecRole).isValid()) out << item->data(0, kSpecRole).toString();
  return out;
}

void MainWindow::variantsChanged() {
  const QStringList specs = selectedSpecs();
  if (specs.isEmpty()) return;
  for (View* view : views_) view->showVariants(specs);
  updateTitles();
}

bool MainWindow::selectExercise(const QString& id, QString* error) {
  for (int i = 0; i < exercises_->count(); ++i)
    if (exercises_->item(i)->data(kSpecRole).toString() == id) {
      exercises_->setCurrentRow(i);
      return true;
    }
  if (error) *error = tr("no exercise with id '%1'").arg(id);
  return false;
}

bool MainWindow::selectCase(const QString& id, QString* error) {
  const int i = cases_->findText(id);
  if (i < 0) {
    if (error) *error = tr("no case '%1'").arg(id);
    return false;
  }
  cases_->setCurrentIndex(i);
  emit cases_->activated(i);
  return true;
}

bool MainWindow::selectVariants(const QStringList& specs, QString* error) {
  QStringList full;
  try {
    for (const auto& s : specs) {
      const auto ref = core::find_variant(*session_.catalog(), s.toStdString());
      full << variant_spec(*ref.plugin, *ref.variant);
    }
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
  const QSignalBlocker block(plugins_);
  plugins_->clearSelection();
  for (QTreeWidgetItemIterator it(plugins_); *it; ++it)
    if (full.contains((*it)->data(0, kSpecRole).toString())) (*it)->setSelected(true);
  // In the order given, not the tree's.
  if (!full.isEmpty())
    for (View* view : views_) view->showVariants(full);
  updateTitles();
  return true;
}

bool MainWindow::setView(const QString& name) {
  // A view's name, or its name, a dash and one of its modes ("explore-heads").
  const auto& entries = view_registry();
  for (int i = 0; i < static_cast<int>(entries.size()); ++i) {
    const QString own = QString::fromUtf8(entries[static_cast<size_t>(i)].name);
    View* view = views_[static_cast<size_t>(i)];
    if (name == own) {
      tabs_->setCurrentIndex(i);
      return true;
    }
    if (name.startsWith(own + QLatin1Char('-')) && view->showMode(name.mid(own.size() + 1))) {
      tabs_->setCurrentIndex(i);
      return true;
    }
  }
  return false;
}

View* MainWindow::currentView() const {
  const int i = tabs_->currentIndex();
  return i >= 0 ? views_[static_cast<size_t>(i)] : nullptr;
}

void MainWindow::addViewMenu() {
  QMenu* view = menuBar()->addMenu(tr("&View"));
  auto step = [this](int direction) {
    const auto& steps = zoomSteps();
    auto it = std::lower_bound(steps.begin(), steps.end(), zoom_);
    if (direction > 0 && it != steps.end() && *it == zoom_) ++it;
    if (direction < 0) it = it == steps.begin() ? it : it - 1;
    if (it != steps.end()) setZoom(*it);
  };
  QAction* in = view->addAction(tr("Zoom &in"), this, [step] { step(+1); });
  // Ctrl+= is where "+" is without Shift on most keyboards; Ctrl++ (the platform's) works too.
  in->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Equal), QKeySequence::ZoomIn});
  view->addAction(tr("Zoom &out"), QKeySequence::ZoomOut, this, [step] { step(-1); });
  view->addAction(tr("&Actual size"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                  [this] { setZoom(100); });
  view->addSeparator();
  QAction* present = view->addAction(tr("&Presentation mode"));
  present->setCheckable(true);
  present->setShortcut(Qt::Key_F5);
  connect(present, &QAction::toggled, this, &MainWindow::setPresentation);
  auto* leave = new QShortcut(Qt::Key_Escape, this);
  connect(leave, &QShortcut::activated, present, [present] { present->setChecked(false); });
  present_action_ = present;
}

const std::vector<int>& MainWindow::zoomSteps() {
  static const std::vector<int> steps{50, 67, 80, 90, 100, 110, 125, 150, 175, 200, 250, 300};
  return steps;
}

void MainWindow::setZoom(int percent) {
  const auto& steps = zoomSteps();
  zoom_ = std::clamp(percent, steps.front(), steps.back());
  applyFont();
  if (session_.remembers() && !presenting_) QSettings().setValue(kZoomKey, zoom_);
}

void MainWindow::applyFont() {
  const double factor = zoom_ / 100.0 * typeScale();
  QFont f = base_font_;
  if (f.pointSizeF() > 0)
    f.setPointSizeF(base_font_.pointSizeF() * factor);
  else
    f.setPixelSize(std::max(1, static_cast<int>(std::lround(base_font_.pixelSize() * factor))));
  // A chooser sized on first show keeps that width at any type: every one follows the type.
  for (auto* box : findChildren<QComboBox*>())
    if (box->sizeAdjustPolicy() == QComboBox::AdjustToContentsOnFirstShow)
      box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  setFont(f);  // every child without a font of its own follows; the plots draw with it
  if (present_bar_) updateTitles();  // the choosers' widths follow the type
}

void MainWindow::planForScreen(QSize screen) {
  screen_ = screen;
  applyFont();
}

QSize MainWindow::screenSize() const {
  if (screen_.isValid()) return screen_;
  const QScreen* s = screen() ? screen() : QGuiApplication::primaryScreen();
  return s ? s->geometry().size() : QSize(1920, 1080);
}

double MainWindow::typeScale() const {
  // Logical pixels past 1920 × 1080 are a larger screen of the same physical size (a 4K panel
  // or projector at scale 1): type keeps its physical size there. A screen with Qt's own
  // scaling (devicePixelRatio 2) is 1920 × 1080 logical already and keeps 1.
  const QSize s = screenSize();
  return std::max(1.0, std::min(s.width() / 1920.0, s.height() / 1080.0));
}

int MainWindow::presentationZoom() const {
  // The zoom at which the type is 24 px per 1080 lines of screen: the back of a room reads it.
  const double base_px = base_font_.pointSizeF() > 0
                             ? base_font_.pointSizeF() * logicalDpiY() / 72.0
                             : static_cast<double>(base_font_.pixelSize());
  const double wanted_px = kPresentationTypePx * screenSize().height() / 1080.0;
  const int needed = static_cast<int>(std::ceil(100 * wanted_px / (base_px * typeScale())));
  return std::max({zoom_, kPresentationZoom, needed});
}

void MainWindow::setPresentation(bool on) {
  if (on == presenting_) return;
  if (on) zoom_before_presenting_ = zoom_;
  presenting_ = on;
  if (present_action_) {
    const QSignalBlocker block(present_action_);
    present_action_->setChecked(on);
  }
  browser_->setVisible(!on);
  side_lesson_->setVisible(on);
  present_bar_->setVisible(on);
  // Full screen on a display. Offscreen there is no screen to fill: a screen planned for the
  // rendering (--size) stands for it.
  const bool offscreen = QGuiApplication::platformName() == QLatin1String("offscreen");
  if (!offscreen)
    on ? showFullScreen() : showNormal();
  else if (on && screen_.isValid())
    resize(screen_);
  if (on) {
    setZoom(presentationZoom());
    const int w = offscreen && screen_.isValid() ? screen_.width() : width();
    split_->setSizes({0, w * 2 / 3, w / 3});
  } else {
    setZoom(zoom_before_presenting_);
    if (!session_.remembers() ||
        !split_->restoreState(QSettings().value(kSplitterKey).toByteArray()))
      split_->setSizes({300, width() - 300, 0});
  }
}

void MainWindow::buildPresentationBar() {
  // What is on the projector, named, and the two choices a lesson switches between.
  present_bar_ = new QWidget;
  auto* row = new QHBoxLayout(present_bar_);
  present_title_ = new QLabel;
  QFont bold = present_title_->font();
  bold.setBold(true);
  present_title_->setFont(bold);
  present_title_->setWordWrap(true);  // four variants' names wrap rather than widen the window
  present_cases_ = new QComboBox;
  present_cases_->setToolTip(tr("The exercise's case"));
  present_variants_ = new QComboBox;
  for (QComboBox* box : {present_cases_, present_variants_})
    box->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  present_variants_->setToolTip(tr("The variant shown"));
  auto* leave = new QToolButton;
  leave->setText(tr("Leave (Esc)"));
  row->addWidget(present_title_, 1);
  row->addWidget(present_cases_);
  row->addWidget(present_variants_);
  row->addWidget(leave);
  present_bar_->hide();
  connect(leave, &QToolButton::clicked, this, [this] { setPresentation(false); });
  connect(present_cases_, &QComboBox::activated, this,
          [this] { selectCase(present_cases_->currentText()); });
  connect(present_variants_, &QComboBox::activated, this, [this] {
    const QString spec = present_variants_->currentData().toString();
    if (!spec.isEmpty()) selectVariants({spec});
  });
}

void MainWindow::updateTitles() {
  // The window's title and the presentation bar: variant, exercise and case.
  const QStringList specs = selectedSpecs();
  QStringList parts, shown;
  for (const QString& spec : specs) shown << spec.section(':', -1);  // the variant id
  if (!specs.isEmpty()) parts << shown.join(QStringLiteral(", "));
  if (auto* item = exercises_->currentItem()) parts << item->data(kSpecRole).toString();
  if (cases_->count() > 1) parts << tr("case %1").arg(cases_->currentText());
  present_title_->setText(parts.join(QStringLiteral(" · ")));
  setWindowTitle(parts.isEmpty()
                     ? tr("Attention Workbench")
                     : parts.join(QStringLiteral(" · ")) + tr(" — Attention Workbench"));
  {
    const QSignalBlocker block(present_cases_);
    present_cases_->clear();
    for (int i = 0; i < cases_->count(); ++i) present_cases_->addItem(cases_->itemText(i));
    present_cases_->setCurrentIndex(cases_->currentIndex());
    present_cases_->setVisible(cases_->count() > 1);
  }
  // A chooser as wide as its longest entry and a little more (the style's rounding at large
  // type cost a pixel).
  const auto fit = [](QComboBox* box) {
    box->setMinimumWidth(0);
    box->setMinimumWidth(box->sizeHint().width() + box->fontMetrics().averageCharWidth());
  };
  const QSignalBlocker block(present_variants_);
  present_variants_->clear();
  // A variant's id, or its full spec where two plugins share the id.
  QStringList ids;
  for (QTreeWidgetItemIterator it(plugins_); *it; ++it)
    if ((*it)->data(0, kSpecRole).isValid()) ids << (*it)->text(0);
  for (QTreeWidgetItemIterator it(plugins_); *it; ++it) {
    const QVariant spec = (*it)->data(0, kSpecRole);
    if (!spec.isValid()) continue;
    const QString id = (*it)->text(0);
    present_variants_->addItem(ids.count(id) > 1 ? spec.toString() : id, spec);
    if (!specs.isEmpty() && spec.toString() == specs.front())
      present_variants_->setCurrentIndex(present_variants_->count() - 1);
  }
  fit(present_cases_);
  fit(present_variants_);
}

void MainWindow::removePluginFolder() {
  const QStringList folders = session_.pluginFolders();
  if (folders.isEmpty()) {
    QMessageBox::information(this, tr("Remove plugin folder"),
                             tr("No plugin folder was added (the bundled plugins stay)."));
    return;
  }
  bool ok = false;
  const QString folder =
      QInputDialog::getItem(this, tr("Remove plugin folder"), tr("Folder"), folders, 0, false, &ok);
  if (ok) session_.removePluginFolder(folder);
}

void MainWindow::exportPng() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export PNG"), {}, "PNG (*.png)");
  if (!path.isEmpty() && !save_png(currentView(), path))
    QMessageBox::warning(this, tr("Export"), tr("Could not write %1").arg(path));
}

void MainWindow::exportSvg() {
  const QString path = QFileDialog::getSaveFileName(this, tr("Export SVG"), {}, "SVG (*.svg)");
  if (!path.isEmpty() && !save_svg(currentView(), path))
    QMessageBox::warning(this, tr("Export"), tr("Could not write %1").arg(path));
}

void MainWindow::exportCsv() {
  View* view = currentView();
  if (!view) return;
  if (question_pending_ && view->showsAnswers()) {
    QMessageBox::information(this, tr("Export"),
                             tr("The matrices hold the question's answer: answer it first."));
    return;
  }
  const QString text = view->csv();
  if (text.isEmpty()) {
    QMessageBox::information(this, tr("Export"), tr("This view has no matrices to export."));
    return;
  }
  const QString path = QFileDialog::getSaveFileName(this, tr("Export CSV"), {}, "CSV (*.csv)");
  if (!path.isEmpty() && !save_text(text, path))
    QMessageBox::warning(this, tr("Export"), tr("Could not write %1").arg(path));
}

void MainWindow::exportReport() {
  bool ok = false;
  QStringList formats;
  for (const auto& f : grade::report_formats())
    formats << QString::fromUtf8(f.name.data(), static_cast<qsizetype>(f.name.size()));
  const QString format =
      QInputDialog::getItem(this, tr("Report format"), tr("Format"), formats, 0, false, &ok);
  if (!ok) return;
  const QString path = QFileDialog::getSaveFileName(this, tr("Export report"));
  if (!path.isEmpty() && !save_text(grade()->reportText(format), path))
    QMessageBox::warning(this, tr("Export"), tr("Could not write %1").arg(path));
}

bool MainWindow::exportPage(const QString& path, QString* error) {
  auto fail = [error](const QString& why) {
    if (error) *error = why;
    return false;
  };
  const auto* item = exercises_->currentItem();
  const core::Exercise* ex = item ? session_.exercise(item->data(kSpecRole).toString()) : nullptr;
  if (!ex) return fail(tr("no exercise is open"));
  const QStringList specs = selectedSpecs();
  if (specs.isEmpty()) return fail(tr("no variant is selected"));
  try {
    const auto catalog = session_.catalog();
    std::vector<core::VariantRef> variants;
    for (const QString& spec : specs)
      variants.push_back(core::find_variant(*catalog, spec.toStdString()));
    const core::Page page = core::make_page(core::exercise_page_source(*ex), variants);
    core::write_file_atomic(path.toStdString(), page.html);
  } catch (const Error& e) {
    return fail(QString::fromStdString(e.what()));
  }
  return true;
}

void MainWindow::exportPageDialog() {
  // The page holds the questions' answers, and says so: it is for self-study.
  const QString path = QFileDialog::getSaveFileName(this, tr("Export interactive page"), {},
                                                    tr("Web page (*.html)"));
  if (path.isEmpty()) return;
  QApplication::setOverrideCursor(Qt::WaitCursor);
  QString error;
  const bool ok = exportPage(path, &error);
  QApplication::restoreOverrideCursor();
  if (!ok) QMessageBox::warning(this, tr("Export"), tr("Could not write %1: %2").arg(path, error));
}

}  // namespace awb::gui
