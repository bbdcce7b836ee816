// explore_questions.cpp: the explore view's predict-then-reveal half: asking a question hides the
// weights, the reference's answer is computed off the GUI thread, and a chip or head button
// answers; core::judge gives the verdict, the panel words it.
#include "gui/views/explore/explore_view.hpp"

namespace awb::gui {

bool ExploreView::weightsHidden() const { return body_->currentWidget() == hidden_; }

void ExploreView::chipClicked(int id) {
  const bool token_question =
      asking() &&
      exercise_->questions[static_cast<size_t>(question_)].kind == core::QuestionKind::kToken;
  if (!token_question) {
    setQuery(id);
    return;
  }
  if (auto* b = chips_->button(query_)) b->setChecked(true);  // the question's query stays
  answerQuestion(id);
}

bool ExploreView::askQuestion(const QString& id) {
  if (!exercise_) return false;
  for (size_t i = 0; i < exercise_->questions.size(); ++i)
    if (exercise_->questions[i].id == id.toStdString()) {
      askQuestion(static_cast<int>(i));
      return true;
    }
  return false;
}

void ExploreView::askQuestion(int index) {
  if (!exercise_ || index < 0 || index >= static_cast<int>(exercise_->questions.size())) return;
  const core::Question& q = exercise_->questions[static_cast<size_t>(index)];
  question_ = index;
  truth_.reset();
  pick_.reset();
  verdict_.reset();
  layer_ = q.layer;
  head_ = q.kind == core::QuestionKind::kToken ? q.head : 0;
  query_ = q.query;
  weights_->setHighlight(-1);
  const QString case_id = QString::fromStdString(exercise_->cases[size_t(q.case_index)].id);
  const bool other_case =
      case_id !=
      (case_id_.isEmpty() ? QString::fromStdString(exercise_->cases.front().id) : case_id_);
  if (other_case) {
    case_id_ = case_id;
    rebuildChips();
    emit caseChanged(case_id);
  }
  panel_->ask(index, exercise_->parameters.heads);
  showBody();
  // The keyboard starts on the first answer: arrows move along the chips, Enter answers.
  if (q.kind == core::QuestionKind::kToken)
    if (auto* b = chips_->button(0)) b->setFocus(Qt::OtherFocusReason);
  {
    // The answer is the reference's at the exercise's own sharpness: show that one.
    const QSignalBlocker block(slider_);
    setSharpness(exercise_->parameters.sharpness);
  }
  const int asked = ++asked_;
  truth_pending_ = true;
  const core::Exercise* exercise = exercise_;
  run_async<core::QuestionTruth>(
      this, [exercise, q] { return core::reference_truth(*exercise, q); },
      [this, asked](Outcome<core::QuestionTruth> r) {
        if (asked != asked_) return;  // another question was asked meanwhile
        truth_pending_ = false;
        if (r.value)
          truth_ = std::move(*r.value);
        else
          status_->setText(tr("cannot judge the answer: %1").arg(r.error));
        judgeIfReady();
      });
  rerun();
}

void ExploreView::answerQuestion(int pick) {
  if (!asking()) return;
  pick_ = pick;
  judgeIfReady();
}

void ExploreView::judgeIfReady() {
  if (!pick_ || !truth_ || !asking()) return;
  verdict_ = core::judge(*truth_, *pick_);
  panel_->showVerdict(*verdict_);
  const core::Question& q = exercise_->questions[static_cast<size_t>(question_)];
  if (q.kind == core::QuestionKind::kToken) {
    weights_->setHighlight(*pick_);  // the bar of the pick, beside the tallest
    mode_ = Mode::kOneHead;
  } else {
    if (verdict_->answer >= 0) head_ = verdict_->answer;
    mode_ = Mode::kAllHeads;  // the heads side by side: the comparison the question asked for
  }
  if (auto* b = modes_->button(static_cast<int>(mode_))) b->setChecked(true);
  showBody();
  showRun();
}

void ExploreView::closeQuestion() {
  question_ = -1;
  layer_ = -1;  // the question fixed its layer; free exploring starts at the last again
  ++asked_;
  truth_pending_ = false;
  truth_.reset();
  pick_.reset();
  verdict_.reset();
  weights_->setHighlight(-1);
  panel_->clearQuestion();
  showBody();
}

}  // namespace awb::gui
