// page.tests.cpp: the teaching page awb page writes: its data (every case, each subject's run at
// sharpness 1, the questions with the reference's answers), text that could end its script early
// kept inside it, the same bytes every time, nothing fetched from the network, and its sizes.
#include "core/page/page.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "core/base/base64.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/page/colour_map.hpp"
#include "support/test_support.hpp"

using namespace awb;
using nlohmann::json;

namespace {

const core::Exercise& bundled(const std::string& id) {
  static const core::ExerciseSet set = core::load_exercises({core::bundled_exercise_dir()});
  return core::find_exercise(set, id);
}

core::VariantRef variant(const std::string& spec) {
  return core::find_variant(awb::test::bundled_catalog(), spec);
}

// The JSON of the page's data block, read back as the browser reads it.
json page_data(const std::string& html) {
  const std::string open = "<script id=\"awb-data\" type=\"application/json\">";
  const size_t from = html.find(open);
  REQUIRE(from != std::string::npos);
  const size_t start = from + open.size();
  const size_t end = html.find("</script>", start);
  REQUIRE(end != std::string::npos);
  return json::parse(html.substr(start, end - start));
}

// How many times `what` occurs in `text`.
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = 0; (at = text.find(what, at)) != std::string::npos; at += what.size()) ++n;
  return n;
}

}  // namespace

TEST_CASE("page: the journey page carries the reference and the variant at sharpness 1", "[page]") {
  const core::Page page =
      core::make_page(core::exercise_page_source(bundled("journey")), {variant("parameter-free")});
  CHECK(page.failures.empty());
  CHECK(page.cases == 1);
  CHECK(page.subjects == 2);
  const json data = page_data(page.html);
  CHECK(data["format"] == "awb-page 1");
  CHECK(data["float_bits"] == 64);
  REQUIRE(data["subjects"].size() == 2);
  CHECK(data["subjects"][0]["reference"] == true);
  CHECK(data["subjects"][1]["label"] == "parameter-free");
  CHECK(data["subjects"][1]["sha256"].get<std::string>().size() == 64);
  REQUIRE(data["cases"].size() == 1);
  const json& c = data["cases"][0];
  CHECK(c["tokens"].size() == 6);
  REQUIRE(c["runs"].size() == 2);
  for (const json& run : c["runs"]) {
    CHECK(run["sharpness"] == 1.0);
    CHECK(run["recompute"] == true);
    REQUIRE(run["layers"].size() == 1);
    CHECK(run["layers"][0]["s"].size() == 1);
    CHECK(run["layers"][0]["v"].size() == 1);
  }
  // The variant's own A travels as the page's check; the reference's is softmax(S) by
  // construction and stays out.
  CHECK(c["runs"][0]["layers"][0]["a"].empty());
  CHECK(c["runs"][1]["layers"][0]["a"].size() == 1);
  // The questions with the reference's answers: "journey" attends most to itself.
  REQUIRE(data["questions"].size() == bundled("journey").questions.size());
  CHECK(data["questions"][0]["kind"] == "token");
  CHECK(data["questions"][0]["answer"] == 1);
  CHECK(data["questions"][0]["names"][1] == "journey");
  // One colour map with the GUI: 256 entries of 3 bytes as hex.
  CHECK(data["colour_map"].get<std::string>().size() == 256 * 6);
}

TEST_CASE("page: the same source and variants give the same bytes", "[page]") {
  const auto source = core::exercise_page_source(bundled("river-bank"));
  const std::string a = core::make_page(source, {variant("qkv")}).html;
  const std::string b = core::make_page(source, {variant("qkv")}).html;
  CHECK(a == b);
  const json data = page_data(a);
  CHECK(data["cases"].size() == 2);
  CHECK(data["cases"][1]["id"] == "money");
}

TEST_CASE("page: --case keeps one case and the questions about it", "[page]") {
  const core::Exercise& ex = bundled("animal-road");
  const auto source = core::exercise_page_source(ex, "wide");
  REQUIRE(source.cases.size() == 1);
  CHECK(source.cases[0].first == "wide");
  const json data = page_data(core::make_page(source, {variant("qkv")}).html);
  for (const json& q : data["questions"]) CHECK(q["case"] == 0);
  CHECK(awb::test::thrown_error_id([&] { core::exercise_page_source(ex, "narrow"); }) ==
        "exercise.case_not_found");
}

