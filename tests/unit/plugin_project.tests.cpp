// plugin_project.tests.cpp: the SDK template's marker language.
#include <catch2/catch.hpp>

#include "core/plugin_project/template_text.hpp"
#include "graders/model/error.hpp"

using namespace awb;

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

TEST_CASE("template: placeholders are filled in kept lines; an @ of the text stays",
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
