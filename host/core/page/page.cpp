// page.cpp: the runs a teaching page carries, its data as JSON, and the HTML file around them.
#include "core/page/page.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "core/base/base64.hpp"
#include "core/base/sha256.hpp"
#include "core/base/version.hpp"
#include "core/compare/compare.hpp"
#include "core/exercises/questions.hpp"
#include "core/grading/subject_factory.hpp"
#include "core/page/colour_map.hpp"
#include "core/page/page_assets.hpp"
#include "core/plugins/reference_forward.hpp"
#include "graders/model/error.hpp"
#include "graders/report/format.hpp"

namespace awb::core {
namespace {

using nlohmann::json;

// Up to this many numbers in all a page stores them as float64 (the journey's few hundred, exact
// to the last digit); above it as float32 (7 significant digits), so that a T = 64, 8-head,
// 2-layer page stays under 2 MB.
constexpr size_t kMaxFloat64Values = 50000;

// One subject's run of one case: what the page draws and recomputes.
struct PageRun {
  size_t subject = 0;
  std::vector<std::string> notes;
  std::string error, error_id;
  Family family = Family::kSoftmax;
  KeyBand band;
  bool recompute = true;  // softmax(sharpness · S): the page's slider applies
  double sharpness = 1;   // what it ran at
  RunInput fitted;        // what it received
  RunOutput output;
};

struct SubjectInfo {
  json description;
  const VariantRef* variant = nullptr;  // null: the reference
};

size_t value_count(const Matrix& m) { return m.data.size(); }

// Head h's values V_h = X · W_v[:, h·d_v, (h+1)·d_v) (X itself without projections).
Matrix head_values(const Matrix& x, const LayerWeights& w, int64_t heads, int64_t h) {
  if (!w.w_v) return x;
  const int64_t dv = w.w_v->cols / heads;
  Matrix v(x.rows, dv);
  for (int64_t t = 0; t < x.rows; ++t)
    for (int64_t o = 0; o < dv; ++o) {
      double sum = 0;
      for (int64_t c = 0; c < x.cols; ++c) sum += x(t, c) * (*w.w_v)(c, h * dv + o);
      v(t, o) = sum;
    }
  return v;
}

class MatrixEncoder {
 public:
  explicit MatrixEncoder(bool f64) : f64_(f64) {}
  json operator()(const Matrix& m) const {
    std::string bytes;
    if (f64_) {
      bytes.resize(m.data.size() * sizeof(double));
      std::memcpy(bytes.data(), m.data.data(), bytes.size());
    } else {
      std::vector<float> f(m.data.begin(), m.data.end());
      bytes.resize(f.size() * sizeof(float));
      std::memcpy(bytes.data(), f.data(), bytes.size());
    }
    return json{{"r", m.rows}, {"c", m.cols}, {"b", base64(bytes)}};
  }

