// plugin_project.tests.cpp: the SDK template's marker language, and `awb new-plugin`'s project
// (every kind and mode rendered from the one template, never written over a file).
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "core/exercises/exercise.hpp"
#include "core/grading/assignment.hpp"
#include "core/plugin_project/new_plugin.hpp"
#include "core/plugin_project/template_text.hpp"
#include "graders/model/error.hpp"

using namespace awb;
namespace fs = std::filesystem;

namespace {

core::TemplateChoice choice(const std::string& kind, bool starter) {
  core::TemplateChoice c;
  c.kind = kind;
  c.starter = starter;
  c.kinds = {"parameter-free", "qkv", "multi-head", "causal"};
  c.placeholders = {{"name", "student-" + kind}, {"kind", kind}};
  return c;
}

// The error a render throws, as "[id] location: message".
std::string render_error(const std::string& text) {
  try {
    core::render_template(text, choice("qkv", false), "t.cpp");
  } catch (const Error& e) {
    return e.what();
  }
  return "no error";
}

std::string read(const fs::path& file) {
  std::ifstream in(file, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh folder of its own under the build tree.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::path(AWB_TEST_OUTPUT_DIR) / "plugin_project" / name;
  fs::remove_all(dir);
  fs::create_directories(dir.parent_path());
  return dir;
}

}  // namespace

TEST_CASE("template: a kind's regions and a mode's regions are kept, the others dropped",
          "[plugin-project]") {
  const std::string text =
      "a\n"
      "// awb-template: if kind qkv causal\n"
      "qkv or causal\n"
      "  // awb-template: if starter\n"
      "  starter of qkv or causal\n"
      "  // awb-template: else\n"
      "  solution of qkv or causal\n"
      "  // awb-template: end\n"
      "# awb-template: else\n"
      "neither\n"
      "<!-- awb-template: end -->\n"
      "z\n";
  CHECK(core::render_template(text, choice("qkv", false), "t") ==
        "a\nqkv or causal\n  solution of qkv or causal\nz\n");
  CHECK(core::render_template(text, choice("causal", true), "t") ==
        "a\nqkv or causal\n  starter of qkv or causal\nz\n");
  CHECK(core::render_template(text, choice("multi-head", true), "t") == "a\nneither\nz\n");
  // No newline at the end stays none.
  CHECK(core::render_template("x\n// awb-template: if solution\ny\n// awb-template: end\nz",
                              choice("qkv", false), "t") == "x\ny\nz");
}

TEST_CASE("template: placeholders are filled in kept lines, an @ of the text stays",
          "[plugin-project]") {
  CHECK(core::render_template("id @name@ for @kind@; mail a@b.c, @@\n", choice("qkv", true), "t") ==
        "id student-qkv for qkv; mail a@b.c, @@\n");
  // A dropped line's placeholder is never looked at.
  CHECK(core::render_template("// awb-template: if starter\n@nope@\n// awb-template: end\n",
                              choice("qkv", false), "t") == "");
}

TEST_CASE("template: a malformed marker is an error that names the file and line",
          "[plugin-project]") {
  CHECK(render_error("// awb-template: if kind qvk\n// awb-template: end\n") ==
        "[template.invalid] t.cpp:1: unknown kind 'qvk' (did you mean 'qkv'?)");
  CHECK(render_error("x\n// awb-template: else\n") ==
        "[template.invalid] t.cpp:2: 'else' without its 'if'");
  CHECK(render_error("// awb-template: end\n") ==
        "[template.invalid] t.cpp:1: 'end' without its 'if'");
  CHECK(render_error("// awb-template: if starter\n// awb-template: else\n"
                     "// awb-template: else\n") ==
        "[template.invalid] t.cpp:3: 'else' without its 'if'");
  CHECK(render_error("\n// awb-template: if solution\nx\n") ==
        "[template.invalid] t.cpp:2: this 'if' has no 'end'");
  CHECK(render_error("int x;  // awb-template: if starter\n").find("t.cpp:1: a marker must be") !=
        std::string::npos);
  CHECK(render_error("<!-- awb-template: end\n").find("must end with -->") != std::string::npos);
  CHECK(render_error("// awb-template: if\n").find("'if' takes") != std::string::npos);
  CHECK(render_error("// awb-template: elif kind qkv\n").find("a marker is") != std::string::npos);
  CHECK(render_error("@nmae@\n") ==
        "[template.invalid] t.cpp:1: unknown placeholder @nmae@ (did you mean 'name'?)");
}

TEST_CASE("new-plugin: every kind and mode renders from the one template, markers all resolved",
          "[plugin-project]") {
  for (const auto& kind : core::plugin_kinds()) {
    for (bool starter : {false, true}) {
      INFO(kind.id << (starter ? " starter" : " solution"));
      const fs::path dir = scratch(std::string(kind.id) + (starter ? "-starter" : "-solution"));
      const core::NewPluginProject p = core::write_plugin_project(dir, {kind.id, starter, ""});
      CHECK(p.name == "student-" + std::string(kind.id));
      CHECK(p.plugin_id == "org.example.student-" + std::string(kind.id));
      CHECK(p.files.size() >= 3);
      for (const auto& f : p.files) {
        const std::string text = read(dir / f);
        INFO(f);
        CHECK(text.find("awb-template") == std::string::npos);
        CHECK(text.find("@name@") == std::string::npos);
        CHECK_FALSE(text.empty());
      }
      const std::string source = read(dir / "src" / "student_attention.cpp");
      const std::string readme = read(dir / "README.md");
      const std::string cmake = read(dir / "CMakeLists.txt");
      CHECK(source.find("kVariantId = \"" + p.name + "\"") != std::string::npos);
      CHECK(source.find(std::string("`awb grade --assignment ") + kind.id + "`") !=
            std::string::npos);
      // A starter's maths throws, naming the step; a solution has no TODO left.
      CHECK((source.find("throw todo(\"") != std::string::npos) == starter);
      CHECK((source.find("TODO") != std::string::npos) == starter);
      CHECK(readme.find(std::string("awb grade --assignment ") + kind.id +
                        " --plugin-dir build/plugins --variant " + p.name) != std::string::npos);
      CHECK(readme.find(kind.title) != std::string::npos);
      CHECK(cmake.find("awb_add_plugin(NAME " + p.target + " ") != std::string::npos);
    }
  }
  // Kind-specific code: the causal variant always masks; the parameter-free one reads no weights.
  const fs::path causal = scratch("causal-only");
  core::write_plugin_project(causal, {"causal", false, ""});
  CHECK(read(causal / "src/student_attention.cpp").find("AWB_CAP_CAUSAL_ONLY") !=
        std::string::npos);
  const fs::path free = scratch("free-only");
  core::write_plugin_project(free, {"parameter-free", false, ""});
  const std::string free_source = read(free / "src/student_attention.cpp");
  CHECK(free_source.find("w_q") == std::string::npos);
  CHECK(free_source.find("AWB_CAP_QKV") == std::string::npos);
  CHECK(free_source.find("AWB_CAP_CAUSAL_ONLY") == std::string::npos);
}

TEST_CASE("new-plugin: --name sets the variant id, the plugin id and the target",
          "[plugin-project]") {
  const fs::path dir = scratch("named");
  const core::NewPluginProject p = core::write_plugin_project(dir, {"qkv", true, "my-attn-2"});
  CHECK(p.name == "my-attn-2");
  CHECK(p.plugin_id == "org.example.my-attn-2");
  CHECK(p.target == "my_attn_2");
  CHECK(read(dir / "CMakeLists.txt").find("awb_add_plugin(NAME my_attn_2 ") != std::string::npos);
  for (const char* bad : {"My-Attn", "2attn", "a_b", "a b", "-a"}) {
    INFO(bad);
    const fs::path none = scratch("bad-name");
    try {
      core::write_plugin_project(none, {"qkv", false, bad});
      FAIL("accepted " << bad);
    } catch (const Error& e) {
      CHECK(e.id() == "new_plugin.bad_name");
    }
    CHECK_FALSE(fs::exists(none));
  }
  try {
    core::write_plugin_project(scratch("long"), {"qkv", false, std::string(49, 'a')});
    FAIL("accepted a 49-character name");
  } catch (const Error& e) {
    CHECK(e.id() == "new_plugin.bad_name");
  }
}

TEST_CASE("new-plugin: the longest name keeps every generated source line within 100 columns",
          "[plugin-project]") {
  const std::string longest(48, 'n');
  for (const auto& kind : core::plugin_kinds()) {
    for (bool starter : {false, true}) {
      const fs::path dir = scratch("longest");
      core::write_plugin_project(dir, {kind.id, starter, longest});
      std::istringstream source(read(dir / "src" / "student_attention.cpp"));
      int number = 0;
      for (std::string line; std::getline(source, line);) {
        ++number;
        // Columns are characters: UTF-8 continuation bytes (10xxxxxx) start none.
        const auto columns = std::count_if(line.begin(), line.end(), [](char c) {
          return (static_cast<unsigned char>(c) & 0xC0) != 0x80;
        });
        INFO(kind.id << (starter ? " starter" : " solution") << " line " << number << ": " << line);
        CHECK(columns <= 100);
      }
    }
  }
}

TEST_CASE("new-plugin: an unknown kind is named with the closest one", "[plugin-project]") {
  try {
    core::write_plugin_project(scratch("unknown-kind"), {"multihead", false, ""});
    FAIL("accepted an unknown kind");
  } catch (const Error& e) {
    CHECK(e.id() == "new_plugin.unknown_kind");
    CHECK(std::string(e.what()).find("did you mean 'multi-head'?") != std::string::npos);
  }
}

TEST_CASE("new-plugin: a folder that holds anything is refused and left as it was",
          "[plugin-project]") {
  const fs::path dir = scratch("occupied");
  fs::create_directories(dir);
  std::ofstream(dir / "CMakeLists.txt") << "mine\n";
  try {
    core::write_plugin_project(dir, {"qkv", false, ""});
    FAIL("wrote into a folder that holds files");
  } catch (const Error& e) {
    CHECK(e.id() == "new_plugin.not_empty");
  }
  CHECK(read(dir / "CMakeLists.txt") == "mine\n");
  CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
  // A hidden file or an empty sub-folder counts too; a file in DIR's place is refused.
  const fs::path hidden = scratch("hidden");
  fs::create_directories(hidden / ".git");
  CHECK_THROWS_AS(core::write_plugin_project(hidden, {"qkv", false, ""}), Error);
  const fs::path file = scratch("a-file");
  std::ofstream(file) << "x";
  try {
    core::write_plugin_project(file, {"qkv", false, ""});
    FAIL("wrote over a file");
  } catch (const Error& e) {
    CHECK(e.id() == "new_plugin.not_empty");
  }
  // An empty folder is fine.
  const fs::path empty = scratch("empty");
  fs::create_directories(empty);
  CHECK(core::write_plugin_project(empty, {"qkv", false, ""}).files.size() >= 3);
}

TEST_CASE("new-plugin: a template error writes nothing", "[plugin-project]") {
  const fs::path from = scratch("broken-template");
  fs::create_directories(from / "src");
  std::ofstream(from / "CMakeLists.txt") << "project(@target@)\n";
  std::ofstream(from / "src" / "a.cpp") << "// awb-template: if kind qkv\nx\n";
  const fs::path dir = scratch("from-broken");
  try {
    core::write_plugin_project(dir, {"qkv", false, ""}, from);
    FAIL("rendered a template with an unclosed region");
  } catch (const Error& e) {
    CHECK(e.id() == "template.invalid");
    CHECK(e.location() == "src/a.cpp:1");
  }
  CHECK_FALSE(fs::exists(dir));
  try {
    core::write_plugin_project(dir, {"qkv", false, ""}, from / "missing");
    FAIL("found a template that is not there");
  } catch (const Error& e) {
    CHECK(e.id() == "template.not_found");
  }
}

TEST_CASE("new-plugin: each kind is a bundled assignment, with the same title",
          "[plugin-project]") {
  const core::ExerciseSet set = core::load_exercises({AWB_TEST_EXERCISE_DIR});
  for (const auto& kind : core::plugin_kinds()) {
    INFO(kind.id);
    const core::AssignmentLoad l = core::load_assignment(
        core::bundled_assignment_dir() / (std::string(kind.id) + ".yaml"), set.exercises);
    REQUIRE(l.assignment);
    CHECK(l.assignment->id == kind.id);
    CHECK(l.assignment->title == kind.title);
  }
}
