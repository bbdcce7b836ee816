// layout_check.cpp: each kind of widget is measured the way Qt lays its text out: the room its
// style gives the text against the width the text needs in the widget's own font.
#include "gui/charts/layout_check.hpp"

#include <QAbstractButton>
#include <QAbstractItemView>
#include <QComboBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QRegularExpression>
#include <QSlider>
#include <QStyleOptionComboBox>
#include <QTabBar>
#include <QTextDocument>
#include <algorithm>
#include <cmath>

namespace awb::gui {
namespace {

int g_checked = 0;

QString name_of(const QWidget* w) {
  QString name = QString::fromUtf8(w->metaObject()->className());
  if (!w->objectName().isEmpty()) name += " '" + w->objectName() + "'";
  // The nearest named or classed ancestors say where the widget is.
  QStringList path;
  for (const QWidget* p = w->parentWidget(); p != nullptr && path.size() < 3; p = p->parentWidget())
    path.prepend(QString::fromUtf8(p->metaObject()->className()));
  return path.join('/') + "/" + name;
}

// Text as shown: mnemonic ampersands removed ("&&" is one ampersand).
QString shown(QString text) {
  text.replace(QStringLiteral("&&"), QStringLiteral("\x01"));
  text.remove('&');
  text.replace('\x01', '&');
  return text;
}

int widest_line(const QFontMetrics& fm, const QString& text) {
  int w = 0;
  for (const QString& line : text.split('\n')) w = std::max(w, fm.horizontalAdvance(line));
  return w;
}

void report(std::vector<ClippedText>& out, const QWidget* w, const QString& text, int needed,
            int available) {
  if (needed > available) out.push_back({name_of(w), text, needed, available});
}

void check_label(std::vector<ClippedText>& out, const QLabel* l) {
  if (l->text().isEmpty() || Qt::mightBeRichText(l->text())) return;
  if (l->wordWrap()) {
    const int needed = l->heightForWidth(l->width());
    if (needed > l->height()) out.push_back({name_of(l), l->text(), needed, l->height()});
    return;
  }
  report(out, l, l->text(), l->sizeHint().width(), l->width());
  if (l->sizeHint().height() > l->height())
    out.push_back({name_of(l) + " (height)", l->text(), l->sizeHint().height(), l->height()});
}

void check_combo(std::vector<ClippedText>& out, const QComboBox* c) {
  if (c->currentText().isEmpty()) return;
  QStyleOptionComboBox opt;
  opt.initFrom(c);
  opt.editable = c->isEditable();
  opt.currentText = c->currentText();
  const QRect field =
      c->style()->subControlRect(QStyle::CC_ComboBox, &opt, QStyle::SC_ComboBoxEditField, c);
  report(out, c, c->currentText(), c->fontMetrics().horizontalAdvance(c->currentText()),
         field.width());
}

void check_tabs(std::vector<ClippedText>& out, const QTabBar* bar) {
  const int pad = bar->style()->pixelMetric(QStyle::PM_TabBarTabHSpace, nullptr, bar);
  for (int i = 0; i < bar->count(); ++i) {
    if (!bar->isTabVisible(i)) continue;
    const QString text = shown(bar->tabText(i));
    report(out, bar, text, bar->fontMetrics().horizontalAdvance(text) + pad,
           bar->tabRect(i).width());
  }
}

void check_header(std::vector<ClippedText>& out, const QHeaderView* h) {
  if (h->orientation() != Qt::Horizontal || h->model() == nullptr) return;
  const int margin = h->style()->pixelMetric(QStyle::PM_HeaderMargin, nullptr, h);
  for (int s = 0; s < h->count(); ++s) {
    if (h->isSectionHidden(s) || h->sectionSize(s) == 0) continue;
    const QString text = h->model()->headerData(s, Qt::Horizontal).toString();
    if (text.isEmpty()) continue;
    report(out, h, text, h->fontMetrics().horizontalAdvance(text) + 2 * margin, h->sectionSize(s));
  }
}

void check_items(std::vector<ClippedText>& out, const QAbstractItemView* v) {
  const QAbstractItemModel* m = v->model();
  if (m == nullptr) return;
  // A wrapping view (tree, table and list views each declare the property) grows a row for text
  // that can break; a word that cannot (an id, a number) must still fit its cell.
  const bool wraps = v->property("wordWrap").toBool();
  const int margin = v->style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, v) + 1;
  // Every cell of the rows the view lays out (children of expanded rows too).
  std::vector<QModelIndex> parents{QModelIndex()};
  while (!parents.empty()) {
    const QModelIndex parent = parents.back();
    parents.pop_back();
    for (int r = 0; r < m->rowCount(parent); ++r)
      for (int c = 0; c < m->columnCount(parent); ++c) {
        const QModelIndex i = m->index(r, c, parent);
        const QRect rect = v->visualRect(i);
        if (rect.isEmpty()) continue;  // hidden, or under a collapsed row
        if (c == 0 && m->hasChildren(i)) parents.push_back(i);
        const QString text = i.data(Qt::DisplayRole).toString();
        if (text.isEmpty()) continue;
        if (wraps && text.contains(QRegularExpression(QStringLiteral("\\s")))) continue;
        QFont font = v->font();
        if (const QVariant f = i.data(Qt::FontRole); f.isValid()) font = f.value<QFont>();
        const int decoration = i.data(Qt::DecorationRole).isValid() ? v->iconSize().width() + 4 : 0;
        report(out, v, text, widest_line(QFontMetrics(font), text) + 2 * margin + decoration,
               rect.width());
      }
  }
}

void check_line_edit(std::vector<ClippedText>& out, const QLineEdit* e) {
  if (e->text().isEmpty()) return;
  const QMargins m = e->textMargins();
  // QLineEdit's own inner margin (2 px a side) and the frame's width.
  const int frame =
      e->hasFrame() ? e->style()->pixelMetric(QStyle::PM_DefaultFrameWidth, nullptr, e) : 0;
  report(out, e, e->text(),
         e->fontMetrics().horizontalAdvance(e->text()) + 4 + 2 * frame + m.left() + m.right(),
         e->width());
}

void check_drawn(std::vector<ClippedText>& out, const QWidget* w, const DrawnTextSource* src) {
  const QRectF bounds(QPointF(0, 0), QSizeF(w->size()));
  for (const auto& t : src->drawnTexts()) {
    if (t.text.isEmpty()) continue;
    const QFontMetrics fm(t.font ? *t.font : w->font());
    if (t.wrapped) {
      const QRect lines = fm.boundingRect(QRect(0, 0, static_cast<int>(t.rect.width()), 1 << 20),
                                          Qt::TextWordWrap, t.text);
      report(out, w, t.text + " (height)", lines.height(), static_cast<int>(t.rect.height() + 0.5));
      continue;
    }
    const int needed = fm.horizontalAdvance(t.text);
    const double room = t.rotated ? t.rect.height() : t.rect.width();
    report(out, w, t.text, needed, static_cast<int>(std::floor(room + 0.5)));
    if (!bounds.adjusted(-0.5, -0.5, 0.5, 0.5).contains(t.rect))
      out.push_back({name_of(w) + " (outside the widget)", t.text, needed, 0});
  }
}

}  // namespace

