// view.hpp: what a tab of the workbench is to the window: a widget told what the browsers
// select, asked whether it runs and for its CSV. The window, the headless renderer and
// awb-gui --view know the tabs only through this and app/view_registry.hpp.
#ifndef AWB_GUI_VIEW_HPP_
#define AWB_GUI_VIEW_HPP_

#include <QString>
#include <QStringList>
#include <QWidget>

#include "gui/session/session.hpp"

namespace awb::gui {

// Every hook has a default that does nothing, so a view overrides only what it takes.
class View : public QWidget {
  Q_OBJECT
 public:
  using QWidget::QWidget;

  // The exercise selected in the browser, with its case (views that show no case ignore it).
  virtual void showExercise(const core::Exercise* /*exercise*/, const QString& /*case_id*/) {}
  // Another case of the same exercise: only the views that show one case follow.
  virtual void showCase(const core::Exercise* /*exercise*/, const QString& /*case_id*/) {}
  // The variants selected, in order (a view of one variant takes the first).
  virtual void showVariants(const QStringList& /*specs*/) {}
  // The parameter values another view runs with (paramsChanged), for a view that runs the same.
  virtual void showParams(const ParamValues& /*values*/) {}
  // One of the view's modes by the name after its --view name's dash (explore-heads: "heads");
  // false for a mode it does not have.
  virtual bool showMode(const QString& /*mode*/) { return false; }
  // A question waits in another view (true), or no longer does. A view whose showsAnswers()
  // is true has its tab disabled meanwhile; this lets it also hide what it draws.
  virtual void withhold(bool /*on*/) {}
  // What this view shows answers a pending question (weights, checks): withheld while one waits.
  virtual bool showsAnswers() const { return false; }
  // The width of the scroll area the view is shown in, for a view that lays out by it.
  virtual void fitWidth(int /*width*/) {}
  // Before a screenshot: bring the view to what it is meant to show (train: a finished run).
  virtual void finishForScreenshot() {}
  // A plugin run or another job is in flight.
  virtual bool busy() const { return false; }
  // What File → Export matrices as CSV writes; empty when the view has none.
  virtual QString csv() const { return {}; }

 signals:
  // The parameter values this view now runs with (after an edit, a new variant or exercise).
  void paramsChanged(const ParamValues& values);
  // A question moved the view to another case of its exercise.
  void caseChanged(const QString& case_id);
  // A question now waits for its answer (true), or none does any more: the window withholds
  // what would give the answer away (lesson_after, the views that show answers) meanwhile.
  void questionPendingChanged(bool pending);
};

}  // namespace awb::gui

#endif  // AWB_GUI_VIEW_HPP_
