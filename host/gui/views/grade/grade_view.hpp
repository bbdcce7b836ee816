// grade_view.hpp: the grader on the selected variant: one exercise, every loaded exercise or a
// whole assignment; every check with its status, points and feedback, its hint and details in
// an expandable row; the total; Cancel for a running job; the report in the CLI's formats.
#ifndef AWB_GUI_GRADE_VIEW_HPP_
#define AWB_GUI_GRADE_VIEW_HPP_

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QPushButton>
#include <QTreeWidget>
#include <QWidget>
#include <optional>
#include <vector>

#include "gui/session/latest_run.hpp"
#include "gui/session/session.hpp"
#include "gui/session/view.hpp"

namespace awb::gui {

class GradeView : public View {
  Q_OBJECT
 public:
  explicit GradeView(Session& session, QWidget* parent = nullptr);
  ~GradeView() override;  // cancels a running job: its runner ends, no exercise follows

  void setVariant(const QString& spec);
  void setExercise(const core::Exercise* exercise);
  // What is graded: 0 the selected exercise, 1 every loaded exercise, 2.. a bundled assignment
  // (in the order of scopeBox()). False for an index out of range.
  bool setScope(int index);
  // Stops the running job: its runner ends within 100 ms, later exercises are not graded.
  void cancel();

  bool busy() const override { return runs_.busy(); }
  const std::optional<grade::GradeReport>& report() const { return report_; }
  // The report as `awb grade --format FORMAT` writes it (graders/report/formats.hpp); an
  // unknown name gives the first format, the table.
  QString reportText(const QString& format) const;
  // Top level: one row per exercise; under it one row per check (columns: check, status,
  // points, feedback); under a check its diagnosis, hint and details, one row each.
  QTreeWidget* checksTree() const { return tree_; }
  QLabel* totalLabel() const { return total_; }
  QLabel* statusLabel() const { return status_; }
  QComboBox* scopeBox() const { return scope_; }
  QPushButton* cancelButton() const { return cancel_; }
  static QColor statusColor(grade::Status s);

  // As a tab (View): the first variant; its checks judge the weights a question asks about,
  // so it is withheld while one waits; its CSV is the report's.
  void showExercise(const core::Exercise* exercise, const QString& /*case_id*/) override {
    setExercise(exercise);
  }
  void showVariants(const QStringList& specs) override { setVariant(specs.front()); }
  bool showsAnswers() const override { return true; }
  QString csv() const override { return reportText(QStringLiteral("csv")); }

 signals:
  void updated();

 protected:
  void showEvent(QShowEvent* event) override;
  void changeEvent(QEvent* event) override;

 private:
  void rerun();
  void showReport();
  void fillScopes();
  std::vector<const core::Exercise*> scopeExercises() const;
  void fitTotalFont();

  Session& session_;
  QString spec_;
  const core::Exercise* exercise_ = nullptr;
  std::vector<core::Assignment> assignments_;  // the bundled ones that load
  std::optional<grade::GradeReport> report_;
  LatestRun runs_;
  CancelToken cancel_token_;
  QLabel *total_, *status_;
  QComboBox* scope_;
  QCheckBox* instructor_;
  QPushButton *regrade_, *cancel_;
  QTreeWidget* tree_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_GRADE_VIEW_HPP_
