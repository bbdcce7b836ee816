// train_view.hpp: `awb train` in the window: Start, Pause and Step over the core's training loop
// (core::Trainer) off the GUI thread at a chosen speed, the loss curve drawn live, the targets'
// attention as it learns, the success criteria as the core judges them, and the learned weights
// saved as YAML.
#ifndef AWB_GUI_TRAIN_VIEW_HPP_
#define AWB_GUI_TRAIN_VIEW_HPP_

#include <QComboBox>
#include <QFutureWatcher>
#include <QLabel>
#include <QPushButton>
#include <QTableWidget>
#include <QTimer>
#include <QWidget>
#include <array>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

#include "core/training/training.hpp"
#include "gui/charts/heatmap_widget.hpp"
#include "gui/charts/loss_chart.hpp"
#include "gui/session/session.hpp"
#include "gui/session/view.hpp"

namespace awb::gui {

// What the training job reports after each step, on the GUI thread.
struct TrainProgress {
  int step = 0;     // the step whose loss this is (the weights after `step` updates)
  double loss = 0;  // that loss
  int taken = 0;    // steps taken once this step's update is applied
  // The criteria judged after `taken` steps: every log_every-th step (every hundredth of the
  // budget when that is longer), and when the job ends (the budget spent, or a paced or Step's
  // step done, so a watched run shows every step); a Pause skips it so the job ends at once.
  std::optional<core::TrainOutcome> outcome;
  QString error;  // the job stopped on this (a plugin fault, a diverged loss)
};

class TrainView : public View {
  Q_OBJECT
 public:
  static constexpr int kStepSteps = 1;    // what one Step runs before it pauses
  static constexpr int kMaxHeatmaps = 4;  // targets shown; the rest are named in a note
  // The speeds offered, in steps per second; 0 is as fast as the machine goes.
  static constexpr std::array<int, 6> kSpeeds = {1, 2, 5, 10, 25, 0};
  static constexpr int kDefaultSpeed = 5;  // slow enough to watch each step on a projector

  explicit TrainView(Session& session, QWidget* parent = nullptr);
  ~TrainView() override;

  void setVariant(const QString& spec);
  void setExercise(const core::Exercise* exercise);

  // Trains to the end of the step budget from where it paused (afresh once the budget is
  // spent), at stepsPerSecond(): the first step at once, then one per tick of pacer(). Ignored
  // while it runs or when the controls are disabled.
  void start();
  // Runs kStepSteps steps (fewer when the budget ends first) and pauses. Ignored while a run
  // plays or a step runs.
  void step();
  // Pauses: no step after the one running (if any), whose subject (for an untrusted plugin,
  // its runner) goes with it. Training resumes from here on Start or Step.
  void stop();
  // The pace of Start: one of kSpeeds (another value is ignored). Takes effect at once, also
  // in a run that plays.
  void setStepsPerSecond(int steps_per_second);
  int stepsPerSecond() const { return steps_per_second_; }
  // One paced step: starts the next step of a playing run unless one still runs (that tick
  // passes, so the pace never exceeds the speed). pacer() calls it; a test that holds the
  // clock stops pacer() and calls it by hand.
  void tick();
  // Forgets the progress: the next Start begins at step 0 with the initial weights.
  void reset();
  // Writes what `awb train --out` writes for the current weights; false (with `error`) when
  // there are none yet or the file cannot be written.
  bool saveWeights(const QString& path, QString* error = nullptr);

  // A run plays (also between its paced steps) or a step runs.
  bool busy() const override { return playing_ || stepping(); }
  bool playing() const { return playing_; }
  // As a tab (View): the first variant; a screenshot shows a run trained to the end, as fast
  // as possible (the bundled exercises train in well under a second).
  void showExercise(const core::Exercise* exercise, const QString& /*case_id*/) override {
    setExercise(exercise);
  }
  void showVariants(const QStringList& specs) override { setVariant(specs.front()); }
  void finishForScreenshot() override {
    setStepsPerSecond(0);
    start();
  }
  bool stepping() const { return watcher_ != nullptr; }  // a job runs steps now
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
  QComboBox* speedBox() const { return speed_; }
  QTimer* pacer() const { return pacer_; }
  QLabel* noteLabel() const { return note_; }
  QLabel* statusLabel() const { return status_; }
  LossChart* lossChart() const { return chart_; }
  QTableWidget* criteriaTable() const { return criteria_; }
  const std::vector<HeatmapWidget*>& targetHeatmaps() const { return heatmaps_; }

 signals:
  void progressed();  // a step's report was shown
  void finished();    // a job ended (a paced step, done, paused after Step, paused, or failed)

 private:
  void run(int max_steps);
  void addProgress(int begin, int end);
  void jobEnded();
  void rebuildTargets();
  void showOutcome();
  void updateControls();
  void dropJob();
  void endPlay();

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
  bool playing_ = false;  // Start was pressed and the run has not paused or ended
  int steps_per_second_ = kDefaultSpeed;
  int job_steps_ = 0;  // the running job's most steps: 1 for a paced step
  QTimer* pacer_;
  // The targets drawn, by index: those that pull a row onto a key (an avoided key reads the
  // same matrix as those), the first kMaxHeatmaps.
  std::vector<size_t> drawn_;

  QPushButton *start_, *stop_, *step_, *reset_, *save_;
  QComboBox* speed_;
  QLabel *note_, *status_, *targets_note_;
  LossChart* chart_;
  QTableWidget* criteria_;
  QWidget *results_, *heatmap_panel_;
  std::vector<HeatmapWidget*> heatmaps_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_TRAIN_VIEW_HPP_
