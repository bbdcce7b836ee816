// view_registry.cpp: the tabs, one line each.
#include "gui/app/view_registry.hpp"

#include <QCoreApplication>

#include "gui/views/bench/bench_view.hpp"
#include "gui/views/compare/compare_view.hpp"
#include "gui/views/explore/explore_view.hpp"
#include "gui/views/grade/grade_view.hpp"
#include "gui/views/train/train_view.hpp"

namespace awb::gui {
namespace {

template <class V>
View* make(Session& session) {
  return new V(session);
}

}  // namespace

const std::vector<ViewEntry>& view_registry() {
  // In the order of the tabs; the first is the one shown at the start.
  static const std::vector<ViewEntry> views = {
      {"explore",
       QT_TRANSLATE_NOOP("MainWindow", "&Explore"),
       {"heads", "layers"},
       "",
       make<ExploreView>},
      {"compare", QT_TRANSLATE_NOOP("MainWindow", "&Compare"), {}, "", make<CompareView>},
      {"grade", QT_TRANSLATE_NOOP("MainWindow", "&Grade"), {}, "", make<GradeView>},
      {"bench", QT_TRANSLATE_NOOP("MainWindow", "&Bench"), {}, "", make<BenchView>},
      {"train",
       QT_TRANSLATE_NOOP("MainWindow", "&Train"),
       {},
       "trained to the end before a screenshot",
       make<TrainView>},
  };
  return views;
}

QStringList view_names() {
  QStringList names;
  for (const auto& v : view_registry()) {
    names << QString::fromUtf8(v.name);
    for (const char* mode : v.modes)
      names << QStringLiteral("%1-%2").arg(QString::fromUtf8(v.name), QString::fromUtf8(mode));
  }
  return names;
}

QString view_names_text(bool notes) {
  QStringList items;
  for (const auto& v : view_registry()) {
    const QString note =
        notes && *v.note ? QStringLiteral(" (%1)").arg(QString::fromUtf8(v.note)) : QString();
    items << QString::fromUtf8(v.name) + (v.modes.empty() ? note : QString());
    for (const char* mode : v.modes)
      items << QStringLiteral("%1-%2").arg(QString::fromUtf8(v.name), QString::fromUtf8(mode));
    if (!v.modes.empty()) items.back() += note;
  }
  if (items.size() < 2) return items.join(QString());
  const QString last = items.takeLast();
  return items.join(QStringLiteral(", ")) + QStringLiteral(" or ") + last;
}

}  // namespace awb::gui
