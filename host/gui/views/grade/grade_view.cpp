// grade_view.cpp: grading runs as a job, one exercise after another so that Cancel takes effect
// between them (and, through the runner, within one); the tree is rebuilt from the report.
#include "gui/views/grade/grade_view.hpp"

#include <QDir>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QTimer>
#include <QVBoxLayout>
#include <algorithm>

#include "graders/report/formats.hpp"
#include "gui/charts/flow_layout.hpp"

namespace awb::gui {
namespace {

enum Column { kCheck, kStatus, kPoints, kFeedback, kColumns };

QString points_text(double got, double of) { return QStringLiteral("%1 / %2").arg(got).arg(of); }

}  // namespace

GradeView::GradeView(Session& session, QWidget* parent) : View(parent), session_(session) {
  total_ = new QLabel;
  total_->setWordWrap(true);
  fitTotalFont();
  status_ = new QLabel;
  status_->setWordWrap(true);
  scope_ = new QComboBox;
  scope_->setSizeAdjustPolicy(QComboBox::AdjustToContents);
  scope_->setToolTip(tr("What to grade the selected variant on"));
  instructor_ = new QCheckBox(tr("instructor view (hidden checks too)"));
  regrade_ = new QPushButton(tr("Grade again"));
  cancel_ = new QPushButton(tr("Cancel"));
  cancel_->setEnabled(false);
  // The controls wrap onto a second line where a zoomed window runs out of width.
  auto* top = new FlowLayout;
  auto* scope_group = new QWidget;
  auto* scope_row = new QHBoxLayout(scope_group);
  scope_row->setContentsMargins(0, 0, 0, 0);
  scope_row->addWidget(new QLabel(tr("grade on")));
  scope_row->addWidget(scope_);
  top->addWidget(scope_group);
  top->addWidget(instructor_);
  top->addWidget(regrade_);
  top->addWidget(cancel_);
  tree_ = new QTreeWidget;
  tree_->setColumnCount(kColumns);
  tree_->setHeaderLabels({tr("check"), tr("status"), tr("points"), tr("feedback")});
  tree_->header()->setStretchLastSection(true);
  tree_->setWordWrap(true);  // the feedback column wraps: hints are never cut off
  tree_->setUniformRowHeights(false);
  tree_->setAlternatingRowColors(true);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(total_);
  layout->addWidget(status_);
  layout->addWidget(tree_, 1);
  fillScopes();
  connect(regrade_, &QPushButton::clicked, this, [this] { rerun(); });
  connect(cancel_, &QPushButton::clicked, this, &GradeView::cancel);
  connect(instructor_, &QCheckBox::toggled, this, [this] { showReport(); });
  connect(scope_, &QComboBox::activated, this, [this] { rerun(); });
}

GradeView::~GradeView() {
  if (cancel_token_) cancel_token_->store(true);
}

void GradeView::fillScopes() {
  scope_->addItem(tr("the selected exercise"));
  scope_->addItem(tr("every loaded exercise (%1)").arg(session_.exercises().exercises.size()));
  // The bundled assignments, as `awb grade --assignment NAME` grades them.
  const QDir dir(QString::fromStdString(core::bundled_assignment_dir().string()));
  for (const QString& file : dir.entryList({QStringLiteral("*.yaml")}, QDir::Files, QDir::Name)) {
    auto loaded =
        core::load_assignment(dir.filePath(file).toStdString(), session_.exercises().exercises);
    if (!loaded.assignment) continue;  // `awb lint` names its errors; the GUI only offers it
    scope_->addItem(tr("assignment %1 (%2 exercises)")
                        .arg(QString::fromStdString(loaded.assignment->id))
                        .arg(loaded.assignment->exercises.size()));
    assignments_.push_back(std::move(*loaded.assignment));
  }
}

bool GradeView::setScope(int index) {
  if (index < 0 || index >= scope_->count()) return false;
  scope_->setCurrentIndex(index);
  rerun();
  return true;
}

std::vector<const core::Exercise*> GradeView::scopeExercises() const {
  const int i = scope_->currentIndex();
  if (i <= 0) {
    if (exercise_ == nullptr) return {};
    return {exercise_};
  }
  if (i == 1) {
    std::vector<const core::Exercise*> all;
    for (const auto& e : session_.exercises().exercises) all.push_back(&e);
    return all;
  }
  return assignments_[static_cast<size_t>(i - 2)].exercise_list();
}

void GradeView::setVariant(const QString& spec) {
  spec_ = spec;
  rerun();
}

void GradeView::setExercise(const core::Exercise* exercise) {
  exercise_ = exercise;
  if (scope_->currentIndex() <= 0) rerun();  // a whole assignment does not change with it
}

void GradeView::cancel() {
  if (!cancel_token_ || !runs_.busy()) return;
  cancel_token_->store(true);
  status_->setText(tr("cancelling…"));
}

void GradeView::showEvent(QShowEvent* event) {
  QWidget::showEvent(event);
  if (runs_.take_stale()) rerun();
}

void GradeView::rerun() {
  const auto exercises = scopeExercises();
  if (exercises.empty() || spec_.isEmpty()) return;
  if (!runs_.begin(isVisible())) return;  // rerun with the latest state when the running job ends
  const int scope = scope_->currentIndex();
  const core::Assignment* assignment =
      scope >= 2 ? &assignments_[static_cast<size_t>(scope - 2)] : nullptr;
  const QString what =
      scope == 0 ? QString::fromStdString(exercises.front()->id) : scope_->currentText();
  status_->setText(tr("grading %1 on %2…").arg(spec_, what));
  cancel_token_ = std::make_shared<std::atomic<bool>>(false);
  cancel_->setEnabled(true);
  const CancelToken token = cancel_token_;
  auto done = std::make_shared<std::atomic<int>>(0);
  auto* progress = new QTimer(this);
  progress->setInterval(250);
  connect(progress, &QTimer::timeout, this, [this, done, what, n = exercises.size()] {
    if (!cancel_token_->load() && n > 1)
      status_->setText(tr("grading %1 on %2… %3 of %4 exercises done")
                           .arg(spec_, what)
                           .arg(done->load())
                           .arg(n));
  });
  progress->start();
  const auto catalog = session_.catalog();
  const std::string spec = spec_.toStdString();
  // The job owns copies of what it grades: it may outlive the view (and the session) when the
  // window closes while it runs.
  struct Work {
    std::vector<core::Exercise> exercises;
    std::optional<core::Assignment> assignment;
  };
  auto work = std::make_shared<Work>();
  for (const auto* e : exercises) work->exercises.push_back(*e);
  if (assignment) work->assignment = *assignment;
  run_async<grade::GradeReport>(
      this,
      [=] {
        std::vector<const core::Exercise*> list;
        for (const auto& e : work->exercises) list.push_back(&e);
        return grade_job(catalog, spec, list, work->assignment ? &*work->assignment : nullptr,
                         token, [done](int d, int) { done->store(d); });
      },
      [this, progress, token](Outcome<grade::GradeReport> r) {
        progress->deleteLater();
        cancel_->setEnabled(false);
        if (runs_.end() == RunEnd::kSuperseded) {
          rerun();
          return;
        }
        report_ = r.value;
        if (!r.value)
          status_->setText(tr("cannot grade: %1").arg(r.error));
        else if (token->load())
          status_->setText(tr("cancelled: %1 of the exercises graded before Cancel")
                               .arg(r.value->exercises.size()));
        else
          status_->clear();  // the result replaces "grading …"
        showReport();
        emit updated();
      });
}

QColor GradeView::statusColor(grade::Status s) {
  // Blue for passed, orange for failed (a pair that dichromats tell apart), grey otherwise.
  switch (s) {
    case grade::Status::kPassed:
      return {0x2c, 0x6f, 0xbb};
    case grade::Status::kFailed:
      return {0xd9, 0x6c, 0x06};
    case grade::Status::kError:
    case grade::Status::kTimeout:
      return {0x8c, 0x2d, 0x04};
    default:
      return {0x80, 0x80, 0x80};
  }
}

void GradeView::showReport() {
  tree_->clear();
  if (!report_) {
    total_->clear();
    return;
  }
  const grade::View view{instructor_->isChecked(), false};
  auto detail = [](QTreeWidgetItem* parent, const QString& name, const std::string& text) {
    if (text.empty()) return;
    auto* row = new QTreeWidgetItem(parent);
    row->setText(kCheck, name);
    row->setText(kFeedback, QString::fromStdString(text));
  };
  for (const auto& ex : report_->exercises) {
    auto* top = new QTreeWidgetItem(tree_);
    top->setText(kCheck, QString::fromStdString(ex.exercise_id));
    top->setText(kPoints, points_text(ex.score, ex.max_score));
    top->setText(kFeedback, QString::fromStdString(ex.not_gradable.empty()
                                                       ? ex.title
                                                       : "not gradable: " + ex.not_gradable));
    QFont bold = top->font(kCheck);
    bold.setBold(true);
    top->setFont(kCheck, bold);
    bool all_passed = ex.not_gradable.empty();
    for (const auto& c : ex.checks) {
      if (!view.shows(c.visibility)) continue;
      auto* row = new QTreeWidgetItem(top);
      const bool failed = c.status != grade::Status::kPassed;
      all_passed = all_passed && !failed;
      row->setText(kCheck, QString::fromStdString(c.id));
      row->setText(kStatus, QString::fromUtf8(grade::to_string(c.status)));
      row->setText(kPoints, points_text(c.points, c.max_points));
      row->setText(kFeedback, QString::fromStdString(c.summary));
      row->setBackground(kStatus, statusColor(c.status));
      row->setForeground(kStatus, Qt::white);
      detail(row, tr("diagnosis"), c.diagnosis);
      if (failed) detail(row, tr("hint"), c.hint);
      if (c.details != c.summary) detail(row, tr("details"), c.details);
      row->setExpanded(failed);  // what to fix is open; what passed is one line
    }
    // An exercise that was not graded (nothing ran, or it could not be) is grey, not "failed".
    const bool none_ran = std::all_of(ex.checks.begin(), ex.checks.end(), [](const auto& c) {
      return c.status == grade::Status::kNotRun;
    });
    const grade::Status overall = !ex.not_gradable.empty() || none_ran ? grade::Status::kNotRun
                                  : all_passed                         ? grade::Status::kPassed
                                                                       : grade::Status::kFailed;
    top->setText(kStatus, !ex.not_gradable.empty() ? tr("not gradable")
                                                   : QString::fromUtf8(grade::to_string(overall)));
    top->setBackground(kStatus, statusColor(overall));
    top->setForeground(kStatus, Qt::white);
    top->setExpanded(true);
  }
  total_->setText(tr("%1: %2 / %3 points on %n exercise(s)", nullptr,
                     static_cast<int>(report_->exercises.size()))
                      .arg(QString::fromStdString(report_->subject))
                      .arg(report_->score())
                      .arg(report_->max_score()));
  for (int c = 0; c < kFeedback; ++c) tree_->resizeColumnToContents(c);
}

void GradeView::fitTotalFont() {
  // The total is the view's headline: 1.4 × the view's own font, so it follows the zoom.
  QFont big = font();
  big.setPointSizeF(big.pointSizeF() * 1.4);
  big.setBold(true);
  total_->setFont(big);
}

void GradeView::changeEvent(QEvent* event) {
  if (event->type() == QEvent::FontChange) {
    fitTotalFont();
    for (int c = 0; c < kFeedback; ++c) tree_->resizeColumnToContents(c);  // ids stay whole
  }
  QWidget::changeEvent(event);
}

QString GradeView::reportText(const QString& format) const {
  if (!report_) return {};
  const grade::View view{instructor_->isChecked(), false};
  const grade::ReportFormat* f = grade::find_report_format(format.toStdString());
  if (f == nullptr) f = &grade::report_formats().front();
  return QString::fromStdString(f->write({&*report_, 1}, view, {}));
}

}  // namespace awb::gui
