// param_editor.hpp: a variant's parameters (SDK 1.2) as editors generated from their
// declarations: a spin box per int or float, a check box per bool, a combo box per enum.
#ifndef AWB_GUI_PARAM_EDITOR_HPP_
#define AWB_GUI_PARAM_EDITOR_HPP_

#include <QWidget>
#include <vector>

#include "graders/model/params.hpp"

class QHBoxLayout;

namespace awb::gui {

class ParamEditor : public QWidget {
  Q_OBJECT
 public:
  explicit ParamEditor(QWidget* parent = nullptr);

  // Rebuilds the editors for `decls`, each starting at its value in `start` (as written, e.g. an
  // exercise's variant.params), else its default. Hidden when there is nothing to edit.
  void setDeclarations(const std::vector<ParamDecl>& decls, const ParamValues& start = {});
  // Every declared parameter's current value, as a user would write it.
  ParamValues values() const;
  // The editor of parameter `name` (a QSpinBox, QDoubleSpinBox, QCheckBox or QComboBox), or null.
  QWidget* editor(const QString& name) const;

 signals:
  void changed();  // a value was edited

 private:
  std::vector<ParamDecl> decls_;
  std::vector<QWidget*> editors_;
  QHBoxLayout* row_;
};

}  // namespace awb::gui

#endif  // AWB_GUI_PARAM_EDITOR_HPP_