TEST_CASE("page: lesson text cannot end the script, open a comment or fill a mark of the template",
          "[page]") {
  core::Exercise ex = bundled("journey");
  ex.lesson = "</script><script>alert(1)</script> <!--<script> {{JS}} {{DATA}} & <b> \xff";
  ex.title = "A <title> & {{CSS}}";
  const core::Page page = core::make_page(core::exercise_page_source(ex), {});
  // The page's own two scripts, and no other.
  CHECK(count(page.html, "</script>") == 2);
  // Nothing in the data can open a comment or a script of its own.
  CHECK(count(page.html, "<!--") == 0);
  const json data = page_data(page.html);
  // The byte that is not UTF-8 is replaced (U+FFFD), the rest kept as written.
  std::string lesson = ex.lesson;
  lesson.replace(lesson.size() - 1, 1, "\xef\xbf\xbd");
  CHECK(data["lesson"] == lesson);
  CHECK(data["title"] == ex.title);
  CHECK(page.html.find("<title>A &lt;title&gt; &amp; {{CSS}}</title>") != std::string::npos);
}

TEST_CASE("page: nothing is fetched: no address, and a policy that forbids fetching", "[page]") {
  const std::string html =
      core::make_page(core::exercise_page_source(bundled("multi-head")), {variant("multi-head")})
          .html;
  CHECK(html.find("default-src 'none'") != std::string::npos);
  for (const char* address : {"http:", "https:", "src=", "href=", "@import", "url("})
    CHECK(html.find(address) == std::string::npos);
}

TEST_CASE("page: the journey page stays under 200 KB, T = 64 with 8 heads and 2 layers under 2 MB",
          "[page]") {
  const std::string journey =
      core::make_page(core::exercise_page_source(bundled("journey")), {variant("parameter-free")})
          .html;
  CHECK(journey.size() <= 200u * 1024u);
  const core::ExerciseSet set =
      core::load_exercises({std::filesystem::path(AWB_TEST_PAGE_DIR) / "t64-8head-2layer.yaml"});
  REQUIRE(set.errors.empty());
  const core::Page big =
      core::make_page(core::exercise_page_source(set.exercises.at(0)), {variant("multi-head")});
  CHECK(big.failures.empty());
  CHECK(big.html.size() <= 2u * 1024u * 1024u);
  const json data = page_data(big.html);
  CHECK(data["float_bits"] == 32);
  const json& layers = data["cases"][0]["runs"][1]["layers"];
  REQUIRE(layers.size() == 2);
  CHECK(layers[1]["heads"] == 8);
}

TEST_CASE("page: a variant that cannot run a case is shown with its error", "[page]") {
  // A two-layer stack whose first layer's Z (2 wide) cannot be added to its input (3 wide):
  // run.residual_width, for the variant and the reference alike.
  auto source = core::exercise_page_source(bundled("journey"));
  auto& layers = source.cases[0].second.layers;
  LayerWeights first;
  first.w_q = first.w_k = first.w_v = Matrix(3, 2, 0.5);
  first.residual = true;
  layers = {first, LayerWeights{}};
  const core::Page page = core::make_page(source, {variant("qkv")});
  REQUIRE_FALSE(page.failures.empty());
  CHECK(page.failures[0].case_id == source.cases[0].first);
  CHECK_FALSE(page.failures[0].error_id.empty());
  const json data = page_data(page.html);
  bool shown = false;
  for (const json& run : data["cases"][0]["runs"]) shown = shown || run.contains("error");
  CHECK(shown);
}

TEST_CASE("base64: RFC 4648's vectors, and a text longer than one chunk", "[page]") {
  CHECK(core::base64("") == "");
  CHECK(core::base64("f") == "Zg==");
  CHECK(core::base64("fo") == "Zm8=");
  CHECK(core::base64("foo") == "Zm9v");
  CHECK(core::base64("foob") == "Zm9vYg==");
  CHECK(core::base64("foobar") == "Zm9vYmFy");
  // 3 MiB + 2 bytes: two chunks, only the last one padded.
  const std::string big((size_t(3) << 20) + 2, 'x');
  const std::string text = core::base64(big);
  CHECK(text.size() == (big.size() + 2) / 3 * 4);
  CHECK(text.substr(0, 4) == "eHh4");
  CHECK(text.substr(text.size() - 4) == "eHg=");
  CHECK(text.find('=') == text.size() - 1);
}
