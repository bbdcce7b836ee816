// compare_view.hpp: two or more variants on one exercise: their heatmaps beside the reference's
// (one colour range across them all), each one's difference from the reference (one range
// across the differences), and the metrics table of `awb compare`, every row of it shown.
#ifndef AWB_GUI_COMPARE_VIEW_HPP_
#define AWB_GUI_COMPARE_VIEW_HPP_

#include <QComboBox>
#include <QGridLayout>
#include <QLabel>
#include <QTableWidget>
#include <QWidget>

#include "gui/heatmap_widget.hpp"
#include "gui/latest_run.hpp"
#include "gui/session.hpp"

namespace awb::gui {

class CompareView : public QWidget {
  Q_OBJECT
 public:
  explicit CompareView(Session& session, QWidget* parent = nullptr);

  void setVariants(const QStringList& specs);
  void setExercise(const core::Exercise* exercise, const QString& case_id = {});
  void setHead(int head);
  // The colour range of the weight maps (the difference maps keep their shared one).
  void setColorRange(ColorRange choice);

  bool busy() const { return runs_.busy(); }
  const core::Comparison& comparison() const { return comparison_; }
  QString csv() const;
  QTableWidget* metricsTable() const { return table_; }
  // Heatmap 0 is the reference's; then one per variant. Diff i belongs to variant i.
  HeatmapWidget* heatmap(int i) const { return i < maps_.size() ? maps_[i] : nullptr; }
  HeatmapWidget* diffHeatmap(int i) const { return i < diffs_.size() ? diffs_[i] : nullptr; }

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
  core::Comparison comparison_;
  LatestRun runs_;
  int head_ = 0;

  QComboBox *head_box_, *range_box_;
  QLabel* status_;
  QGridLayout* grid_;
  QList<HeatmapWidget*> maps_, diffs_;
  QTableWidget* table_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_COMPARE_VIEW_HPP_
