// param_editor.cpp: one editor per declared parameter, its doc line as the tooltip.
#include "gui/views/explore/param_editor.hpp"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSpinBox>
#include <climits>
#include <cmath>

namespace awb::gui {
namespace {

// The value `start` gives `d` (when it parses), else the default, as the editor's number.
double start_value(const ParamDecl& d, const ParamValues& start) {
  const auto it = start.find(d.name);
  if (it == start.end()) return d.default_value;
  try {
    return resolve_params({d}, {{d.name, it->second}}, "the exercise").front();
  } catch (const std::exception&) {
    return d.default_value;  // the run reports the bad value; the editor starts sane
  }
}

}  // namespace

ParamEditor::ParamEditor(QWidget* parent) : QWidget(parent), row_(new QHBoxLayout(this)) {
  row_->setContentsMargins(0, 0, 0, 0);
  hide();
}

void ParamEditor::setDeclarations(const std::vector<ParamDecl>& decls, const ParamValues& start) {
  while (QLayoutItem* item = row_->takeAt(0)) {
    delete item->widget();
    delete item;
  }
  decls_ = decls;
  editors_.clear();
  for (const auto& d : decls_) {
    const QString name = QString::fromStdString(d.name);
    const QString tip = QString::fromStdString(describe(d));
    const double v = start_value(d, start);
    QWidget* w = nullptr;
    switch (d.type) {
      case ParamType::kInt: {
        auto* box = new QSpinBox;
        box->setRange(static_cast<int>(std::max<double>(d.min_value, INT_MIN)),
                      static_cast<int>(std::min<double>(d.max_value, INT_MAX)));
        box->setValue(static_cast<int>(v));
        connect(box, &QSpinBox::valueChanged, this, &ParamEditor::changed);
        w = box;
        break;
      }
      case ParamType::kFloat: {
        auto* box = new QDoubleSpinBox;
        box->setDecimals(4);
        box->setRange(d.min_value, d.max_value);
        box->setValue(v);
        connect(box, &QDoubleSpinBox::valueChanged, this, &ParamEditor::changed);
        w = box;
        break;
      }
      case ParamType::kBool: {
        auto* box = new QCheckBox;
        box->setChecked(v != 0);
        connect(box, &QCheckBox::toggled, this, &ParamEditor::changed);
        w = box;
        break;
      }
      case ParamType::kEnum: {
        auto* box = new QComboBox;
        for (const auto& c : d.choices) box->addItem(QString::fromStdString(c));
        box->setCurrentIndex(static_cast<int>(v));
        connect(box, &QComboBox::activated, this, &ParamEditor::changed);
        w = box;
        break;
      }
    }
    w->setObjectName(name);
    w->setToolTip(tip);
    auto* label = new QLabel(name);
    label->setToolTip(tip);
    label->setBuddy(w);
    row_->addWidget(label);
    row_->addWidget(w);
    editors_.push_back(w);
  }
  row_->addStretch(1);
  setVisible(!decls_.empty());
}

ParamValues ParamEditor::values() const {
  ParamValues out;
  for (size_t i = 0; i < decls_.size(); ++i) {
    const ParamDecl& d = decls_[i];
    double v = d.default_value;
    if (auto* s = qobject_cast<QSpinBox*>(editors_[i])) v = s->value();
    if (auto* s = qobject_cast<QDoubleSpinBox*>(editors_[i])) v = s->value();
    if (auto* c = qobject_cast<QCheckBox*>(editors_[i])) v = c->isChecked() ? 1 : 0;
    if (auto* c = qobject_cast<QComboBox*>(editors_[i])) v = c->currentIndex();
    out[d.name] = param_text(d, v);
  }
  return out;
}

QWidget* ParamEditor::editor(const QString& name) const {
  for (size_t i = 0; i < decls_.size(); ++i)
    if (QString::fromStdString(decls_[i].name) == name) return editors_[i];
  return nullptr;
}

}  // namespace awb::gui
