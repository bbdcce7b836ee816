// gui_main.cpp: Catch2's runner inside a QApplication on the offscreen platform.
#include <QApplication>
#include <QTemporaryDir>

#include "support/catch_session.hpp"

int main(int argc, char** argv) {
  qputenv("QT_QPA_PLATFORM", "offscreen");
  // Settings of this process only: ctest runs test cases side by side, and one that remembers a
  // plugin folder or a sidebar width must not reach another's window (nor a user's).
  QTemporaryDir settings;
  qputenv("XDG_CONFIG_HOME", settings.path().toUtf8());
  QApplication app(argc, argv);
  // Remembered plugin folders of the tests stay apart from a user's.
  QApplication::setOrganizationName(QStringLiteral("awb-tests"));
  QApplication::setApplicationName(QStringLiteral("awb-gui-tests"));
  return awb::test::run_catch(argc, argv);
}