 private:
  bool f64_;
};

json band_json(const KeyBand& b) {
  auto side = [](int64_t v) { return v == KeyBand::kAll ? json(nullptr) : json(v); };
  return json{{"ahead", side(b.ahead)}, {"behind", side(b.behind)}};
}

json run_json(const PageRun& run, bool reference, const MatrixEncoder& encode) {
  json j{{"subject", run.subject},          {"notes", run.notes},
         {"family", to_string(run.family)}, {"band", band_json(run.band)},
         {"recompute", run.recompute},      {"sharpness", run.sharpness},
         {"layers", json::array()}};
  if (!run.error.empty()) j["error"] = run.error;
  for (size_t l = 0; l < run.output.layers.size(); ++l) {
    const LayerRun& lr = run.output.layers[l];
    const LayerWeights& w = run.fitted.layers[std::min(l, run.fitted.layers.size() - 1)];
    const auto heads = static_cast<int64_t>(lr.result.weights.size());
    json layer{{"heads", heads}, {"x", encode(lr.input)}, {"z", encode(lr.result.z)}};
    json s = json::array(), a = json::array(), v = json::array();
    // The page recomputes A from S; a variant's own A stays as the page's check, the
    // reference's (softmax(S) in f64 by construction) is left out to keep the file small.
    const bool all_scores = lr.result.scores.size() == lr.result.weights.size();
    const bool own_weights = !(reference && run.recompute && all_scores);
    for (int64_t h = 0; h < heads; ++h) {
      if (own_weights) a.push_back(encode(lr.result.weights[static_cast<size_t>(h)]));
      if (all_scores) s.push_back(encode(lr.result.scores[static_cast<size_t>(h)]));
      v.push_back(encode(head_values(lr.input, w, heads, h)));
    }
    layer["a"] = a;
    layer["s"] = s;
    layer["v"] = v;
    layer["w_o"] = w.w_o ? encode(*w.w_o) : json(nullptr);
    j["layers"].push_back(layer);
  }
  return j;
}

// The numbers run_json stores for `run`: what decides between float64 and float32.
size_t run_values(const PageRun& run, bool reference) {
  size_t n = 0;
  for (size_t l = 0; l < run.output.layers.size(); ++l) {
    const LayerRun& lr = run.output.layers[l];
    const LayerWeights& w = run.fitted.layers[std::min(l, run.fitted.layers.size() - 1)];
    const size_t heads = lr.result.weights.size();
    const bool all_scores = lr.result.scores.size() == heads;
    n += value_count(lr.input) + value_count(lr.result.z);
    n += w.w_v ? size_t(lr.input.rows) * size_t(w.w_v->cols) : heads * value_count(lr.input);
    if (w.w_o) n += value_count(*w.w_o);
    for (size_t h = 0; h < heads; ++h) {
      if (!(reference && run.recompute && all_scores)) n += value_count(lr.result.weights[h]);
      if (all_scores) n += value_count(lr.result.scores[h]);
    }
  }
  return n;
}

// The runs of one case: the reference's (when asked for) and each variant's, at sharpness 1.
std::vector<PageRun> case_runs(const RunInput& input, const PageSource& source,
                               const std::vector<SubjectInfo>& subjects,
                               std::vector<std::unique_ptr<Subject>>& live,
                               const PageOptions& options) {
  std::vector<PageRun> runs;
  for (size_t i = 0; i < subjects.size(); ++i) {
    PageRun run;
    run.subject = i;
    const VariantRef* ref = subjects[i].variant;
    try {
      if (!ref) {
        run.family = input.params.family;
        run.fitted = input;
        run.band = key_band(input.params, reference_params(run.family).decls);
      } else {
        if (!live[i]) live[i] = make_subject(*ref, options.session);
        const Contender contender{ref->variant->id, ref->variant->capabilities, live[i].get(),
                                  ref->variant->params};
        run.fitted = contender_input(input, contender, options.scalar, run.notes);
        run.family = declared_family(ref->variant->params);
        run.band = key_band(run.fitted.params, ref->variant->params);
      }
      // Softmax weights are recomputed in the page from S at sharpness 1; other kernels' are
      // shown as they ran, at the source's sharpness.
      run.recompute = run.family != Family::kLinear;
      run.sharpness = run.recompute ? 1.0 : input.params.sharpness;
      run.fitted.params.sharpness = run.sharpness;
      if (!ref) {
        run.output = reference_run(run.fitted, source.reference_capabilities);
      } else {
        run.output = live[i]->run(run.fitted, options.scalar);
      }
    } catch (const Error& e) {
      run.error = e.what();
      run.error_id = e.id();
      run.output = {};
      if (ref) live[i].reset();  // a faulted runner starts afresh for the next case
    }
    runs.push_back(std::move(run));
  }
  return runs;
}

json question_json(const Exercise& exercise, const Question& q, int page_case) {
  const QuestionTruth truth = reference_truth(exercise, q);
  json names = json::array();
  for (size_t i = 0; i < truth.weights.size(); ++i)
    names.push_back(answer_name(exercise, q, static_cast<int>(i)));
  return json{{"id", q.id},
              {"ask", q.ask},
              {"explain", q.explain},
              {"kind", to_string(q.kind)},
              {"case", page_case},
              {"layer", q.layer},
              {"head", q.head},
              {"query", q.query},
              {"key", q.key},
              {"answer", truth.answer},
              {"weights", truth.weights},
              {"names", names}};
}

std::string colour_map_hex() {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (const auto& rgb : colour_map())
    for (uint8_t c : rgb) {
      out += kHex[c >> 4];
      out += kHex[c & 15];
    }
  return out;
}

std::vector<SubjectInfo> subject_infos(const std::vector<VariantRef>& variants,
                                       const PageOptions& options) {
  std::vector<SubjectInfo> out;
  if (options.reference)
    out.push_back({json{{"label", "reference"},
                        {"reference", true},
                        {"title", "the trusted reference kernels (plain loops, f64)"}},
                   nullptr});
  for (const auto& v : variants) {
    // A variant's id names it, unless another variant of the page has the same id (a mutant
    // of qkv beside qkv): then its plugin's id goes first.
    const bool shared = std::count_if(variants.begin(), variants.end(), [&](const VariantRef& o) {
                          return o.variant->id == v.variant->id;
                        }) > 1;
    const std::string label = shared ? v.plugin->id + ":" + v.variant->id : v.variant->id;
    std::string digest;
    try {
      digest = sha256_file(v.plugin->path);
    } catch (const Error&) {
      // The page goes without it; the plugin was readable when it loaded.
    }
    out.push_back({json{{"label", label},
                        {"reference", false},
                        {"title", v.variant->name.empty() ? v.variant->id : v.variant->name},
                        {"plugin", v.plugin->id},
                        {"plugin_version", v.plugin->version},
                        {"file", v.plugin->path.filename().string()},
                        {"sha256", digest},
                        {"scalar", to_string(options.scalar)}},
                   &v});
  }
  return out;
}

// The data as the text of its <script> element: JSON with every '<' written \u003c (the same
// string to JSON.parse), so that no text in it ("</script>", "<!--<script>") can end the element
// or change how the HTML parser reads it. Text that is not valid UTF-8 (a plugin's message cut
// mid-character) is replaced, never thrown.
std::string script_json(const json& data) {
  const std::string text = data.dump(-1, ' ', false, json::error_handler_t::replace);
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    if (c == '<')
      out += "\\u003c";
    else
      out += c;
  }
  return out;
}

// The page's own script as the text of its element; it is ours, so a "</" or "<!--" in it is a
// fault of the build.
const std::string& checked_script(const std::string& js) {
  if (js.find("</") != std::string::npos || js.find("<!--") != std::string::npos)
    throw std::logic_error("page.js holds \"</\" or \"<!--\", which would end its element");
  return js;
}

// `text` with each {{NAME}} replaced by its value, read in one pass over the template, so that
// a value (the lesson, a token) that holds "{{...}}" is never read as a mark.
std::string fill_template(const std::string& text,
                          const std::vector<std::pair<std::string, std::string>>& values) {
  std::string out;
  size_t at = 0;
  for (size_t open; (open = text.find("{{", at)) != std::string::npos;) {
    const size_t close = text.find("}}", open);
    if (close == std::string::npos) break;
    const std::string name = text.substr(open + 2, close - open - 2);
    const auto it =
        std::find_if(values.begin(), values.end(), [&](const auto& v) { return v.first == name; });
    if (it == values.end())
      throw std::logic_error("the page template has no value {{" + name + "}}");
    out.append(text, at, open - at);
    out += it->second;
    at = close + 2;
  }
  out.append(text, at, std::string::npos);
  return out;
}

}  // namespace

