// compare_view.hpp: two or more variants on one exercise: their heatmaps beside the reference's
// (one colour range across them all), each one's difference from the reference (one range
// across the differences, those within the f64 tolerance drawn as 0), masked and out-of-window
// cells hatched as each variant computes them, and the metrics table of `awb compare`, every row of
// it shown.
#ifndef AWB_GUI_COMPARE_VIEW_HPP_
#define AWB_GUI_COMPARE_VIEW_HPP_

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QTableWidget>
#include <QWidget>

#include "gui/charts/heatmap_widget.hpp"
#include "gui/session/latest_run.hpp"
#include "gui/session/session.hpp"
#include "gui/session/view.hpp"

namespace awb::gui {

// |A − B| cell by cell, a difference at or below the f64 tolerance of the checks (rounding
// noise) as exactly 0; an empty matrix when the shapes differ.
Matrix floored_difference(const Matrix& a, const Matrix& b);

class CompareView : public View {
  Q_OBJECT
 public:
  explicit CompareView(Session& session, QWidget* parent = nullptr);

  void setVariants(const QStringList& specs);
  void setExercise(const core::Exercise* exercise, const QString& case_id = {});
  void setHead(int head);
  // While a question waits in Explore: no map, no number, a line saying why (the comparison is
  // kept and shown again when released).
  void setWithheld(bool on);
  bool withheld() const { return withheld_; }
  // Parameter values set over the exercise's (the explore view's editors: `feature_map=relu`);
  // each variant takes those it declares, and is checked against its own reference with them.
  void setParams(const ParamValues& values);
  const ParamValues& params() const { return params_; }
  // The colour range of the weight maps (the difference maps keep their shared one).
  void setColorRange(ColorRange choice);

  bool busy() const override { return runs_.busy(); }
  const core::Comparison& comparison() const { return comparison_; }
  QString csv() const override;
  QTableWidget* metricsTable() const { return table_; }
  // Heatmap 0 is the reference's; then one per variant. Diff i belongs to variant i.
  HeatmapWidget* heatmap(int i) const { return i < maps_.size() ? maps_[i] : nullptr; }
  HeatmapWidget* diffHeatmap(int i) const { return i < diffs_.size() ? diffs_[i] : nullptr; }

  // As a tab (View): every variant, the case and parameters of Explore; withheld while a
  // question waits.
  void showExercise(const core::Exercise* exercise, const QString& case_id) override {
    setExercise(exercise, case_id);
  }
  void showCase(const core::Exercise* exercise, const QString& case_id) override {
    setExercise(exercise, case_id);
  }
  void showVariants(const QStringList& specs) override { setVariants(specs); }
  void showParams(const ParamValues& values) override { setParams(values); }
  void withhold(bool on) override { setWithheld(on); }
  bool showsAnswers() const override { return true; }

 signals:
  void updated();

 protected:
  void showEvent(QShowEvent* event) override;
  void resizeEvent(QResizeEvent* e) override;
  void changeEvent(QEvent* e) override;

 private:
  void rerun();
  void showComparison();
  void fitTable();

  Session& session_;
  QStringList specs_;
  const core::Exercise* exercise_ = nullptr;
  QString case_id_;
  RunInput input_;
  ParamValues params_;
  core::Comparison comparison_;
  CellMask reference_mask_;
  std::vector<CellMask> masks_;  // one per entry
  LatestRun runs_;
  int head_ = 0;

  QComboBox *head_box_, *range_box_;
  QLabel* status_;
  QGridLayout* grid_;
  QList<HeatmapWidget*> maps_, diffs_;
  QTableWidget* table_;
  bool withheld_ = false;
};

}  // namespace awb::gui

#endif  // AWB_GUI_COMPARE_VIEW_HPP_
