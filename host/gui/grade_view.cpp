// grade_view.cpp: grading runs as a job; the table is rebuilt from the report.
#include "gui/grade_view.hpp"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QVBoxLayout>

#include "graders/report/formats.hpp"

namespace awb::gui {

GradeView::GradeView(Session& session, QWidget* parent) : QWidget(parent), session_(session) {
  total_ = new QLabel;
  QFont big = total_->font();
  big.setPointSizeF(big.pointSizeF() * 1.4);
  big.setBold(true);
  total_->setFont(big);
  status_ = new QLabel;
  status_->setWordWrap(true);
  instructor_ = new QCheckBox(tr("instructor view (hidden checks too)"));
  auto* regrade = new QPushButton(tr("Grade again"));
  auto* top = new QHBoxLayout;
  top->addWidget(total_, 1);
  top->addWidget(instructor_);
  top->addWidget(regrade);
  table_ = new QTableWidget(0, 6);
  table_->setHorizontalHeaderLabels(
      {tr("check"), tr("status"), tr("points"), tr("feedback"), tr("diagnosis"), tr("hint")});
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->verticalHeader()->hide();
  table_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  table_->setWordWrap(true);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(status_);
  layout->addWidget(table_, 1);
  connect(regrade, &QPushButton::clicked, this, [this] { rerun(); });
  connect(instructor_, &QCheckBox::toggled, this, [this] { showReport(); });
}

void GradeView::setVariant(const QString& spec) {
  spec_ = spec;
  rerun();
}

void GradeView::setExercise(const core::Exercise* exercise) {
  exercise_ = exercise;
  rerun();
}

void GradeView::rerun() {
  if (!exercise_ || spec_.isEmpty()) return;
  if (!runs_.begin()) return;  // rerun with the latest state when the running job ends
  status_->setText(tr("grading %1 on %2…").arg(spec_, QString::fromStdString(exercise_->id)));
  const auto catalog = session_.catalog();
  const std::string spec = spec_.toStdString();
  const core::Exercise* exercise = exercise_;  // exercises live as long as the session
  run_async<grade::GradeReport>(
      this, [=] { return grade_job(catalog, spec, *exercise); },
      [this](Outcome<grade::GradeReport> r) {
        if (runs_.end() == RunEnd::kSuperseded) {
          rerun();
          return;
        }
        report_ = r.value;
        status_->setText(r.value ? QString() : tr("cannot grade: %1").arg(r.error));
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
  table_->setRowCount(0);
  if (!report_) {
    total_->clear();
    return;
  }
  const grade::View view{instructor_->isChecked(), false};
  for (const auto& ex : report_->exercises) {
    if (!ex.not_gradable.empty())
      status_->setText(tr("not gradable: %1").arg(QString::fromStdString(ex.not_gradable)));
    for (const auto& c : ex.checks) {
      if (!view.shows(c.visibility)) continue;
      const int r = table_->rowCount();
      table_->insertRow(r);
      const bool failed = c.status != grade::Status::kPassed;
      const QStringList cells{QString::fromStdString(c.id),
                              QString::fromUtf8(grade::to_string(c.status)),
                              QStringLiteral("%1 / %2").arg(c.points).arg(c.max_points),
                              QString::fromStdString(c.summary),
                              QString::fromStdString(c.diagnosis),
                              failed ? QString::fromStdString(c.hint) : QString()};
      for (int col = 0; col < cells.size(); ++col) {
        auto* item = new QTableWidgetItem(cells[col]);
        item->setToolTip(QString::fromStdString(c.details.empty() ? c.summary : c.details));
        if (col == 1) {
          item->setBackground(statusColor(c.status));
          item->setForeground(Qt::white);
        }
        table_->setItem(r, col, item);
      }
    }
  }
  total_->setText(tr("%1 on %2: %3 / %4 points")
                      .arg(QString::fromStdString(report_->subject),
                           exercise_ ? QString::fromStdString(exercise_->id) : QString())
                      .arg(report_->score())
                      .arg(report_->max_score()));
  table_->resizeColumnsToContents();
  table_->resizeRowsToContents();
}

QString GradeView::reportText(const QString& format) const {
  if (!report_) return {};
  const grade::View view{instructor_->isChecked(), false};
  const grade::ReportFormat* f = grade::find_report_format(format.toStdString());
  if (f == nullptr) f = &grade::report_formats().front();
  return QString::fromStdString(f->write({&*report_, 1}, view, {}));
}

}  // namespace awb::gui
