// main_window.hpp: the workbench window: plugin and exercise browsers beside the explore,
// compare, grade and bench views (as tabs), with export of the current view.
#ifndef AWB_GUI_MAIN_WINDOW_HPP_
#define AWB_GUI_MAIN_WINDOW_HPP_

#include <QComboBox>
#include <QListWidget>
#include <QMainWindow>
#include <QTabWidget>
#include <QTextBrowser>
#include <QTreeWidget>

#include "gui/bench_view.hpp"
#include "gui/compare_view.hpp"
#include "gui/explore_view.hpp"
#include "gui/grade_view.hpp"
#include "gui/session.hpp"

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
  // explore | compare | grade | bench, or explore-heads | explore-layers (explore's modes)
  bool setView(const QString& name);

  bool busy() const {
    return explore_->busy() || compare_->busy() || grade_->busy() || bench_->busy();
  }
  ExploreView* explore() const { return explore_; }
  CompareView* compare() const { return compare_; }
  GradeView* grade() const { return grade_; }
  BenchView* bench() const { return bench_; }
  QWidget* currentView() const { return tabs_->currentWidget(); }
  QTreeWidget* pluginTree() const { return plugins_; }

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

  Session& session_;
  QTreeWidget* plugins_;
  QListWidget* exercises_;
  QComboBox* cases_;
  QTextBrowser* lesson_;
  QTabWidget* tabs_;
  ExploreView* explore_;
  CompareView* compare_;
  GradeView* grade_;
  BenchView* bench_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_MAIN_WINDOW_HPP_
