// main_window.hpp: the workbench window: plugin and exercise browsers beside the explore,
// compare, grade, bench and train views (as tabs), with export of the current view, a
// whole-window zoom and a presentation mode for teaching from a projector.
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

#include "gui/bench_view.hpp"
#include "gui/compare_view.hpp"
#include "gui/explore_view.hpp"
#include "gui/focus_ring.hpp"
#include "gui/grade_view.hpp"
#include "gui/session.hpp"
#include "gui/train_view.hpp"

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
  // explore | compare | grade | bench | train, or explore-heads | explore-layers (explore's
  // modes)
  bool setView(const QString& name);

  bool busy() const {
    return explore_->busy() || compare_->busy() || grade_->busy() || bench_->busy() ||
           train_->busy();
  }
  ExploreView* explore() const { return explore_; }
  CompareView* compare() const { return compare_; }
  GradeView* grade() const { return grade_; }
  BenchView* bench() const { return bench_; }
  TrainView* train() const { return train_; }
  // The view of the current tab (each sits in a scroll area of its own).
  QWidget* currentView() const;
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
  void questionPending(bool pending);
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
  // The tabs in order, with the names setView and --view take.
  struct Tab {
    const char* name;
    QWidget* view;
  };
  std::vector<Tab> views_;
  ExploreView* explore_;
  CompareView* compare_;
  GradeView* grade_;
  BenchView* bench_;
  TrainView* train_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_MAIN_WINDOW_HPP_
