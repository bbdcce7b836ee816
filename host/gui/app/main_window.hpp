// main_window.hpp: the workbench window: plugin and exercise browsers beside the views of the
// registry (app/view_registry.hpp) as tabs, with export of the current view, a whole-window
// zoom and a presentation mode for teaching from a projector.
#ifndef AWB_GUI_MAIN_WINDOW_HPP_
#define AWB_GUI_MAIN_WINDOW_HPP_

#include <QComboBox>
#include <QLabel>
#include <QListWidget>
#include <QMainWindow>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <vector>

#include "gui/app/focus_ring.hpp"
#include "gui/session/session.hpp"
#include "gui/session/view.hpp"
#include "gui/views/bench/bench_view.hpp"
#include "gui/views/compare/compare_view.hpp"
#include "gui/views/explore/explore_view.hpp"
#include "gui/views/grade/grade_view.hpp"
#include "gui/views/train/train_view.hpp"

namespace awb::gui {

class MainWindow : public QMainWindow {
  Q_OBJECT
 public:
  explicit MainWindow(Session& session, QWidget* parent = nullptr);

  // Headless and test control. Variants are given as for the CLI ("qkv" or "plugin:variant");
  // each returns false with `error` set when the name is unknown.
  bool selectExercise(const QString& id, QString* error = nullptr);
  bool selectCase(const QString& id, QString* error = nullptr);
  bool selectVariants(const QStringList& specs, QString* error = nullptr);
  // A name of view_names() (app/view_registry.hpp): a view's tab, or a mode of it
  // (explore-heads); false for another name.
  bool setView(const QString& name);

  // Any view runs.
  bool busy() const;
  // The tabs' views, in the registry's order.
  const std::vector<View*>& views() const { return views_; }
  // The first view of the type V; null when no tab holds one.
  template <class V>
  V* view() const {
    for (View* v : views_)
      if (auto* found = qobject_cast<V*>(v)) return found;
    return nullptr;
  }
  ExploreView* explore() const { return view<ExploreView>(); }
  CompareView* compare() const { return view<CompareView>(); }
  GradeView* grade() const { return view<GradeView>(); }
  BenchView* bench() const { return view<BenchView>(); }
  TrainView* train() const { return view<TrainView>(); }
  // The view of the current tab (each sits in a scroll area of its own).
  View* currentView() const;
  QTreeWidget* pluginTree() const { return plugins_; }
  FocusRing* focusRing() const { return focus_ring_; }

  // Zoom of the whole window (fonts and plots), in percent of the system font; clamped to the
  // steps of zoomSteps(). Ctrl+= / Ctrl+- / Ctrl+0.
  void setZoom(int percent);
  int zoom() const { return zoom_; }
  static const std::vector<int>& zoomSteps();
  // The screen the window is laid out for, in logical pixels: type grows with a screen larger
  // than 1920 × 1080 (at 3840 × 2160 it is twice as many pixels, the same size on the same
  // panel), and presentation mode fills it. Empty (the default): the screen the window is on.
  void planForScreen(QSize screen);
  QSize screenSize() const;
  double typeScale() const;
  // Presentation (F5): full screen, the browsers hidden, the lesson beside the view, a bar naming
  // variant, exercise and case with choosers for case and variant, and type of at least 24 px
  // at 1920 × 1080 (and as large a share of any screen's height), never below 150 %.
  void setPresentation(bool on);
  bool presenting() const { return presenting_; }
  QWidget* browserPanel() const { return browser_; }
  QTextBrowser* presentationLesson() const { return side_lesson_; }
  QTextBrowser* lesson() const { return lesson_; }
  QWidget* presentationBar() const { return present_bar_; }
  QLabel* presentationTitle() const { return present_title_; }
  QComboBox* presentationCases() const { return present_cases_; }
  QComboBox* presentationVariants() const { return present_variants_; }
  QSplitter* splitter() const { return split_; }

  void exportPng();
  void exportSvg();
  void exportCsv();
  void exportReport();
  // The teaching page of the current exercise (every case) and the selected variants beside the
  // reference: core::make_page, what `awb page --exercise ID --variant ...` writes, byte for byte.
  // False with `error` set when there is no exercise or variant or the file cannot be written.
  bool exportPage(const QString& path, QString* error = nullptr);
  void exportPageDialog();

 private:
  void fillPlugins();
  void fillExercises();
  void exerciseChanged();
  void variantsChanged();
  QStringList selectedSpecs() const;
  void addViewMenu();
  void removePluginFolder();
  void applyFont();
  void showLesson();
  void questionPending(View* asker, bool pending);
  void showCase(View* mover, const QString& case_id);
  void updateTitles();
  void buildPresentationBar();
  int presentationZoom() const;

  Session& session_;
  QTreeWidget* plugins_;
  QListWidget* exercises_;
  QComboBox* cases_;
  QTextBrowser *lesson_, *side_lesson_;
  QWidget* browser_;
  QSplitter* split_;
  QFont base_font_;
  QSize screen_;
  int zoom_ = 100, zoom_before_presenting_ = 100;
  bool presenting_ = false;
  bool question_pending_ = false;
  QAction* present_action_ = nullptr;
  QWidget* present_bar_ = nullptr;
  QLabel* present_title_;
  QComboBox *present_cases_, *present_variants_;
  QTabWidget* tabs_;
  FocusRing* focus_ring_ = nullptr;
  std::vector<View*> views_;  // view_registry()'s, in its order
};

}  // namespace awb::gui

#endif  // AWB_GUI_MAIN_WINDOW_HPP_
