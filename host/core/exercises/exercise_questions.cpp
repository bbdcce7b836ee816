// exercise_questions.cpp: exercise files, version 1: the optional `questions:` section (what the
// explore view asks before it shows the weights). Only where the question points is read here;
// its answer is the reference's (core/exercises/questions.hpp).
#include <set>

#include "core/exercises/exercise_parse.hpp"

namespace awb::core::parse {
namespace {

// The keys both kinds read, present in the file, into `q`; false when one of them is wrong.
bool read_place(YamlReader& rd, const YAML::Node& qn, const std::string& qp, const Exercise& ex,
                Question& q) {
  bool ok = true;
  if (qn["case"]) {
    const auto c = case_ref(rd, qn["case"], qp + ".case", ex);
    ok = ok && c.has_value();
    if (c) q.case_index = *c;
  }
  const int layers = static_cast<int>(ex.layers.size());
  q.layer = layers - 1;
  if (qn["layer"]) {
    const auto v = rd.integer(qn["layer"], qp + ".layer", 0, layers - 1);
    ok = ok && v.has_value();
    if (v) q.layer = int(*v);
  }
  if (qn["head"]) {
    const auto v = rd.integer(qn["head"], qp + ".head", 0, ex.parameters.heads - 1);
    ok = ok && v.has_value();
    if (v) q.head = int(*v);
  }
  const ExerciseCase& c = ex.cases[size_t(q.case_index)];
  if (auto v = section_key(rd, qn, qp, Section::kQuestion, "query")) {
    const auto t = token_ref(rd, *v, qp + ".query", c);
    ok = ok && t.has_value();
    if (t) q.query = *t;
  } else {
    ok = false;
  }
  if (qn["key"]) {
    const auto t = token_ref(rd, qn["key"], qp + ".key", c);
    ok = ok && t.has_value();
    if (t) q.key = *t;
  }
  return ok;
}

// What each kind asks of the other keys; the types are read already.
bool kind_rules(YamlReader& rd, const YAML::Node& qn, const std::string& qp, const Exercise& ex,
                const Question& q) {
  if (q.kind == QuestionKind::kToken) {
    if (!qn["key"]) return true;
    rd.error(qn["key"], qp + ".key", rd.id("value"),
             "only a head question names a key; a token question's answer is the key");
    return false;
  }
  bool ok = true;
  if (qn["head"]) {
    rd.error(qn["head"], qp + ".head", rd.id("value"),
             "a head question's answer is the head; leave head out");
    ok = false;
  }
  if (ex.parameters.heads < 2) {
    rd.error(qn["answer"], qp + ".answer", rd.id("value"),
             "a head question needs more than one head (parameters.heads is " +
                 std::to_string(ex.parameters.heads) + ")");
    ok = false;
  }
  if (!qn["key"]) {
    rd.error(qn, qp + ".key", rd.id("missing_key"),
             "a head question names the key whose weight the heads are compared on");
    return false;
  }
  // Under the mask every head gives a later key exactly 0: no head would be the answer.
  if (ex.parameters.causal && q.key > q.query) {
    rd.error(qn["key"], qp + ".key", rd.id("value"),
             "the causal mask hides a key after its query; every head gives it 0");
    ok = false;
  }
  return ok;
}

}  // namespace

void questions(YamlReader& rd, const YAML::Node& n, Exercise& ex) {
  if (!n.IsSequence() || n.size() == 0) {
    rd.error(n, "questions", rd.id("type"), "must be a non-empty list of questions");
    return;
  }
  if (static_cast<int64_t>(n.size()) > kMaxQuestions) {
    rd.error(n, "questions", rd.id("limit"),
             std::to_string(n.size()) + " questions; the cap is " + std::to_string(kMaxQuestions));
    return;
  }
  if (ex.cases.empty() || ex.layers.empty()) return;  // reported already
  std::set<std::string> ids;
  for (size_t i = 0; i < n.size(); ++i) {
    const YAML::Node qn = n[i];
    const std::string qp = "questions[" + std::to_string(i) + "]";
    if (!check_section(rd, qn, qp, Section::kQuestion)) continue;
    Question q;
    bool ok = true;
    if (auto v = section_key(rd, qn, qp, Section::kQuestion, "id")) {
      if (auto s = rd.string(*v, qp + ".id")) {
        q.id = *s;
        if (!ids.insert(*s).second) {
          rd.error(*v, qp + ".id", rd.id("duplicate_id"), "question id '" + *s + "' appears twice");
          ok = false;
        }
      }
    }
    if (auto v = section_key(rd, qn, qp, Section::kQuestion, "ask"))
      if (auto s = rd.string(*v, qp + ".ask")) q.ask = *s;
    if (qn["explain"])
      if (auto s = rd.string(qn["explain"], qp + ".explain")) q.explain = *s;
    // The kind read in place, not through an optional made by ?: (GCC 12 then warns that the
    // optional's value may be read uninitialised).
    bool has_kind = false;
    if (const auto kind_node = section_key(rd, qn, qp, Section::kQuestion, "answer"))
      if (const auto kind = rd.choice<QuestionKind>(*kind_node, qp + ".answer")) {
        q.kind = *kind;
        has_kind = true;
      }
    ok = read_place(rd, qn, qp, ex, q) && ok;
    if (!has_kind) continue;
    if (ok && kind_rules(rd, qn, qp, ex, q)) ex.questions.push_back(std::move(q));
  }
}

}  // namespace awb::core::parse
