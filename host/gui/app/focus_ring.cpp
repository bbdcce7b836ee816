// focus_ring.cpp: the ring follows QApplication's focus; a move or resize of the target or of
// any widget between it and the window (a scroll area scrolling, a layout changing) places it
// again.
#include "gui/app/focus_ring.hpp"

#include <QApplication>
#include <QEvent>
#include <QPainter>

namespace awb::gui {

FocusRing::FocusRing(QWidget* window) : QWidget(window) {
  setAttribute(Qt::WA_TransparentForMouseEvents);
  setAttribute(Qt::WA_NoSystemBackground);
  setFocusPolicy(Qt::NoFocus);
  hide();
  connect(qApp, &QApplication::focusChanged, this, [this](QWidget*, QWidget* now) { follow(now); });
}

void FocusRing::follow(QWidget* focus) {
  for (const auto& w : watched_)
    if (w) w->removeEventFilter(this);
  watched_.clear();
  target_ = focus != nullptr && focus->window() == parentWidget() && focus != parentWidget()
                ? focus
                : nullptr;
  for (QWidget* w = target_; w != nullptr && w != parentWidget(); w = w->parentWidget()) {
    w->installEventFilter(this);
    watched_.emplace_back(w);
  }
  place();
}

void FocusRing::place() {
  if (!target_ || !target_->isVisible()) {
    hide();
    return;
  }
  const int t = thickness();
  const QPoint at = target_->mapTo(parentWidget(), QPoint(0, 0));
  setGeometry(QRect(at, target_->size()).adjusted(-t, -t, t, t));
  raise();
  show();
  update();
}

bool FocusRing::eventFilter(QObject* watched, QEvent* event) {
  switch (event->type()) {
    case QEvent::Move:
    case QEvent::Resize:
    case QEvent::Show:
    case QEvent::Hide:
      place();
      break;
    default:
      break;
  }
  return QWidget::eventFilter(watched, event);
}

void FocusRing::paintEvent(QPaintEvent*) {
  QPainter p(this);
  p.setRenderHint(QPainter::Antialiasing);
  const int t = thickness();
  p.setPen(QPen(palette().color(QPalette::Highlight), t));
  p.setBrush(Qt::NoBrush);
  p.drawRoundedRect(QRectF(rect()).adjusted(t / 2.0, t / 2.0, -t / 2.0, -t / 2.0), t, t);
}

}  // namespace awb::gui