PageSource exercise_page_source(const Exercise& exercise, const std::string& case_id) {
  PageSource s;
  s.title = exercise.title.empty() ? exercise.id : exercise.title;
  s.label = "exercise " + exercise.id + " (" + exercise.file.filename().string() + ")";
  s.sha256 = exercise.sha256;
  s.lesson = exercise.lesson;
  s.lesson_after = exercise.lesson_after;
  if (!case_id.empty()) (void)case_input(exercise, case_id);  // names a case, or throws
  for (size_t i = 0; i < exercise.cases.size(); ++i) {
    const auto& c = exercise.cases[i];
    if (!case_id.empty() && c.id != case_id) continue;
    s.cases.emplace_back(c.id, case_input(exercise, c.id));
    s.case_indices.push_back(static_cast<int>(i));
  }
  for (const auto& q : exercise.questions)
    if (std::find(s.case_indices.begin(), s.case_indices.end(), q.case_index) !=
        s.case_indices.end())
      s.questions.push_back(&q);
  s.reference_capabilities = exercise.reference_capabilities;
  s.exercise = &exercise;
  return s;
}

PageSource problem_page_source(std::string label, RunInput input, uint64_t reference_capabilities,
                               std::string sha256) {
  PageSource s;
  s.title = label;
  s.label = std::move(label);
  s.sha256 = std::move(sha256);
  s.cases.emplace_back("problem", std::move(input));
  s.reference_capabilities = reference_capabilities;
  return s;
}

