// view_registry.hpp: the tabs of the workbench, in the order shown: the one list that the
// window's tabs, the headless renderer and awb-gui --view (its names and its --help) read. A new
// tab is a view (a View, in a folder of gui/views/) and one line in view_registry.cpp.
#ifndef AWB_GUI_VIEW_REGISTRY_HPP_
#define AWB_GUI_VIEW_REGISTRY_HPP_

#include <QString>
#include <QStringList>
#include <vector>

#include "gui/session/view.hpp"

namespace awb::gui {

struct ViewEntry {
  const char* name;                // what setView and --view take
  const char* title;               // the tab's, with its mnemonic (MainWindow's tr context)
  std::vector<const char*> modes;  // more --view names, NAME-MODE (explore-heads): showMode()
  const char* note;                // what --help says of it; empty: nothing
  View* (*make)(Session& session);
};

const std::vector<ViewEntry>& view_registry();

// Every name --view takes: each view's, followed by its modes'.
QStringList view_names();
// The same for a message: "explore, explore-heads, …, bench or train", with each view's note
// after its names when `notes` ("train (trained to the end before a screenshot)").
QString view_names_text(bool notes);

}  // namespace awb::gui

#endif  // AWB_GUI_VIEW_REGISTRY_HPP_
