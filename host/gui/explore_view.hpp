// explore_view.hpp: the lesson's widget for any variant: tokens as chips, one query's scores,
// weights and context colour, a live sharpness slider, the T × T heatmap, head and layer.
#ifndef AWB_GUI_EXPLORE_VIEW_HPP_
#define AWB_GUI_EXPLORE_VIEW_HPP_

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QWidget>

#include "gui/bar_chart.hpp"
#include "gui/context_swatch.hpp"
#include "gui/heatmap_widget.hpp"
#include "gui/latest_run.hpp"
#include "gui/session.hpp"

namespace awb::gui {

class ExploreView : public QWidget {
  Q_OBJECT
 public:
  explicit ExploreView(Session& session, QWidget* parent = nullptr);

  void setVariant(const QString& spec);
  void setExercise(const core::Exercise* exercise, const QString& case_id = {});
  void setQuery(int query);
  void setHead(int head);
  void setLayer(int layer);
  void setSharpness(double sharpness);  // moves the slider (log scale)
  void setHeatmapVisible(bool on);

  bool busy() const { return runs_.busy(); }
  int query() const { return query_; }
  double sharpness() const;
  const RunOutput& output() const { return run_.output; }
  // The matrices shown, as CSV (A, S and Z of the shown layer and head).
  QString csv() const;

  BarChart* scoresChart() const { return scores_; }
  BarChart* weightsChart() const { return weights_; }
  HeatmapWidget* heatmap() const { return heatmap_; }
  QLabel* sumLabel() const { return sum_; }
  QSlider* slider() const { return slider_; }
  QComboBox* headSelector() const { return head_box_; }
  ContextSwatch* contextSwatch() const { return context_; }
  QWidget* chip(int i) const;
  // Shown while a run is in flight: stops it (a hanging plugin's runner ends within 100 ms).
  QPushButton* cancelButton() const { return cancel_; }

 signals:
  void updated();  // a run finished and the view shows it (or its error)

 protected:
  void showEvent(QShowEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void rerun();
  void showRun();
  void showQuery();
  void rebuildChips();

  Session& session_;
  QString spec_;
  const core::Exercise* exercise_ = nullptr;
  QString case_id_;
  VariantRun run_;
  RunInput shown_input_;
  LatestRun runs_;
  bool stale_ = false;                     // a change came while hidden: run when shown
  int query_ = 0, head_ = 0, layer_ = -1;  // layer -1: the last

  QHBoxLayout* chips_layout_;
  QButtonGroup* chips_;
  QComboBox *layer_box_, *head_box_;
  QSlider* slider_;
  QLabel *sharpness_label_, *status_, *sum_;
  QCheckBox* heatmap_toggle_;
  QPushButton* cancel_;
  BarChart *scores_, *weights_;
  ContextSwatch* context_;
  HeatmapWidget* heatmap_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_EXPLORE_VIEW_HPP_
