// question_panel.cpp: the panel's widgets and the wording of a verdict.
#include "gui/views/explore/question_panel.hpp"

#include <QVBoxLayout>

namespace awb::gui {

QuestionPanel::QuestionPanel(QWidget* parent) : QGroupBox(tr("Predict, then reveal"), parent) {
  chooser_ = new QComboBox;
  chooser_->setToolTip(tr("The exercise's questions, by id"));
  ask_button_ = new QPushButton(tr("Ask"));
  ask_button_->setToolTip(tr("Answer first, then see the weights"));
  close_button_ = new QPushButton(tr("Show everything"));
  close_button_->setToolTip(tr("Leave the question and explore freely"));
  ask_ = new QLabel;
  ask_->setWordWrap(true);
  QFont bold = ask_->font();
  bold.setBold(true);
  ask_->setFont(bold);
  prompt_ = new QLabel;
  prompt_->setWordWrap(true);
  verdict_ = new QLabel;
  verdict_->setWordWrap(true);
  verdict_->setTextFormat(Qt::RichText);
  heads_layout_ = new QHBoxLayout;

  auto* top = new QHBoxLayout;
  top->addWidget(new QLabel(tr("question")));
  top->addWidget(chooser_, 1);
  top->addWidget(ask_button_);
  top->addWidget(close_button_);
  auto* answer = new QHBoxLayout;
  answer->addWidget(prompt_, 1);  // the prompt's line takes the row: one line, not a column
  answer->addLayout(heads_layout_);
  auto* layout = new QVBoxLayout(this);
  layout->addLayout(top);
  layout->addWidget(ask_);
  layout->addLayout(answer);
  layout->addWidget(verdict_);

  connect(ask_button_, &QPushButton::clicked, this,
          [this] { emit askRequested(chooser_->currentIndex()); });
  connect(close_button_, &QPushButton::clicked, this, [this] { emit closeRequested(); });
  clearQuestion();
  setVisible(false);
}

void QuestionPanel::setExercise(const core::Exercise* exercise) {
  exercise_ = exercise;
  const QSignalBlocker block(chooser_);
  chooser_->clear();
  if (exercise_)
    // By id: the question's own words are long, and show in full once it is asked.
    for (const auto& q : exercise_->questions) {
      chooser_->addItem(QString::fromStdString(q.id));
      chooser_->setItemData(chooser_->count() - 1, QString::fromStdString(q.ask), Qt::ToolTipRole);
    }
  setVisible(exercise_ && !exercise_->questions.empty());
  clearQuestion();
}

QPushButton* QuestionPanel::headButton(int head) const {
  return head >= 0 && head < static_cast<int>(heads_.size()) ? heads_[static_cast<size_t>(head)]
                                                             : nullptr;
}

void QuestionPanel::ask(int index, int heads) {
  asked_ = index;
  const core::Question& q = exercise_->questions.at(static_cast<size_t>(index));
  {
    const QSignalBlocker block(chooser_);
    chooser_->setCurrentIndex(index);
  }
  ask_->setText(QString::fromStdString(q.ask));
  ask_->setVisible(true);
  verdict_->clear();
  verdict_->setVisible(false);
  prompt_->setVisible(true);
  close_button_->setEnabled(true);
  for (auto* b : heads_) delete b;
  heads_.clear();
  if (q.kind == core::QuestionKind::kToken) {
    prompt_->setText(tr("Your answer: click a token above. The weights stay hidden until then."));
    return;
  }
  prompt_->setText(tr("Your answer:"));
  for (int h = 0; h < heads; ++h) {
    auto* b = new QPushButton(tr("head %1").arg(h));
    connect(b, &QPushButton::clicked, this, [this, h] { emit headPicked(h); });
    heads_layout_->addWidget(b);
    heads_.push_back(b);
  }
}

void QuestionPanel::showVerdict(const core::Verdict& v) {
  const core::Question& q = exercise_->questions.at(static_cast<size_t>(asked_));
  auto name = [&](int i) {
    return QString::fromStdString(core::answer_name(*exercise_, q, i)).toHtmlEscaped();
  };
  // What the weights say about the pick: the reference's numbers, so the verdict does not depend
  // on the variant being explored.
  const QString what =
      q.kind == core::QuestionKind::kToken
          ? tr("'%1' gets %2 of the weight")
          : tr("%1 gives '%3' %2")
                .arg(QStringLiteral("%1"), QStringLiteral("%2"),
                     QString::fromStdString(exercise_->cases.at(static_cast<size_t>(q.case_index))
                                                .tokens.at(static_cast<size_t>(q.key)))
                         .toHtmlEscaped());
  QString text;
  if (v.answer < 0)
    text = tr("<b>No single answer:</b> the largest weights tie.");
  else if (v.right)
    text = tr("<b>Right.</b> ") + what.arg(name(v.picked)).arg(v.picked_weight, 0, 'f', 3) +
           tr(", the most.");
  else
    text = tr("<b>Not quite.</b> ") + what.arg(name(v.picked)).arg(v.picked_weight, 0, 'f', 3) +
           tr("; the most goes to <b>%1</b> (%2).")
               .arg(name(v.answer))
               .arg(v.answer_weight, 0, 'f', 3);
  if (!q.explain.empty()) text += "<br>" + QString::fromStdString(q.explain).toHtmlEscaped();
  verdict_->setText(text);
  verdict_->setVisible(true);
  prompt_->setText(tr("The weights are revealed below."));
  for (auto* b : heads_) b->setEnabled(false);
}

void QuestionPanel::clearQuestion() {
  asked_ = -1;
  ask_->clear();
  ask_->setVisible(false);
  // Nothing asked: one row (the chooser), so the charts keep their room.
  prompt_->clear();
  prompt_->setVisible(false);
  verdict_->clear();
  verdict_->setVisible(false);
  close_button_->setEnabled(false);
  for (auto* b : heads_) delete b;
  heads_.clear();
}

}  // namespace awb::gui