QString ClippedText::describe() const {
  return QStringLiteral("%1: \"%2\" needs %3 px, has %4")
      .arg(widget, text)
      .arg(needed)
      .arg(available);
}

std::vector<ClippedText> find_clipped_text(QWidget* root) {
  std::vector<ClippedText> out;
  g_checked = 0;
  if (root->isWindow() && (root->minimumSizeHint().width() > root->width() ||
                           root->minimumSizeHint().height() > root->height()))
    out.push_back({name_of(root) + " (window smaller than its layout's minimum)",
                   {},
                   root->minimumSizeHint().width(),
                   root->width()});
  QList<QWidget*> widgets = root->findChildren<QWidget*>();
  widgets.prepend(root);
  for (QWidget* w : widgets) {
    if (!w->isVisible() || w->width() <= 0 || w->height() <= 0) continue;
    ++g_checked;
    if (auto* l = qobject_cast<QLabel*>(w))
      check_label(out, l);
    else if (auto* b = qobject_cast<QAbstractButton*>(w)) {
      if (!b->text().isEmpty()) report(out, b, shown(b->text()), b->sizeHint().width(), b->width());
    } else if (auto* c = qobject_cast<QComboBox*>(w))
      check_combo(out, c);
    else if (auto* t = qobject_cast<QTabBar*>(w))
      check_tabs(out, t);
    else if (auto* h = qobject_cast<QHeaderView*>(w))
      check_header(out, h);
    else if (auto* v = qobject_cast<QAbstractItemView*>(w))
      check_items(out, v);
    else if (auto* e = qobject_cast<QLineEdit*>(w))
      check_line_edit(out, e);
    if (const auto* src = dynamic_cast<const DrawnTextSource*>(w)) check_drawn(out, w, src);
  }
  return out;
}

