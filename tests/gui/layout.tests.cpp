// layout.tests.cpp: no text of any view is cut off (elided, clipped or drawn outside its widget)
// at the sizes a classroom uses: every view at 1280×800 and 1920×1080, at scale 1 and 2, and
// presentation mode at zoom 150 %. Each window is a real `awb-gui --check-layout` process, so the
// scale is Qt's own (QT_SCALE_FACTOR), as on a high-DPI projector.
#include <QLabel>
#include <catch2/catch.hpp>

#include "gui/layout_check.hpp"
#include "gui_support.hpp"

using namespace awb;

namespace {

struct ViewCase {
  const char* name;
  QStringList args;
};

std::vector<ViewCase> views() {
  return {
      {"explore journey", {"--exercise", "journey", "--variant", "parameter-free"}},
      {"explore animal-road",
       {"--exercise", "animal-road", "--case", "tired", "--variant", "qkv", "--query", "7"}},
      {"explore multi-head",
       {"--exercise", "multi-head", "--variant", "multi-head", "--head", "1"}},
      {"compare four variants",
       {"--view", "compare", "--exercise", "river-bank", "--variant", "parameter-free", "--variant",
        "qkv", "--variant", "multi-head", "--variant", "causal"}},
      {"grade a mutant",
       {"--view", "grade", "--exercise", "journey", "--plugin-dir", AWB_TEST_MUTANT, "--variant",
        "org.awb.mutant.divide-by-sum:parameter-free"}},
      {"bench", {"--view", "bench", "--exercise", "journey", "--variant", "parameter-free"}},
      {"every head",
       {"--view", "explore-heads", "--exercise", "multi-head", "--variant", "multi-head"}},
      {"layers",
       {"--view", "explore-layers", "--exercise", "animal-road", "--case", "tired", "--variant",
        "qkv", "--query", "7"}},
      {"a question, answered",
       {"--exercise", "animal-road", "--variant", "qkv", "--question", "it-tired", "--answer",
        "1"}},
      {"train", {"--view", "train", "--exercise", "resolve-it", "--variant", "qkv"}},
  };
}

// Runs the check; returns its report, failing the test when any text is cut off.
void check_layout(const ViewCase& v, const QString& size, const QString& scale,
                  const QStringList& extra = {}) {
  const test::GuiRun gui = test::run_gui(
      v.args + QStringList{"--check-layout", "--size", size} + extra, {"QT_SCALE_FACTOR=" + scale});
  REQUIRE(gui.finished);
  const QString& out = gui.out;
  INFO(v.name << " at " << size.toStdString() << ", scale " << scale.toStdString() << " "
              << extra.join(' ').toStdString() << "\n"
              << out.toStdString() << gui.err.toStdString());
  CHECK(gui.exit_code == 0);
  CHECK(out.contains("no text cut off"));
}

}  // namespace

TEST_CASE("no text is cut off at 1280x800, scale 1", "[gui][layout]") {
  for (const auto& v : views()) check_layout(v, "1280x800", "1");
}

TEST_CASE("no text is cut off at 1280x800, scale 2", "[gui][layout]") {
  for (const auto& v : views()) check_layout(v, "1280x800", "2");
}

TEST_CASE("no text is cut off at 1920x1080, scale 1", "[gui][layout]") {
  for (const auto& v : views()) check_layout(v, "1920x1080", "1");
}

TEST_CASE("no text is cut off at 1920x1080, scale 2", "[gui][layout]") {
  for (const auto& v : views()) check_layout(v, "1920x1080", "2");
}

TEST_CASE("presentation mode at zoom 150 % cuts no text off at 1920x1080", "[gui][layout]") {
  for (const auto& v : views()) check_layout(v, "1920x1080", "1", {"--presentation"});
}

TEST_CASE("the layout check finds a label that is cut off", "[gui][layout]") {
  // The checker itself: a label squeezed below its text's width, and one that fits.
  QWidget window;
  auto* cut = new QLabel("a label far too long for forty pixels", &window);
  cut->setGeometry(0, 0, 40, 30);
  auto* fits = new QLabel("ok", &window);
  fits->setGeometry(0, 40, 200, 30);
  window.resize(300, 100);
  window.show();
  const auto clipped = awb::gui::find_clipped_text(&window);
  REQUIRE(clipped.size() == 1);
  CHECK(clipped[0].text == cut->text());
  CHECK(clipped[0].available == 40);
  CHECK(clipped[0].needed > 40);
}
