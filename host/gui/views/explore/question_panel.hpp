// question_panel.hpp: predict, then reveal: the exercise's question, how to answer it (a token
// chip above, or a head button here), and once answered the verdict with the lesson's
// explanation. It asks and shows; core/exercises/questions.hpp judges.
#ifndef AWB_GUI_QUESTION_PANEL_HPP_
#define AWB_GUI_QUESTION_PANEL_HPP_

#include <QComboBox>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <vector>

#include "core/exercises/questions.hpp"

namespace awb::gui {

class QuestionPanel : public QGroupBox {
  Q_OBJECT
 public:
  explicit QuestionPanel(QWidget* parent = nullptr);

  // The exercise's questions in the chooser; the panel hides itself when there are none.
  void setExercise(const core::Exercise* exercise);
  // Asks question `index`, waiting for an answer (`heads`: how many head buttons to offer).
  void ask(int index, int heads);
  // The verdict on the asked question's answer.
  void showVerdict(const core::Verdict& verdict);
  // No question asked: only the chooser shows.
  void clearQuestion();

  QLabel* askLabel() const { return ask_; }
  QLabel* promptLabel() const { return prompt_; }
  QLabel* verdictLabel() const { return verdict_; }
  QPushButton* headButton(int head) const;
  // The panel's controls in reading order (chooser, Ask, Show everything), for the tab order.
  QWidget* chooser() const { return chooser_; }
  QPushButton* askButton() const { return ask_button_; }
  QPushButton* closeButton() const { return close_button_; }

 signals:
  void askRequested(int index);
  void headPicked(int head);
  void closeRequested();

 private:
  const core::Exercise* exercise_ = nullptr;
  int asked_ = -1;
  QComboBox* chooser_;
  QPushButton *ask_button_, *close_button_;
  QLabel *ask_, *prompt_, *verdict_;
  QHBoxLayout* heads_layout_;
  std::vector<QPushButton*> heads_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_QUESTION_PANEL_HPP_
