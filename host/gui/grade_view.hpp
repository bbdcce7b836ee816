// grade_view.hpp: the grader on the selected variant and exercise: every check with its status,
// points, feedback and hint, the total, and the report in the formats the CLI writes.
#ifndef AWB_GUI_GRADE_VIEW_HPP_
#define AWB_GUI_GRADE_VIEW_HPP_

#include <QCheckBox>
#include <QLabel>
#include <QTableWidget>
#include <QWidget>
#include <optional>

#include "gui/latest_run.hpp"
#include "gui/session.hpp"

namespace awb::gui {

class GradeView : public QWidget {
  Q_OBJECT
 public:
  explicit GradeView(Session& session, QWidget* parent = nullptr);

  void setVariant(const QString& spec);
  void setExercise(const core::Exercise* exercise);

  bool busy() const { return runs_.busy(); }
  const std::optional<grade::GradeReport>& report() const { return report_; }
  // The report as `awb grade --format FORMAT` writes it (graders/report/formats.hpp); an
  // unknown name gives the first format, the table.
  QString reportText(const QString& format) const;
  QTableWidget* checksTable() const { return table_; }
  QLabel* totalLabel() const { return total_; }
  static QColor statusColor(grade::Status s);

 signals:
  void updated();

 private:
  void rerun();
  void showReport();

  Session& session_;
  QString spec_;
  const core::Exercise* exercise_ = nullptr;
  std::optional<grade::GradeReport> report_;
  LatestRun runs_;
  QLabel *total_, *status_;
  QCheckBox* instructor_;
  QTableWidget* table_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_GRADE_VIEW_HPP_
