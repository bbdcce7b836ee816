// exercise_keys.cpp: the table of an exercise file's keys, from which exercise.schema.json and
// FORMAT.md's key tables are generated.
#include "core/exercises/exercise_keys.hpp"

#include <stdexcept>

#include "core/exercises/exercise.hpp"
#include "core/exercises/exercise_parse.hpp"
#include "core/plugins/capabilities.hpp"

namespace awb::core {
namespace {

using S = Section;
using V = ValueType;
using namespace parse;

std::vector<std::string> capability_words() { return capability_spellings(); }

constexpr std::string_view kIdPattern = "^[a-z0-9-]{1,64}$";
constexpr std::string_view kId = "string `[a-z0-9-]+`";

// Long for a reason: the table, one row per key, by section in FORMAT.md's order.
constexpr ExerciseKey kKeys[] = {
    key(S::kTop, "awb-exercise", V::kInteger)
        .req()
        .is("version")
        .means("format version; must be `1`"),
    key(S::kTop, "id", V::kString)
        .req()
        .matches(kIdPattern)
        .as(kId)
        .means("unique among the exercises loaded together"),
    key(S::kTop, "title", V::kString).req().means("one line"),
    key(S::kTop, "lesson", V::kString)
        .as("Markdown string")
        .absent("`\"\"`")
        .means("what the student reads before running it"),
    key(S::kTop, "lesson_after", V::kString)
        .as("Markdown string")
        .absent("`\"\"`")
        .means("lesson text that gives a question's answer away: shown after `lesson`, hidden "
               "while a question waits for its answer (\"Questions\" below)"),
    key(S::kTop, "variant", V::kMapping)
        .req()
        .is("variant")
        .means("which reference applies and what the variant needs (below)"),
    key(S::kTop, "tokens", V::kList)
        .is("tokens")
        .as("list of strings")
        .absent("required unless every case has its own")
        .means("the sentence"),
    key(S::kTop, "embeddings", V::kListOrMapping)
        .is("embeddings")
        .as("see below")
        .absent("required unless every case has its own")
        .means("one vector per token, d_model wide"),
    key(S::kTop, "positions", V::kWordOrMapping)
        .is("positions")
        .as("`none` | `sinusoidal` | `{inline: rows}`")
        .absent("`none`")
        .means("added to the embeddings by the host"),
    key(S::kTop, "transforms", V::kMapping)
        .is("transforms")
        .means("input transforms applied after positions (below)"),
    key(S::kTop, "weights", V::kMapping)
        .is("weights")
        .means("`w_q`, `w_k`, `w_v`, `w_o` for a one-layer exercise"),
    key(S::kTop, "layers", V::kList)
        .each_is("layer")
        .items(1, kMaxLayers)
        .means("a stack of attention layers (below); excludes `weights`"),
    key(S::kTop, "parameters", V::kMapping)
        .is("parameters")
        .absent("see below")
        .means("sharpness, heads, kv_heads, causal, scale"),
    key(S::kTop, "limits", V::kMapping)
        .is("limits")
        .absent("see below")
        .means("resources one run of the plugin may use"),
    key(S::kTop, "cases", V::kList)
        .each_is("case")
        .items(1, kMaxCases)
        .absent("one case made of the top level")
        .means("related inputs sharing the weights"),
    key(S::kTop, "checks", V::kList)
        .req()
        .each_is("check")
        .items(1, kMaxChecks)
        .means("what is graded"),
    key(S::kTop, "train", V::kMapping)
        .is("train")
        .means("what `awb train` learns, and when it has succeeded (below)"),
    key(S::kTop, "questions", V::kList)
        .each_is("question")
        .items(1, kMaxQuestions)
        .means("what the explore view asks before it shows the weights (below)"),

    key(S::kVariant, "kind", V::kWord)
        .req()
        .one_of(all_names<VariantKind>)
        .means("the reference that grades it"),
    key(S::kVariant, "requires", V::kList)
        .one_of(capability_words)
        .items(0, 16)
        .as("list of capability names")
        .absent("implied by the exercise")
        .means("extra capabilities, e.g. `[causal]`"),
    key(S::kVariant, "params", V::kMapping)
        .is("params")
        .as("mapping of names to numbers, booleans or words")
        .means("the variant's parameters, e.g. `{window: 2}`"),

    key(S::kTransforms, "scale_embeddings", V::kNumber)
        .is("number")
        .means("multiply X (after positions) by it, e.g. `1000` for a stability probe"),

    key(S::kParameters, "sharpness", V::kNumber)
        .above(0)
        .absent("`1`")
        .means("scores are multiplied by it before softmax"),
    key(S::kParameters, "heads", V::kInteger)
        .at_least(1)
        .at_most(kMaxHeads)
        .absent("`1`")
        .means("heads; must divide the weights' widths"),
    key(S::kParameters, "kv_heads", V::kInteger)
        .at_least(1)
        .at_most(kMaxHeads)
        .absent("`heads`")
        .means("key/value heads (grouped-query attention): divides heads; query head j reads "
               "key/value head j / (heads / kv_heads); 1 is multi-query"),
    key(S::kParameters, "causal", V::kBoolean)
        .absent("`false`")
        .means("query t sees keys t2 ≤ t only"),
    key(S::kParameters, "scale", V::kWord)
        .one_of(all_names<ScaleMode>)
        .absent("`auto`")
        .means("`auto`: 1/√d_k with weights, none without"),

    key(S::kLimits, "cpu_seconds", V::kNumber)
        .above(0)
        .absent("`10`")
        .means("CPU time of one plugin run"),
    key(S::kLimits, "wall_seconds", V::kNumber)
        .above(0)
        .absent("`30`")
        .means("wall-clock time of one plugin run"),
    key(S::kLimits, "memory_mb", V::kInteger)
        .at_least(16)
        .at_most(1048576)
        .absent("`1024`")
        .means("address space of the process running the plugin"),

    key(S::kCase, "id", V::kString)
        .req()
        .means("unique in the file; what checks name with `case:`"),
    key(S::kCase, "tokens", V::kList)
        .is("tokens")
        .as("list of strings")
        .absent("the top level's")
        .means("this case's sentence"),
    key(S::kCase, "embeddings", V::kListOrMapping)
        .is("embeddings")
        .as("as at the top level")
        .absent("the top level's")
        .means("one vector per token"),
    key(S::kCase, "positions", V::kWordOrMapping)
        .is("positions")
        .as("as at the top level")
        .absent("the top level's")
        .means("added to the embeddings"),

    key(S::kLayer, "weights", V::kMapping)
        .req()
        .is("weights")
        .means("the layer's `w_q`, `w_k`, `w_v`, `w_o`, as in `weights`"),
    key(S::kLayer, "residual", V::kBoolean)
        .absent("`true`")
        .means("feed X + Z (true) or Z (false) to the next layer"),

    // w_q, w_k and w_v come together (or not at all, in a layer of a parameter-free stack).
    key(S::kWeights, "w_q", V::kListOrMapping)
        .is("weight")
        .as("list of rows | seeded mapping")
        .means("d_model × heads·d_k"),
    key(S::kWeights, "w_k", V::kListOrMapping)
        .is("weight")
        .as("list of rows | seeded mapping")
        .means("d_model × kv_heads·d_k"),
    key(S::kWeights, "w_v", V::kListOrMapping)
        .is("weight")
        .as("list of rows | seeded mapping")
        .means("d_model × kv_heads·d_v"),
    key(S::kWeights, "w_o", V::kListOrMapping)
        .is("weight")
        .as("list of rows | seeded mapping")
        .means("heads·d_v × d_out, the output projection"),

    // Every check's keys; its kind adds the selector (property, predicate) and its definition's.
    key(S::kCheck, "id", V::kString).req().matches(kIdPattern).as(kId).means("unique in the file"),
    key(S::kCheck, "kind", V::kWord).req().one_of(all_names<grade::CheckKind>).means("below"),
    key(S::kCheck, "points", V::kNumber)
        .at_least(0)
        .at_most(1000000)
        .absent("`1`")
        .means("what passing earns; the checks of a file together earn at most 1,000,000"),
    key(S::kCheck, "hint", V::kString)
        .absent("`\"\"`")
        .means("shown with this check only, when it fails: write what the check verifies, in "
               "the exercise's numbers, not a guess at the cause (one failed check has many "
               "possible causes; the diagnosis names one only when the outputs show it); a "
               "threshold it states (\"entropy above 1.2\") is the check's own "
               "(`hint_threshold_mismatches` in graders/checks/hint_threshold.hpp says how a "
               "hint's numbers are read; a test holds the bundled hints to it)"),
    key(S::kCheck, "visibility", V::kWord)
        .one_of(all_names<grade::Visibility>)
        .absent("`visible`")
        .means("who sees it, and when"),
    key(S::kCheck, "case", V::kString).as("case id").absent("the first case").means("which input"),
    key(S::kCheck, "layer", V::kInteger)
        .at_least(0)
        .at_most(kMaxLayers - 1)
        .as("integer")
        .absent("the last layer")
        .means("which layer's outputs"),
    key(S::kCheck, "parameters", V::kMapping)
        .is("parameters")
        .means("overrides of `parameters` for this check only (applied first; a `monotone` "
               "sweep then sets sharpness on top)"),
    key(S::kCheck, "scalar", V::kWord)
        .one_of(all_names<Scalar>)
        .absent("the grading's (`awb grade --scalar`)")
        .means("run the plugin in this precision for this check, e.g. an f32 probe in an f64 "
               "grading (a mistake such as exp() without the max subtraction hides in f64 below "
               "a score of about 709 and overflows a float above about 88.7); a variant without "
               "that capability gets `not-run`"),

    // A question's answer is derived from the reference, never written (FORMAT.md, "Questions").
    key(S::kQuestion, "id", V::kString)
        .req()
        .means("unique among the file's questions; `awb-gui --question ID` opens it"),
    key(S::kQuestion, "ask", V::kString).req().means("the question, one or two lines"),
    key(S::kQuestion, "answer", V::kWord)
        .req()
        .one_of(all_names<QuestionKind>)
        .means("what the student picks; the right answer is derived (below)"),
    key(S::kQuestion, "case", V::kString)
        .as("case id")
        .absent("the first case")
        .means("which sentence"),
    key(S::kQuestion, "layer", V::kInteger)
        .at_least(0)
        .at_most(kMaxLayers - 1)
        .as("integer")
        .absent("the last layer")
        .means("which layer's weights"),
    key(S::kQuestion, "head", V::kInteger)
        .at_least(0)
        .at_most(kMaxHeads - 1)
        .as("integer")
        .absent("`0`")
        .means("which head (token questions only)"),
    key(S::kQuestion, "query", V::kIntegerOrString)
        .req()
        .is("token_ref")
        .as("token")
        .means("the row the question reads"),
    key(S::kQuestion, "key", V::kIntegerOrString)
        .is("token_ref")
        .as("token")
        .means("head questions only, and required there: the key the heads are compared on"),
    key(S::kQuestion, "explain", V::kString)
        .absent("`\"\"`")
        .means("shown with the verdict, whichever answer was picked"),
};

}  // namespace

std::string_view to_string(Section s) {
  switch (s) {
    case S::kTop:
      return "top";
    case S::kVariant:
      return "variant";
    case S::kTransforms:
      return "transforms";
    case S::kParameters:
      return "parameters";
    case S::kLimits:
      return "limits";
    case S::kCase:
      return "case";
    case S::kLayer:
      return "layer";
    case S::kWeights:
      return "weights";
    case S::kCheck:
      return "check";
    case S::kQuestion:
      return "question";
  }
  return "?";
}

std::string_view to_string(ValueType t) {
  switch (t) {
    case V::kInteger:
      return "integer";
    case V::kNumber:
      return "number";
    case V::kString:
      return "string";
    case V::kBoolean:
      return "boolean";
    case V::kWord:
      return "word";
    case V::kList:
      return "list";
    case V::kMapping:
      return "mapping";
    case V::kListOrMapping:
      return "list|mapping";
    case V::kWordOrMapping:
      return "mapping|word";
    case V::kIntegerOrString:
      return "integer|string";
  }
  return "?";
}

std::span<const ExerciseKey> exercise_keys() { return kKeys; }

std::vector<std::string> key_names(Section s) {
  std::vector<std::string> out;
  for (const auto& k : kKeys)
    if (k.section == s) out.emplace_back(k.name);
  return out;
}

const ExerciseKey& exercise_key(Section s, std::string_view name) {
  for (const auto& k : kKeys)
    if (k.section == s && k.name == name) return k;
  throw std::logic_error("the exercise key table has no '" + std::string(name) + "' in " +
                         std::string(to_string(s)));
}

std::string_view check_selector(grade::CheckKind kind) {
  switch (kind) {
    case grade::CheckKind::kProperty:
      return "property";
    case grade::CheckKind::kExpect:
      return "predicate";
    case grade::CheckKind::kReference:
    case grade::CheckKind::kGradient:
      return "";
  }
  return "";
}

}  // namespace awb::core