int last_checked_widget_count() { return g_checked; }

std::vector<ClippedText> find_collapsed_plots(QWidget* root) {
  std::vector<ClippedText> out;
  QList<QWidget*> widgets = root->findChildren<QWidget*>();
  widgets.prepend(root);
  for (QWidget* w : widgets) {
    if (!w->isVisible() || w->width() <= 0 || w->height() <= 0) continue;
    if (const auto* src = dynamic_cast<const PlotSource*>(w)) {
      for (const auto& p : src->plots()) {
        // Each side on its own: a plot wide enough but 3 px tall is as unreadable as none.
        const int has_w = static_cast<int>(std::floor(p.size.width() + 0.5)),
                  has_h = static_cast<int>(std::floor(p.size.height() + 0.5));
        const int needs_w = static_cast<int>(std::ceil(p.minimum.width())),
                  needs_h = static_cast<int>(std::ceil(p.minimum.height()));
        if (has_h < needs_h)
          out.push_back({name_of(w) + " (" + p.what + ", height)", p.what, needs_h, has_h});
        if (has_w < needs_w)
          out.push_back({name_of(w) + " (" + p.what + ", width)", p.what, needs_w, has_w});
      }
    }
    if (auto* s = qobject_cast<QSlider*>(w)) {
      const int length = s->orientation() == Qt::Horizontal ? s->width() : s->height();
      const int needed = 8 * s->fontMetrics().height();
      if (length < needed) out.push_back({name_of(w), QStringLiteral("slider"), needed, length});
    }
  }
  return out;
}

QStringList LayoutReport::lines() const {
  QStringList out;
  for (const auto& c : clipped) out << QStringLiteral("clipped: ") + c.describe();
  for (const auto& c : collapsed)
    out << QStringLiteral("collapsed: %1 is %2 px, needs %3")
               .arg(c.widget)
               .arg(c.available)
               .arg(c.needed);
  for (const auto& c : oversized)
    out << QStringLiteral("too large: %1 needs %2 px, the screen has %3")
               .arg(c.widget)
               .arg(c.needed)
               .arg(c.available);
  return out;
}

QString LayoutReport::summary() const {
  if (ok()) return QStringLiteral("no text cut off, no plot collapsed, fits the screen");
  QStringList parts;
  if (!clipped.empty()) parts << QStringLiteral("%1 texts cut off").arg(clipped.size());
  if (!collapsed.empty()) parts << QStringLiteral("%1 plots collapsed").arg(collapsed.size());
  if (!oversized.empty()) parts << QStringLiteral("larger than the screen");
  return parts.join(QStringLiteral(", "));
}

LayoutReport check_layout(QWidget* window, QSize screen) {
  LayoutReport r;
  r.clipped = find_clipped_text(window);
  r.checked = last_checked_widget_count();
  r.collapsed = find_collapsed_plots(window);
  // A window whose layout needs more than the screen grows past it (or is cut off by it).
  const QSize min = window->minimumSizeHint().expandedTo(window->minimumSize());
  if (min.width() > screen.width())
    r.oversized.push_back(
        {QStringLiteral("the window's minimum width"), {}, min.width(), screen.width()});
  if (min.height() > screen.height())
    r.oversized.push_back(
        {QStringLiteral("the window's minimum height"), {}, min.height(), screen.height()});
  if (window->width() > screen.width())
    r.oversized.push_back(
        {QStringLiteral("the window's width"), {}, window->width(), screen.width()});
  if (window->height() > screen.height())
    r.oversized.push_back(
        {QStringLiteral("the window's height"), {}, window->height(), screen.height()});
  return r;
}

}  // namespace awb::gui
