// explore_view.hpp: the lesson's widget for any variant: tokens as chips, one query's scores,
// weights and context colour, a live sharpness slider, the T × T heatmap, head and layer; every
// head of a layer at once, or one query through every layer; and the exercise's questions,
// answered before the weights show.
#ifndef AWB_GUI_EXPLORE_VIEW_HPP_
#define AWB_GUI_EXPLORE_VIEW_HPP_

#include <QButtonGroup>
#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QSlider>
#include <QStackedWidget>
#include <QWidget>
#include <optional>

#include "gui/charts/bar_chart.hpp"
#include "gui/charts/context_swatch.hpp"
#include "gui/charts/flow_layout.hpp"
#include "gui/charts/heatmap_widget.hpp"
#include "gui/session/latest_run.hpp"
#include "gui/session/session.hpp"
#include "gui/session/view.hpp"
#include "gui/views/explore/heads_grid.hpp"
#include "gui/views/explore/layer_view.hpp"
#include "gui/views/explore/param_editor.hpp"
#include "gui/views/explore/question_panel.hpp"

namespace awb::gui {

class ExploreView : public View {
  Q_OBJECT
 public:
  // What the body shows: one head's bars and heatmap, every head's heatmap, or one query
  // through every layer.
  enum class Mode { kOneHead, kAllHeads, kLayers };

  explicit ExploreView(Session& session, QWidget* parent = nullptr);

  void setVariant(const QString& spec);
  void setExercise(const core::Exercise* exercise, const QString& case_id = {});
  void setQuery(int query);
  void setHead(int head);
  void setLayer(int layer);
  void setSharpness(double sharpness);  // moves the slider (log scale)
  void setHeatmapVisible(bool on);
  void setMode(Mode mode);
  // The width the view is shown in (its scroll area's): the bars stand beside the heatmap when
  // both fit at their least, else above it.
  void fitWidth(int width) override;
  bool barsBesideHeatmap() const { return body_box_->direction() == QBoxLayout::LeftToRight; }

  // Predict, then reveal. Asking hides the weights until answerQuestion(); a token question is
  // also answered by clicking a chip, a head question by a head button of the panel.
  bool askQuestion(const QString& id);
  void askQuestion(int index);
  void answerQuestion(int pick);
  void closeQuestion();
  bool weightsHidden() const;
  // The verdict on the last answer, once the reference's answer is known.
  const std::optional<core::Verdict>& verdict() const { return verdict_; }

  bool busy() const override { return runs_.busy() || truth_pending_; }
  int query() const { return query_; }
  int head() const { return head_; }
  int shownLayer() const;
  Mode mode() const { return mode_; }
  double sharpness() const;
  const RunOutput& output() const { return run_.output; }
  // The matrices shown, as CSV (A, S and Z of the shown layer and head).
  QString csv() const override;

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
  QuestionPanel* questionPanel() const { return panel_; }
  ParamEditor* paramEditor() const { return params_; }
  HeadsGrid* headsGrid() const { return grid_; }
  LayerView* layerView() const { return layers_view_; }

  // As a tab (View): the first variant; the modes "heads" and "layers"; its weights answer
  // the questions it asks itself, so it is never withheld.
  void showExercise(const core::Exercise* exercise, const QString& case_id) override {
    setExercise(exercise, case_id);
  }
  void showCase(const core::Exercise* exercise, const QString& case_id) override {
    setExercise(exercise, case_id);
  }
  void showVariants(const QStringList& specs) override { setVariant(specs.front()); }
  bool showMode(const QString& mode) override;
  bool showsAnswers() const override { return true; }

 signals:
  void updated();  // a run finished and the view shows it (or its error)

 protected:
  void showEvent(QShowEvent* event) override;
  void changeEvent(QEvent* event) override;
  bool eventFilter(QObject* watched, QEvent* event) override;

 private:
  void rerun();
  void showRun();
  void showQuery();
  void rebuildChips();
  void refreshParams();  // the editors for the variant's parameters, from the exercise's values
  void chipClicked(int id);
  void judgeIfReady();
  void showBody();
  bool asking() const { return question_ >= 0 && !verdict_; }
  bool pending_ = false;  // as last signalled

  Session& session_;
  QString spec_;
  const core::Exercise* exercise_ = nullptr;
  QString case_id_;
  VariantRun run_;
  RunInput shown_input_;
  LatestRun runs_;
  int query_ = 0, head_ = 0, layer_ = -1;  // layer -1: the last
  Mode mode_ = Mode::kOneHead;

  // The question asked (-1: none), the reference's answer once its job is back, the pick
  // waiting for it, and the verdict. Unanswered, the body shows only a placeholder.
  int question_ = -1;
  int asked_ = 0;  // counts askings, so the answer of an earlier one is dropped
  bool truth_pending_ = false;
  std::optional<core::QuestionTruth> truth_;
  std::optional<int> pick_;
  std::optional<core::Verdict> verdict_;

  ParamEditor* params_;
  FlowLayout* chips_layout_;
  QBoxLayout* body_box_;
  int fit_width_ = 0;
  QButtonGroup* chips_;
  QComboBox *layer_box_, *head_box_;
  QSlider* slider_;
  QLabel *sharpness_label_, *status_, *sum_;
  QCheckBox* heatmap_toggle_;
  QPushButton* cancel_;
  QButtonGroup* modes_;
  QStackedWidget* body_;
  QWidget *one_head_, *hidden_;
  BarChart *scores_, *weights_;
  ContextSwatch* context_;
  HeatmapWidget* heatmap_;
  HeadsGrid* grid_;
  LayerView* layers_view_;
  QuestionPanel* panel_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_EXPLORE_VIEW_HPP_
