// train_view.cpp: the job drives core::Trainer (the loop `awb train` runs) a step at a time on
// the job pool and reports each step through a future watcher; the view draws what arrives. A
// paced run is a one-step job per tick of a timer; a run as fast as possible is one job.
#include "gui/views/train/train_view.hpp"

#include <QFileDialog>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QMessageBox>
#include <QSignalBlocker>
#include <QVBoxLayout>
#include <QtConcurrent/QtConcurrentRun>
#include <algorithm>
#include <climits>

#include "core/base/atomic_file.hpp"
#include "core/grading/subject_factory.hpp"
#include "gui/charts/flow_layout.hpp"
#include "gui/views/grade/grade_view.hpp"

namespace awb::gui {
namespace {

// Runs up to `max_steps` steps of `trainer` on a subject of its own, so that an untrusted
// plugin's runner lives exactly as long as the job. Checks `stop` between steps.
void train_job(QPromise<TrainProgress>& promise, const CatalogPtr& catalog, const std::string& spec,
               std::shared_ptr<core::Trainer> trainer, int max_steps,
               std::shared_ptr<std::atomic<bool>> stop) {
  try {
    const std::unique_ptr<Subject> subject = core::make_subject(core::find_variant(*catalog, spec));
    // Every log_every-th step, but a hundred times a run at most: each judgment is kept in the
    // future's results until the job ends, and a long budget would fill memory with them.
    const core::TrainSpec& spec = *trainer->exercise().train;
    const int judge_every = std::max(spec.log_every, spec.steps / 100);
    for (int n = 0; n < max_steps && !trainer->done() && !stop->load(); ++n) {
      TrainProgress p;
      p.step = trainer->step();
      p.loss = trainer->advance(*subject);
      p.taken = trainer->step();
      const bool last = trainer->done() || n + 1 == max_steps;
      if ((last || p.taken % judge_every == 0) && !stop->load())
        p.outcome = trainer->outcome(*subject);
      promise.addResult(std::move(p));
    }
  } catch (const std::exception& e) {
    TrainProgress p;
    p.taken = trainer->step();
    p.error = QString::fromUtf8(e.what());
    promise.addResult(std::move(p));
  }
}

QTableWidgetItem* cell(const QString& text, std::optional<grade::Status> status = {}) {
  auto* item = new QTableWidgetItem(text);
  if (status) item->setForeground(GradeView::statusColor(*status));
  return item;
}

}  // namespace

// Long for a reason: the widget tree, built top to bottom in the order it is shown, with its
// connections beside each widget.
TrainView::TrainView(Session& session, QWidget* parent) : View(parent), session_(session) {
  start_ = new QPushButton(tr("&Start"));
  start_->setToolTip(tr("Train to the end of the exercise's step budget at the chosen speed"));
  stop_ = new QPushButton(tr("P&ause"));
  stop_->setToolTip(tr("Pause after the current step; Resume or Step goes on from there"));
  step_ = new QPushButton(tr("Ste&p"));
  step_->setToolTip(tr("Run %n step(s), then pause", nullptr, kStepSteps));
  reset_ = new QPushButton(tr("&Reset"));
  reset_->setToolTip(tr("Back to step 0 and the initial weights"));
  save_ = new QPushButton(tr("Save learned weights…"));
  save_->setToolTip(tr("The current weights as a layers: section, as awb train --out writes"));
  speed_ = new QComboBox;
  for (int sps : kSpeeds)
    speed_->addItem(
        sps == 0 ? tr("as fast as possible") : tr("%n step(s) per second", nullptr, sps), sps);
  speed_->setCurrentIndex(speed_->findData(kDefaultSpeed));
  speed_->setToolTip(tr("How fast Start trains: slow enough to watch each step, or at once"));
  auto* speed_label = new QLabel(tr("Spee&d:"));
  speed_label->setBuddy(speed_);
  pacer_ = new QTimer(this);
  note_ = new QLabel;
  note_->setWordWrap(true);
  status_ = new QLabel;
  status_->setWordWrap(true);
  chart_ = new LossChart;
  chart_->setTitle(tr("loss: the mean of −log A[query, key] over the targets"));
  criteria_ = new QTableWidget(0, 3);
  criteria_->setHorizontalHeaderLabels({tr("success criterion"), tr("status"), tr("detail")});
  criteria_->horizontalHeader()->setStretchLastSection(true);
  criteria_->verticalHeader()->hide();
  criteria_->setWordWrap(true);
  criteria_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  heatmap_panel_ = new QWidget;
  new QGridLayout(heatmap_panel_);
  targets_note_ = new QLabel;

  // The buttons wrap onto a second line where a zoomed window runs out of width.
  auto* buttons = new FlowLayout;
  for (QPushButton* b : {start_, stop_, step_}) buttons->addWidget(b);
  auto* speed_group = new QWidget;
  auto* speed_row = new QHBoxLayout(speed_group);
  speed_row->setContentsMargins(0, 0, 0, 0);
  speed_row->addWidget(speed_label);
  speed_row->addWidget(speed_);
  buttons->addWidget(speed_group);
  for (QPushButton* b : {reset_, save_}) buttons->addWidget(b);
  results_ = new QWidget;
  // The criteria under the loss: their ids and details need the view's whole width.
  auto* middle = new QVBoxLayout(results_);
  middle->setContentsMargins(0, 0, 0, 0);
  middle->addWidget(chart_, 3);
  middle->addWidget(criteria_, 2);
  for (int c : {0, 1})
    criteria_->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(buttons);
  layout->addWidget(note_);
  layout->addWidget(status_);
  layout->addWidget(results_, 1);
  layout->addWidget(heatmap_panel_, 1);
  layout->addWidget(targets_note_);
  layout->addStretch(0);  // takes the room only while the results are hidden: the note stays up

  connect(start_, &QPushButton::clicked, this, &TrainView::start);
  connect(stop_, &QPushButton::clicked, this, &TrainView::stop);
  connect(step_, &QPushButton::clicked, this, &TrainView::step);
  connect(reset_, &QPushButton::clicked, this, &TrainView::reset);
  connect(speed_, &QComboBox::currentIndexChanged, this,
          [this](int i) { setStepsPerSecond(speed_->itemData(i).toInt()); });
  connect(pacer_, &QTimer::timeout, this, &TrainView::tick);
  connect(save_, &QPushButton::clicked, this, [this] {
    const QString name = exercise_ ? QString::fromStdString(exercise_->id) + "-learned.yaml" : "";
    const QString path =
        QFileDialog::getSaveFileName(this, tr("Save learned weights"), name, "YAML (*.yaml *.yml)");
    QString error;
    if (!path.isEmpty() && !saveWeights(path, &error))
      QMessageBox::warning(this, tr("Save learned weights"), error);
  });
  results_->hide();  // until an exercise with a train: section is chosen
  heatmap_panel_->hide();
  reset();
}

TrainView::~TrainView() {
  // The job holds its own trainer, catalog and subject; it only needs telling to stop.
  if (stop_flag_) stop_flag_->store(true);
}

void TrainView::setVariant(const QString& spec) {
  if (spec == spec_) {  // the same variant, perhaps rebuilt: keep the progress
    updateControls();
    return;
  }
  spec_ = spec;
  reset();
}

void TrainView::setExercise(const core::Exercise* exercise) {
  if (exercise == exercise_) return;
  exercise_ = exercise;
  const bool trains = exercise_ && exercise_->train;
  results_->setVisible(trains);  // nothing to chart or judge: the note says why
  chart_->setStepRange(trains ? exercise_->train->steps : 1);
  chart_->setThreshold(trains ? exercise_->train->loss_below : std::nullopt);
  const bool avoids =
      trains && std::any_of(exercise_->train->targets.begin(), exercise_->train->targets.end(),
                            [](const core::TrainTarget& t) { return t.avoid; });
  chart_->setTitle(avoids ? tr("loss: the mean of −log A[query, key] over the targets "
                               "(−log(1 − A) for a key to avoid)")
                          : tr("loss: the mean of −log A[query, key] over the targets"));
  rebuildTargets();  // first: reset() shows the outcome on the new exercise's maps
  reset();
}

void TrainView::start() {
  if (!why_not_.isEmpty() || busy()) return;
  if (trainer_ && trainer_->done()) reset();
  playing_ = true;
  if (steps_per_second_ == 0) {
    run(INT_MAX);
    return;
  }
  pacer_->start(1000 / steps_per_second_);
  run(1);  // the first step at once; the pacer's ticks bring the rest
}

void TrainView::step() {
  if (!why_not_.isEmpty() || busy() || (trainer_ && trainer_->done())) return;
  run(kStepSteps);
}

void TrainView::tick() {
  if (!playing_ || stepping()) return;
  run(1);
}

void TrainView::stop() {
  if (!busy()) return;
  endPlay();
  updateControls();
  if (stepping()) {
    stop_flag_->store(true);
    stop_->setEnabled(false);
    status_->setText(tr("pausing after the current step…"));
  }
}

void TrainView::setStepsPerSecond(int steps_per_second) {
  const int index = speed_->findData(steps_per_second);
  if (index < 0 || steps_per_second == steps_per_second_) return;
  steps_per_second_ = steps_per_second;
  {
    const QSignalBlocker quiet(speed_);
    speed_->setCurrentIndex(index);
  }
  if (playing_ && steps_per_second_ == 0) {
    pacer_->stop();
    // From here one job to the end; a paced step still running hands over when it ends.
    if (!stepping()) run(INT_MAX);
  } else if (playing_) {
    pacer_->start(1000 / steps_per_second_);
    // A job at full speed ends after its step; the ticks take over.
    if (stepping() && job_steps_ > 1) stop_flag_->store(true);
  }
  updateControls();
}

void TrainView::endPlay() {
  playing_ = false;
  pacer_->stop();
}

void TrainView::reset() {
  dropJob();
  endPlay();
  trainer_.reset();
  taken_ = 0;
  judged_at_ = -1;
  losses_.clear();
  outcome_.reset();
  error_.clear();
  chart_->setPoints({});
  showOutcome();
  updateControls();
}

bool TrainView::saveWeights(const QString& path, QString* error) {
  if (busy() || !trainer_ || taken_ == 0) {
    if (error) *error = tr("nothing learned yet: Start or Step first");
    return false;
  }
  try {
    core::write_file_atomic(path.toStdString(),
                            core::learned_weights_file(trainer_->exercise(), trainer_->layers()));
    return true;
  } catch (const std::exception& e) {
    if (error) *error = QString::fromUtf8(e.what());
    return false;
  }
}

void TrainView::run(int max_steps) {
  if (!trainer_) trainer_ = std::make_shared<core::Trainer>(*exercise_);
  job_steps_ = max_steps;
  error_.clear();
  stop_flag_ = std::make_shared<std::atomic<bool>>(false);
  watcher_ = new QFutureWatcher<TrainProgress>(this);
  connect(watcher_, &QFutureWatcher<TrainProgress>::resultsReadyAt, this, &TrainView::addProgress);
  connect(watcher_, &QFutureWatcher<TrainProgress>::finished, this, &TrainView::jobEnded);
  watcher_->setFuture(QtConcurrent::run(&job_pool(), train_job, session_.catalog(),
                                        spec_.toStdString(), trainer_, max_steps, stop_flag_));
  updateControls();
}

void TrainView::dropJob() {
  // A job for another exercise or variant: told to stop, and whatever it still reports unseen.
  if (!watcher_) return;
  stop_flag_->store(true);
  watcher_->disconnect(this);
  watcher_->deleteLater();
  watcher_ = nullptr;
}

void TrainView::addProgress(int begin, int end) {
  // A point per step; the loss judged at the end of a job is the next step's, so it replaces
  // rather than repeats that step's point when training resumes.
  auto add = [this](double step, double loss) {
    if (!losses_.empty() && losses_.back().x() == step)
      losses_.back().setY(loss);
    else
      losses_.emplace_back(step, loss);
  };
  for (int i = begin; i < end; ++i) {
    const TrainProgress p = watcher_->future().resultAt(i);
    taken_ = p.taken;
    if (!p.error.isEmpty()) {
      error_ = p.error;
      continue;
    }
    add(p.step, p.loss);
    if (p.outcome) {
      outcome_ = p.outcome;
      judged_at_ = p.taken;
      add(p.taken, p.outcome->final_loss);
    }
  }
  chart_->setPoints(losses_);
  showOutcome();
  updateControls();
  emit progressed();
}

void TrainView::jobEnded() {
  watcher_->deleteLater();
  watcher_ = nullptr;
  if (playing_) {
    if (!error_.isEmpty() || trainer_->done())
      endPlay();
    else if (steps_per_second_ == 0)
      run(INT_MAX);  // the speed went to full while a paced step ran
  }
  updateControls();
  emit finished();
}

void TrainView::rebuildTargets() {
  for (HeatmapWidget* map : heatmaps_) delete map;
  heatmaps_.clear();
  drawn_.clear();
  targets_note_->clear();
  const bool trains = exercise_ && exercise_->train;
  heatmap_panel_->setVisible(trains);
  if (!trains) return;
  const auto& targets = exercise_->train->targets;
  // The targets that pull a row onto a key; all of them when none does.
  std::vector<size_t> pulls;
  for (size_t i = 0; i < targets.size(); ++i)
    if (!targets[i].avoid) pulls.push_back(i);
  if (pulls.empty())
    for (size_t i = 0; i < targets.size(); ++i) pulls.push_back(i);
  auto* grid = static_cast<QGridLayout*>(heatmap_panel_->layout());
  const int shown = std::min<int>(kMaxHeatmaps, static_cast<int>(pulls.size()));
  for (int i = 0; i < shown; ++i) {
    drawn_.push_back(pulls[size_t(i)]);
    const auto& tokens = exercise_->cases[size_t(targets[drawn_.back()].case_index)].tokens;
    QStringList labels;
    for (const auto& t : tokens) labels << QString::fromStdString(t);
    auto* map = new HeatmapWidget;
    map->setColorRange(ColorRange::kScale);  // 0–1 throughout: colours do not rescale per frame
    map->setLabels(labels, labels);
    map->setHighlightRow(targets[drawn_.back()].query);
    grid->addWidget(map, i / 2, i % 2);
    heatmaps_.push_back(map);
  }
  if (shown < static_cast<int>(pulls.size()))
    targets_note_->setText(
        tr("The attention of the first %1 of %2 targets is shown.").arg(shown).arg(pulls.size()));
  showOutcome();
}

void TrainView::showOutcome() {
  criteria_->setRowCount(0);
  const bool trains = exercise_ && exercise_->train;
  if (!trains) return;
  const core::TrainSpec& spec = *exercise_->train;
  const bool judged = outcome_.has_value();
  // The step the criteria were judged at heads their column: it trails the curve by up to
  // log_every steps while a run goes.
  const QString after = judged ? tr("after %n step(s)", nullptr, judged_at_) : tr("status");
  auto add_row = [this](QTableWidgetItem* a, QTableWidgetItem* b, QTableWidgetItem* c) {
    const int r = criteria_->rowCount();
    criteria_->insertRow(r);
    criteria_->setItem(r, 0, a);
    criteria_->setItem(r, 1, b);
    criteria_->setItem(r, 2, c);
  };
  if (spec.loss_below) {
    std::optional<grade::Status> status;  // not ?: of two optionals: GCC 12 warns on that
    if (judged) status = outcome_->loss_met ? grade::Status::kPassed : grade::Status::kFailed;
    add_row(cell(tr("loss < %1").arg(*spec.loss_below)),
            cell(!judged              ? tr("—")
                 : outcome_->loss_met ? tr("✓ met")
                                      : tr("✗ not met"),
                 status),
            cell(judged ? tr("loss %1").arg(outcome_->final_loss, 0, 'f', 6) : ""));
  }
  for (size_t i = 0; i < spec.success_checks.size(); ++i) {
    const QString id = QString::fromStdString(spec.success_checks[i].id);
    if (!judged || i >= outcome_->success_checks.checks.size()) {
      add_row(cell(id), cell(tr("—")), cell(""));
      continue;
    }
    const auto& c = outcome_->success_checks.checks[i];
    const bool passed = c.status == grade::Status::kPassed;
    add_row(cell(id),
            cell((passed ? tr("✓ ") : tr("✗ ")) + QString::fromUtf8(grade::to_string(c.status)),
                 c.status),
            cell(QString::fromStdString(c.summary)));
  }
  criteria_->setHorizontalHeaderItem(1, new QTableWidgetItem(after));
  criteria_->resizeColumnToContents(0);
  criteria_->resizeColumnToContents(1);
  criteria_->resizeRowsToContents();

  for (size_t i = 0; i < heatmaps_.size(); ++i) {
    const size_t ti = drawn_[i];
    const core::TrainTarget& t = spec.targets[ti];
    const core::ExerciseCase& c = exercise_->cases[size_t(t.case_index)];
    QString title = QStringLiteral("%1, layer %2")
                        .arg(QString::fromStdString(c.id))
                        .arg(core::target_layer(*exercise_, t));
    if (exercise_->parameters.heads > 1) title += tr(", head %1").arg(t.head);
    title += QStringLiteral(": “%1” → “%2”")
                 .arg(QString::fromStdString(c.tokens[size_t(t.query)]),
                      QString::fromStdString(c.tokens[size_t(t.key)]));
    if (judged && ti < outcome_->targets.size()) {
      const Matrix& a = outcome_->targets[ti].weights;
      heatmaps_[i]->setMatrix(a, 0, 1, exercise_->parameters.causal);
      title += tr(", A = %1").arg(a(t.query, t.key), 0, 'f', 3);
    } else {
      heatmaps_[i]->clear();
    }
    heatmaps_[i]->setTitle(title);
  }
}

void TrainView::updateControls() {
  why_not_.clear();
  if (!exercise_) {
    why_not_ = tr("Pick an exercise with a train: section to train a variant on it.");
  } else if (!exercise_->train) {
    QStringList with;
    for (const auto& e : session_.exercises().exercises)
      if (e.train) with << QString::fromStdString(e.id);
    why_not_ = tr("%1 has no train: section, so there is nothing to learn here (exercises "
                  "that have one: %2).")
                   .arg(QString::fromStdString(exercise_->id), with.join(", "));
  } else if (spec_.isEmpty()) {
    why_not_ = tr("Select a variant to train.");
  } else {
    try {
      const core::VariantRef ref = core::find_variant(*session_.catalog(), spec_.toStdString());
      if (auto why = core::cannot_train(*exercise_, *ref.variant))
        why_not_ = tr("%1 cannot train on %2: %3")
                       .arg(QString::fromStdString(ref.variant->id),
                            QString::fromStdString(exercise_->id), QString::fromStdString(*why));
    } catch (const std::exception& e) {
      why_not_ = QString::fromUtf8(e.what());
    }
  }
  const bool can = why_not_.isEmpty();
  note_->setText(why_not_);
  note_->setVisible(!can);
  const bool idle = !busy();
  const bool done = idle && trainer_ && trainer_->done();
  start_->setEnabled(can && idle);
  start_->setText(idle && taken_ > 0 && !done ? tr("Re&sume") : tr("&Start"));
  step_->setEnabled(can && idle && !done);
  speed_->setEnabled(can);
  stop_->setEnabled(playing_ || (stepping() && !stop_flag_->load()));
  reset_->setEnabled(can && idle && trainer_ != nullptr);
  save_->setEnabled(idle && trainer_ && taken_ > 0);

  if (!can) {
    status_->clear();
    return;
  }
  const int steps = exercise_->train->steps;
  const QString loss =
      losses_.empty() ? QString() : tr(", loss %1").arg(losses_.back().y(), 0, 'f', 6);
  if (!error_.isEmpty())
    status_->setText(
        tr("stopped by an error after %1 of %2 steps: %3").arg(taken_).arg(steps).arg(error_));
  else if (!idle)
    status_->setText(tr("training: step %1 of %2%3").arg(taken_).arg(steps).arg(loss) +
                     (playing_ && steps_per_second_ > 0
                          ? tr(" (%n step(s) per second)", nullptr, steps_per_second_)
                          : QString()));
  else if (done && outcome_)
    status_->setText(tr("step %1 of %2%3: %4%5")
                         .arg(taken_)
                         .arg(steps)
                         .arg(loss)
                         .arg(outcome_->succeeded() ? tr("trained, every success criterion met")
                                                    : tr("not trained, a criterion is not met"))
                         .arg(outcome_->diagnosis.empty()
                                  ? QString()
                                  : "; " + QString::fromStdString(outcome_->diagnosis)));
  else if (taken_ > 0)
    status_->setText(tr("paused after %1 of %2 steps%3").arg(taken_).arg(steps).arg(loss));
  else
    status_->setText(tr("%1 steps of %2 from %3; Start trains, Step runs %4")
                         .arg(steps)
                         .arg(QString::fromUtf8(core::to_string(exercise_->train->optimizer)))
                         .arg(exercise_->train->init
                                  ? tr("random weights (seed %1)").arg(exercise_->train->init->seed)
                                  : tr("the exercise's weights"))
                         .arg(tr("%n step(s)", nullptr, kStepSteps)));
}

}  // namespace awb::gui