Page make_page(const PageSource& source, const std::vector<VariantRef>& variants,
               const PageOptions& options) {
  if (source.cases.empty()) throw std::logic_error("a page's source has at least one case");
  const std::vector<SubjectInfo> subjects = subject_infos(variants, options);
  std::vector<std::unique_ptr<Subject>> live(subjects.size());
  std::vector<std::vector<PageRun>> runs;
  Page page;
  page.cases = static_cast<int64_t>(source.cases.size());
  page.subjects = static_cast<int64_t>(subjects.size());
  size_t values = 0;
  for (const auto& [id, input] : source.cases) {
    runs.push_back(case_runs(input, source, subjects, live, options));
    for (const auto& r : runs.back()) {
      values += run_values(r, subjects[r.subject].variant == nullptr);
      if (!r.error.empty())
        page.failures.push_back(
            {subjects[r.subject].description["label"], id, r.error_id, r.error});
    }
  }
  const bool f64 = values <= kMaxFloat64Values;
  const MatrixEncoder encode(f64);

  json subjects_json = json::array();
  for (const auto& s : subjects) subjects_json.push_back(s.description);
  json cases = json::array();
  for (size_t c = 0; c < source.cases.size(); ++c) {
    const RunInput& input = source.cases[c].second;
    json runs_json = json::array();
    for (const auto& r : runs[c])
      runs_json.push_back(run_json(r, subjects[r.subject].variant == nullptr, encode));
    cases.push_back(json{{"id", source.cases[c].first},
                         {"tokens", input.tokens},
                         {"causal", input.params.causal},
                         {"runs", runs_json}});
  }
  json questions = json::array();
  for (const Question* q : source.questions) {
    const auto at =
        std::find(source.case_indices.begin(), source.case_indices.end(), q->case_index);
    questions.push_back(
        question_json(*source.exercise, *q, static_cast<int>(at - source.case_indices.begin())));
  }
  const json data{{"format", "awb-page 1"},
                  {"title", source.title},
                  {"source", {{"label", source.label}, {"sha256", source.sha256}}},
                  {"awb_version", AWB_VERSION},
                  {"lesson", source.lesson},
                  {"lesson_after", source.lesson_after},
                  {"sharpness", source.cases.front().second.params.sharpness},
                  {"float_bits", f64 ? 64 : 32},
                  {"colour_map", colour_map_hex()},
                  {"masked_colour", {kMaskedColour[0], kMaskedColour[1], kMaskedColour[2]}},
                  {"subjects", subjects_json},
                  {"cases", cases},
                  {"questions", questions}};
  page.html =
      fill_template(page_template_html(), {{"TITLE", grade::xml_escape(source.title, false)},
                                           {"CSS", page_template_css()},
                                           {"JS", checked_script(page_template_js())},
                                           {"DATA", script_json(data)}});
  return page;
}

}  // namespace awb::core
