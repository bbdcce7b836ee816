// train_view.hpp: `awb train` in the window: Start, Stop and Step over the core's training loop
// (core::Trainer) off the GUI thread, the loss curve drawn live, the targets' attention as it
// learns, the success criteria as the core judges them, and the learned weights saved as YAML.
#ifndef AWB_GUI_TRAIN_VIEW_HPP_
#define AWB_GUI_TRAIN_VIEW_HPP_

#include <QFutureWatcher>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QWidget>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/training/training.hpp"
#include "gui/heatmap_widget.hpp"
#include "gui/loss_chart.hpp"
#include "gui/session.hpp"

namespace awb::gui {

// What the training job reports after each step, on the GUI thread.
struct TrainProgress {
  int step = 0;     // the step whose loss this is (the weights after `step` updates)
  double loss = 0;  // that loss
  int taken = 0;    // steps taken once this step's update is applied
  // The criteria judged after `taken` steps: every log_every-th step (every hundredth of the
  // budget when that is longer), and when the job ends (the budget spent, or Step's steps
  // done); a Stop skips it so the job ends at once.
  std::optional<core::TrainOutcome> outcome;
  QString error;  // the job stopped on this (a plugin fault, a diverged loss)
};

class TrainView : public QWidget {
  Q_OBJECT
 public:
  static constexpr int kStepSteps = 1;    // what one Step runs before it pauses
  static constexpr int kMaxHeatmaps = 4;  // targets shown; the rest are named in a note

  explicit TrainView(Session& session, QWidget* parent = nullptr);
  ~TrainView() override;

  void setVariant(const QString& spec);
  void setExercise(const core::Exercise* exercise);

  // Trains to the end of the step budget from where it paused (afresh once the budget is
  // spent). Ignored while a job runs or when the controls are disabled.
  void start();
  // Runs kStepSteps steps (fewer when the budget ends first) and pauses.
  void step();
  // Ends the running job after the step it is in; its subject (for an untrusted plugin, its
  // runner) goes with it. Training resumes from here on Start or Step.
  void stop();
  // Forgets the progress: the next Start begins at step 0 with the initial weights.
  void reset();
  // Writes what `awb train --out` writes for the current weights; false (with `error`) when
  // there are none yet or the file cannot be written.
  bool saveWeights(const QString& path, QString* error = nullptr);

  bool busy() const { return watcher_ != nullptr; }
  // Why this exercise and variant cannot train (shown above the disabled controls); empty
  // when they can.
  QString whyNot() const { return why_not_; }
  int stepsTaken() const { return taken_; }
  const std::vector<QPointF>& losses() const { return losses_; }
  // The criteria as last judged, after judgedAt() steps.
  const std::optional<core::TrainOutcome>& outcome() const { return outcome_; }
  int judgedAt() const { return judged_at_; }

  QPushButton* startButton() const { return start_; }
  QPushButton* stopButton() const { return stop_; }
  QPushButton* stepButton() const { return step_; }
  QPushButton* saveButton() const { return save_; }
  QLabel* noteLabel() const { return note_; }
  QLabel* statusLabel() const { return status_; }
  LossChart* lossChart() const { return chart_; }
  QTableWidget* criteriaTable() const { return criteria_; }
  const std::vector<HeatmapWidget*>& targetHeatmaps() const { return heatmaps_; }

 signals:
  void progressed();  // a step's report was shown
  void finished();    // a job ended (done, paused after Step, stopped, or failed)

 private:
  void run(int max_steps);
  void addProgress(int begin, int end);
  void jobEnded();
  void rebuildTargets();
  void showOutcome();
  void updateControls();
  void dropJob();

  Session& session_;
  QString spec_;
  const core::Exercise* exercise_ = nullptr;
  QString why_not_;
  // The loop's state between jobs; a running job holds it and the view does not touch it.
  std::shared_ptr<core::Trainer> trainer_;
  int taken_ = 0, judged_at_ = -1;
  std::vector<QPointF> losses_;
  std::optional<core::TrainOutcome> outcome_;
  QString error_;
  QFutureWatcher<TrainProgress>* watcher_ = nullptr;
  std::shared_ptr<std::atomic<bool>> stop_flag_;

  QPushButton *start_, *stop_, *step_, *reset_, *save_;
  QLabel *note_, *status_, *targets_note_;
  LossChart* chart_;
  QTableWidget* criteria_;
  QWidget *results_, *heatmap_panel_;
  std::vector<HeatmapWidget*> heatmaps_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_TRAIN_VIEW_HPP_
